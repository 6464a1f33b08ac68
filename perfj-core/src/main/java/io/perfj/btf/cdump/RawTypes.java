package io.perfj.btf.cdump;

import io.perfj.btf.Btf;
import io.perfj.btf.BtfFiles;
import io.perfj.btf.BtfWriter;
import io.perfj.elf.ElfFile;
import io.perfj.io.FormatException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
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

    /**
     * Loads {@code file} (raw BTF or ELF with .BTF) on top of {@code base} (null for none). A raw
     * file is mapped rather than read: only its type words and strings are copied to the heap.
     */
    public static TypeTable load(Path file, TypeTable base) {
        ByteBuffer mapped = mapRaw(file);
        return mapped != null ? parse(mapped, base, file.toString()) : parse(blob(file), base, file.toString());
    }

    /** The file mapped, when it is raw BTF of up to 2 GiB and can be mapped (sysfs files cannot); else null. */
    private static ByteBuffer mapRaw(Path file) {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size < 24 || size > Integer.MAX_VALUE) {
                return null;
            }
            ByteBuffer head = ByteBuffer.allocate(2);
            if (ch.read(head, 0) != 2) {
                return null;
            }
            int m = (head.get(0) & 0xff) | (head.get(1) & 0xff) << 8;
            if (m != MAGIC && m != Integer.reverseBytes(MAGIC) >>> 16) {
                return null;
            }
            return ch.map(FileChannel.MapMode.READ_ONLY, 0, size);
        } catch (IOException | UnsupportedOperationException e) {
            return null;
        }
    }

    /**
     * The BTF bytes of a file: its ELF {@code .BTF} section, or the raw BTF (from a mapping, so a
     * file larger than an array is only read as far as its header says; see
     * {@link BtfFiles#mapRaw}).
     */
    public static byte[] blob(Path file) {
        if (ElfFile.isElf(file)) {
            try (ElfFile elf = ElfFile.open(file)) {
                var sec = elf.section(".BTF").orElseThrow(() -> new FormatException(file.toString(),
                        "ELF file", -1, "no .BTF section"));
                return elf.sectionData(sec).segment().toArray(ValueLayout.JAVA_BYTE);
            }
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment seg = BtfFiles.mapRaw(file, arena);
            if (seg != null) {
                return seg.toArray(ValueLayout.JAVA_BYTE);
            }
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException("failed to open " + file + ": " + e.getMessage(), e);
        }
    }

    /** Parses a BTF blob; {@code base} non-null makes it split BTF continuing the base's ids and strings. */
    public static TypeTable parse(byte[] data, TypeTable base, String source) {
        return parse(ByteBuffer.wrap(data), base, source);
    }

    /** Same, from a buffer's bytes 0 to its capacity. */
    static TypeTable parse(ByteBuffer data, TypeTable base, String source) {
        int dataLength = data.capacity();
        if (dataLength < 24) {
            throw new FormatException(source, "btf_header", 0, "only " + dataLength + " bytes");
        }
        // Plain ByteBuffers: the foreign-memory API would cost more to start up than this whole parse.
        ByteOrder order;
        int magicLe = (data.get(0) & 0xff) | (data.get(1) & 0xff) << 8;
        if (magicLe == MAGIC) {
            order = ByteOrder.LITTLE_ENDIAN;
        } else if (((data.get(0) & 0xff) << 8 | (data.get(1) & 0xff)) == MAGIC) {
            order = ByteOrder.BIG_ENDIAN;
        } else {
            throw new FormatException(source, "btf_header", 0, String.format("bad magic 0x%04x", magicLe));
        }
        ByteBuffer buf = data.duplicate().order(order);
        int version = data.get(2) & 0xff;
        if (version != 1) {
            throw new FormatException(source, "btf_header", 2, "unsupported version " + version);
        }
        long hdrLen = buf.getInt(4) & 0xffffffffL;
        long typeOff = buf.getInt(8) & 0xffffffffL;
        long typeLen = buf.getInt(12) & 0xffffffffL;
        long strOff = buf.getInt(16) & 0xffffffffL;
        long strLen = buf.getInt(20) & 0xffffffffL;
        if (hdrLen < 24 || hdrLen > dataLength) {
            throw new FormatException(source, "btf_header", 4, "bad hdr_len " + hdrLen);
        }
        if (hdrLen + typeOff + typeLen > dataLength || hdrLen + strOff + strLen > dataLength || (typeLen & 3) != 0) {
            throw new FormatException(source, "btf_header", 8, "type or string section outside the "
                    + dataLength + "-byte blob");
        }
        long strAt = hdrLen + strOff;
        if (base == null || strLen != 0) {
            if (strLen == 0 || data.get((int) (strAt + strLen - 1)) != 0) {
                throw new FormatException(source, "btf string section", strAt, "empty or not NUL-terminated");
            }
            if (base == null && data.get((int) strAt) != 0) {
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
        buf.slice((int) (hdrLen + typeOff), nWords * 4).order(order).asIntBuffer().get(words, baseWords, nWords);

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
        byte[] strBytes = new byte[strCount];
        data.get(strStart, strBytes);
        StringSection strings = new StringSection(strBytes, 0, strCount, base == null ? null : base.strings());
        TypeTable tt = new TypeTable(count, pos, words, strings, source);
        tt.validate(baseCount, base == null ? null : base.referenced());
        return tt;
    }

    /** The types of a parsed {@link Btf} (and of its base, when split). */
    public static TypeTable of(Btf btf) {
        TypeTable base = btf.base().map(RawTypes::of).orElse(null);
        return parse(BtfWriter.write(btf, ByteOrder.LITTLE_ENDIAN), base, btf.source());
    }
}
