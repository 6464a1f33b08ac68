package io.perfj.elf;

import io.perfj.io.Bytes;
import io.perfj.io.FormatException;
import org.tukaani.xz.XZInputStream;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * .gnu_debugdata (MiniDebugInfo): an xz-compressed ELF file holding a .symtab with the local
 * function symbols that the stripped file's .dynsym lacks.
 */
final class MiniDebugInfo {
    /** Decompressed MiniDebugInfo is small (a symtab and strtab); refuse anything absurd. */
    static final long MAX_SIZE = 256L << 20;
    /**
     * The decoder's memory limit in KiB: the dictionary of xz's largest preset (-9, 64 MiB) and
     * the decoder's own state; a larger dictionary is refused.
     */
    static final int MEMORY_LIMIT_KIB = 80 * 1024;

    private MiniDebugInfo() {
    }

    static ElfFile decode(ElfFile outer, SectionHeader sec) {
        Bytes data = outer.sectionData(sec);
        byte[] compressed = data.bytes(0, data.size());
        byte[] out;
        try (InputStream in = new XZInputStream(new java.io.ByteArrayInputStream(compressed), MEMORY_LIMIT_KIB)) {
            ByteArrayOutputStream buf = new ByteArrayOutputStream(Math.max(1024, compressed.length * 4));
            byte[] chunk = new byte[64 * 1024];
            int n;
            while ((n = in.read(chunk)) > 0) {
                if (buf.size() + (long) n > MAX_SIZE) {
                    throw data.error(0, "decompressed .gnu_debugdata exceeds " + MAX_SIZE + " bytes");
                }
                buf.write(chunk, 0, n);
            }
            out = buf.toByteArray();
        } catch (IOException | RuntimeException e) {
            if (e instanceof FormatException fe) {
                throw fe;
            }
            throw new FormatException(outer.name(), ".gnu_debugdata", data.base(),
                    "cannot decompress: " + e.getMessage(), e);
        } catch (LinkageError e) {
            throw new io.perfj.io.MissingLibraryException(outer.name(), "MiniDebugInfo (.gnu_debugdata) sections",
                    io.perfj.io.MissingLibraryException.XZ_JAVA, e);
        }
        return ElfFile.of(out, outer.name() + "[.gnu_debugdata]");
    }
}
