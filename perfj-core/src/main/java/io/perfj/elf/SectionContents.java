package io.perfj.elf;

import io.perfj.io.Bytes;
import io.perfj.io.FormatException;

import java.util.Optional;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * The contents of an ELF file's sections (DWARF's, BTF's), decompressed when the section is
 * {@code SHF_COMPRESSED} (an {@code Elf_Chdr} then zlib or zstd data, as {@code objcopy
 * --compress-debug-sections} and Debian's debug packages write them), and with the relocations of
 * a relocatable object applied ({@link SectionRelocations}). Every reader of DWARF gets its
 * sections here, so a kernel module reads as a linked file does.
 */
public final class SectionContents {
    private SectionContents() {
    }

    /** The named section's data, decompressed; empty when the ELF has no such section with data. */
    public static Optional<Bytes> section(ElfFile elf, String name) {
        Optional<SectionHeader> sh = elf.section(name);
        if (sh.isEmpty() || !sh.get().hasFileData()) {
            return Optional.empty();
        }
        Bytes raw = elf.sectionData(sh.get());
        byte[] out = heapCopy(elf, sh.get(), raw);
        return Optional.of(out == null ? raw : Bytes.of(out, elf.order(), elf.name(), name));
    }

    /**
     * The contents of {@code sh} (whose file bytes are {@code raw}) when they differ from the file:
     * decompressed and/or relocated, on the heap; null when {@code raw} is the contents as they are,
     * so nothing is copied for a linked file.
     */
    public static byte[] heapCopy(ElfFile elf, SectionHeader sh, Bytes raw) {
        boolean compressed = (sh.flags() & Elf.SHF_COMPRESSED) != 0;
        boolean relocated = !SectionRelocations.of(elf, sh).isEmpty();
        if (!compressed && !relocated) {
            return null;
        }
        byte[] out = compressed ? decompress(elf, sh, raw) : raw.bytes(0, raw.size());
        if (relocated) {
            SectionRelocations.apply(elf, sh, out);
        }
        return out;
    }

    /** An SHF_COMPRESSED section (gABI "Section Compression"): Elf32/64_Chdr, then zlib or zstd data. */
    public static byte[] decompress(ElfFile elf, SectionHeader sh, Bytes raw) {
        int chdr = elf.is64() ? 24 : 12;
        int type = raw.s32(0);
        long size = elf.is64() ? raw.u64(8) : raw.u32(4);
        if (size < 0 || size > Integer.MAX_VALUE - 16 || size > raw.size() * 1100L + 1024) {
            throw raw.error(0, "compressed section claims an absurd size of " + Long.toUnsignedString(size));
        }
        byte[] in = raw.bytes(chdr, raw.size() - chdr);
        byte[] out = new byte[(int) size];
        if (type == 1) {
            Inflater inf = new Inflater();
            try {
                inf.setInput(in);
                int n = 0;
                while (n < out.length && !inf.finished()) {
                    int k = inf.inflate(out, n, out.length - n);
                    if (k == 0 && (inf.needsInput() || inf.needsDictionary())) {
                        break;
                    }
                    n += k;
                }
                if (n != out.length) {
                    throw raw.error(chdr, "zlib data inflates to " + n + " bytes, not " + size);
                }
            } catch (DataFormatException e) {
                throw raw.error(chdr, "bad zlib data: " + e.getMessage());
            } finally {
                inf.end();
            }
        } else if (type == 2) {
            try {
                long n = com.github.luben.zstd.Zstd.decompressByteArray(out, 0, out.length, in, 0, in.length);
                if (n != out.length) {
                    throw raw.error(chdr, "zstd data decompresses to " + n + " bytes, not " + size);
                }
            } catch (RuntimeException e) {
                if (e instanceof FormatException fe) {
                    throw fe;
                }
                throw raw.error(chdr, "bad zstd data: " + e.getMessage());
            } catch (LinkageError e) {
                throw new io.perfj.io.MissingLibraryException(elf.name(), "zstd-compressed debug sections",
                        io.perfj.io.MissingLibraryException.ZSTD_JNI, e);
            }
        } else {
            throw raw.error(0, "unknown compression type " + type);
        }
        return out;
    }
}
