package io.perfj.btf.cdump;

import io.perfj.btf.Btf;
import io.perfj.btf.BtfWriter;
import io.perfj.elf.ElfFile;
import io.perfj.io.FormatException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads a BTF blob (raw, or the {@code .BTF} section of an ELF file), optionally split on top of
 * a base, straight into a {@link TypeTable}: the type section is copied as words in one bulk
 * transfer, so a 5 MB vmlinux BTF is indexed without one object per type. Header and layout:
 * linux {@code include/uapi/linux/btf.h}, {@code Documentation/bpf/btf.rst}.
 */
public final class RawTypes {
    private static final int MAGIC = 0xeB9F;

    private RawTypes() {
    }

    /** Loads {@code file} (raw BTF or ELF with .BTF) on top of {@code base} (null for none). */
    public static TypeTable load(Path file, TypeTable base) {
        return parse(blob(file), base, file.toString());
    }

    /** The BTF bytes of a file: the whole file, or its ELF {@code .BTF} section. */
    public static byte[] blob(Path file) {
        try {
            if (ElfFile.isElf(file)) {
                try (ElfFile elf = ElfFile.open(file)) {
                    var sec = elf.section(".BTF").orElseThrow(() -> new FormatException(file.toString(),
                            "ELF file", -1, "no .BTF section"));
                    return elf.sectionData(sec).segment().toArray(ValueLayout.JAVA_BYTE);
                }
            }
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException("failed to open " + file + ": " + e.getMessage(), e);
        }
    }

    /** Parses a BTF blob; {@code base} non-null makes it split BTF continuing the base's ids and strings. */
    public static TypeTable parse(byte[] data, TypeTable base, String source) {
        if (data.length < 24) {
            throw new FormatException(source, "btf_header", 0, "only " + data.length + " bytes");
        }
        ByteOrder order;
        MemorySegment seg = MemorySegment.ofArray(data);
        int magicLe = (data[0] & 0xff) | (data[1] & 0xff) << 8;
        if (magicLe == MAGIC) {
            order = ByteOrder.LITTLE_ENDIAN;
        } else if (((data[0] & 0xff) << 8 | (data[1] & 0xff)) == MAGIC) {
            order = ByteOrder.BIG_ENDIAN;
        } else {
            throw new FormatException(source, "btf_header", 0, String.format("bad magic 0x%04x", magicLe));
        }
        ValueLayout.OfInt u32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(order);
        int version = data[2] & 0xff;
        if (version != 1) {
            throw new FormatException(source, "btf_header", 2, "unsupported version " + version);
        }
        long hdrLen = seg.get(u32, 4) & 0xffffffffL;
        long typeOff = seg.get(u32, 8) & 0xffffffffL;
        long typeLen = seg.get(u32, 12) & 0xffffffffL;
        long strOff = seg.get(u32, 16) & 0xffffffffL;
        long strLen = seg.get(u32, 20) & 0xffffffffL;
        if (hdrLen < 24 || hdrLen > data.length) {
            throw new FormatException(source, "btf_header", 4, "bad hdr_len " + hdrLen);
        }
        if (hdrLen + typeOff + typeLen > data.length || hdrLen + strOff + strLen > data.length || (typeLen & 3) != 0) {
            throw new FormatException(source, "btf_header", 8, "type or string section outside the "
                    + data.length + "-byte blob");
        }
        long strAt = hdrLen + strOff;
        if (base == null || strLen != 0) {
            if (strLen == 0 || data[(int) (strAt + strLen - 1)] != 0) {
                throw new FormatException(source, "btf string section", strAt, "empty or not NUL-terminated");
            }
            if (base == null && data[(int) strAt] != 0) {
                throw new FormatException(source, "btf string section", strAt,
                        "does not start with NUL (split BTF? it needs its base BTF)");
            }
        }
        int nWords = (int) (typeLen / 4);
        int baseWords = base == null ? 0 : base.wordCount();
        int[] words = new int[baseWords + nWords];
        if (base != null) {
            base.copyWords(words);
        }
        MemorySegment.copy(seg, u32, hdrLen + typeOff, words, baseWords, nWords);

        int baseCount = base == null ? 1 : base.count();
        int[] pos = new int[Math.max(16, baseCount + nWords / 3 + 1)];
        if (base != null) {
            base.copyPositions(pos);
        }
        int id = baseCount;
        int p = baseWords;
        int end = words.length;
        while (p < end) {
            if (p + 3 > end) {
                throw new FormatException(source, "btf_type [" + id + "]", hdrLen + typeOff + 4L * (p - baseWords),
                        "truncated type");
            }
            int info = words[p + 1];
            int kind = (info >>> 24) & 0x1f;
            if (kind < 1 || kind > 19) {
                throw new FormatException(source, "btf_type [" + id + "]", hdrLen + typeOff + 4L * (p - baseWords),
                        "unknown kind " + kind);
            }
            int next = p + 3 + TypeTable.extraWords(info);
            if (next > end || next < p) {
                throw new FormatException(source, "btf_type [" + id + "]", hdrLen + typeOff + 4L * (p - baseWords),
                        "extends past the type section");
            }
            pos[id++] = p;
            p = next;
        }
        int count = id;

        int strStart = (int) (hdrLen + strOff);
        int strCount = (int) strLen;
        BtfStrings strings = new BtfStrings(data, strStart, strCount, base == null ? null : base.strings());
        TypeTable tt = new TypeTable(count, pos, words, strings, source);
        tt.validate(baseCount);
        tt.checkReferenceCycles(baseCount);
        return tt;
    }

    /** The types of a parsed {@link Btf} (and of its base, when split). */
    public static TypeTable of(Btf btf) {
        TypeTable base = btf.base().map(RawTypes::of).orElse(null);
        return parse(BtfWriter.write(btf, ByteOrder.LITTLE_ENDIAN), base, btf.source());
    }
}
