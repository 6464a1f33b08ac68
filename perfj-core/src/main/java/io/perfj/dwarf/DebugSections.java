package io.perfj.dwarf;

import com.github.luben.zstd.Zstd;
import io.perfj.elf.ElfFile;
import io.perfj.elf.SectionHeader;
import io.perfj.io.Bytes;
import io.perfj.io.FormatException;

import java.nio.ByteOrder;
import java.util.Optional;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * The bytes of an ELF file's DWARF sections, decompressed when the section is
 * {@code SHF_COMPRESSED} (an {@code Elf_Chdr} then zlib or zstd data, as {@code objcopy
 * --compress-debug-sections} and Debian's debug packages write them).
 */
public final class DebugSections {
    private static final long SHF_COMPRESSED = 0x800;
    private static final int ELFCOMPRESS_ZLIB = 1;
    private static final int ELFCOMPRESS_ZSTD = 2;
    /** Refuse to inflate a section claiming more than this (a corrupted header). */
    private static final long MAX_SIZE = 1L << 31;

    private DebugSections() {
    }

    /** The named section's data, decompressed; empty when the ELF has no such section with data. */
    public static Optional<Bytes> section(ElfFile elf, String name) {
        Optional<SectionHeader> sh = elf.section(name);
        if (sh.isEmpty() || !sh.get().hasFileData()) {
            return Optional.empty();
        }
        Bytes raw = elf.sectionData(sh.get());
        if ((sh.get().flags() & SHF_COMPRESSED) == 0) {
            return Optional.of(raw);
        }
        return Optional.of(decompress(elf, name, raw));
    }

    private static Bytes decompress(ElfFile elf, String name, Bytes raw) {
        String what = "compressed section " + name;
        int type;
        long size;
        long hdr;
        if (elf.is64()) {
            raw.check(0, 24);
            type = (int) raw.u32(0);
            size = raw.u64(8);
            hdr = 24;
        } else {
            raw.check(0, 12);
            type = (int) raw.u32(0);
            size = raw.u32(4);
            hdr = 12;
        }
        if (size < 0 || size > MAX_SIZE) {
            throw new FormatException(elf.name(), what, raw.base(), "absurd uncompressed size " + size);
        }
        byte[] in = raw.bytes(hdr, raw.size() - hdr);
        byte[] out = new byte[(int) size];
        switch (type) {
            case ELFCOMPRESS_ZLIB -> {
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
                        throw new FormatException(elf.name(), what, raw.base(),
                                "inflated " + n + " of " + out.length + " bytes");
                    }
                } catch (DataFormatException e) {
                    throw new FormatException(elf.name(), what, raw.base(), "bad zlib data: " + e.getMessage());
                } finally {
                    inf.end();
                }
            }
            case ELFCOMPRESS_ZSTD -> {
                long n = Zstd.decompressByteArray(out, 0, out.length, in, 0, in.length);
                if (Zstd.isError(n) || n != out.length) {
                    throw new FormatException(elf.name(), what, raw.base(), "bad zstd data");
                }
            }
            default -> throw new FormatException(elf.name(), what, raw.base(), "unknown compression type " + type);
        }
        ByteOrder order = elf.order();
        return Bytes.of(out, order, elf.name(), name);
    }
}
