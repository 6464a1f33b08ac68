package io.perfj.btf;

import io.perfj.btf.wire.Header;
import io.perfj.btf.wire.StringSection;
import io.perfj.btf.wire.TypeChecks;
import io.perfj.btf.wire.TypeSection;
import io.perfj.elf.ElfFile;
import io.perfj.io.Bytes;
import io.perfj.io.FormatException;

import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * A BTF blob as its words, with no object per type: the type section indexed by id
 * ({@link TypeSection}, flat, ids from 1: a split BTF's base records are copied in front) and the
 * string sections ({@link StringSection}, split on the base's). Read from a raw file (mapped: only
 * the type words and strings are copied to the heap, so a 5 MB vmlinux BTF costs one bulk copy),
 * an ELF {@code .BTF} section, a blob, or a parsed {@link Btf}. The printers that walk words (the
 * raw dumper, the C dumper) read through this.
 *
 * @param types   every record from id 1 ({@code types.first()} is 1 for split BTF too)
 * @param strings the names, the base's below {@code strings.baseLength()}
 * @param firstId the first id of this blob's own records (1, or the base's end)
 * @param source  the file, for error messages
 * @param wordZero where word 0 of {@code types}' array is in {@code source} (for split BTF where
 *                the own records would begin minus the base's words), for error offsets
 */
public record BtfWords(TypeSection types, StringSection strings, int firstId, String source, long wordZero) {
    /**
     * Loads {@code file} (raw BTF or ELF with .BTF) on top of {@code base} (null for none). A raw
     * file is read with a plain {@link FileInputStream}: /sys/kernel/btf files cannot be mapped,
     * and a {@code FileChannel}'s first use loads the JDK's network library (it probes for IPv6)
     * and its channel classes, several milliseconds of a dump that takes tens.
     */
    public static BtfWords load(Path file, BtfWords base) {
        String name = file.toString();
        byte[] data = readRaw(file);
        if (data != null) {
            return parse(ByteBuffer.wrap(data), 0, base, name);
        }
        if (ElfFile.isElf(file)) {
            try (ElfFile elf = ElfFile.open(file)) {
                Bytes sec = btfSection(elf, file);
                return parse(ByteBuffer.wrap(sec.bytes(0, sec.size())), sec.base(), base, name);
            }
        }
        return parse(ByteBuffer.wrap(blob(file)), 0, base, name);
    }

    /**
     * The whole file, or null when it is an ELF file (only its .BTF section is read) or larger
     * than one array holds (then only its header says how much of it is BTF: {@link #blob}).
     * Read in 64 KiB pieces: the JDK copies a read through a native buffer of the requested
     * size, which above that is a fresh mapping per call (and sysfs answers 4 KiB a call).
     */
    private static byte[] readRaw(Path file) {
        File f = file.toFile();
        long size = f.length();
        if (size > BtfFiles.MAX_BLOB) {
            return null;
        }
        try (FileInputStream in = new FileInputStream(f)) {
            byte[] d = new byte[(int) Math.max(size, 4096)];
            int n = in.readNBytes(d, 0, 4);
            if (n == 4 && d[0] == 0x7f && d[1] == 'E' && d[2] == 'L' && d[3] == 'F') {
                return null;
            }
            for (;;) {
                if (n == d.length) {
                    // as long as the size said: grow only when there is more (a file that grew)
                    int more = in.read();
                    if (more < 0) {
                        return d;
                    }
                    if (n >= BtfFiles.MAX_BLOB) {
                        return null;
                    }
                    d = Arrays.copyOf(d, (int) Math.min(BtfFiles.MAX_BLOB, 2L * n));
                    d[n++] = (byte) more;
                }
                int r = in.read(d, n, Math.min(1 << 16, d.length - n));
                if (r < 0) {
                    return n == d.length ? d : Arrays.copyOf(d, n);
                }
                n += r;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("failed to open " + file + ": " + e.getMessage(), e);
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
                return btfSection(elf, file).segment().toArray(ValueLayout.JAVA_BYTE);
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

    private static Bytes btfSection(ElfFile elf, Path file) {
        return elf.sectionData(elf.section(".BTF").orElseThrow(() -> new FormatException(file.toString(),
                "ELF file", -1, "no .BTF section")));
    }

    /**
     * A blob's header checked and its type section indexed, split on {@code base} when non-null;
     * the records are not checked (see {@link #check}). Errors name {@code source} and offsets
     * from {@code origin}, the blob's position in it.
     */
    public static BtfWords parse(ByteBuffer data, long origin, BtfWords base, String source) {
        StringSection baseStrings = base == null ? null : base.strings();
        Header h = Header.read(data, source, origin, base != null, baseStrings == null ? 0 : baseStrings.length());
        int first = base == null ? 1 : base.types().end();
        TypeSection types = TypeSection.read(data, h, source, origin, first, base == null ? null : base.types());
        byte[] strBytes = new byte[h.strLen()];
        data.get(h.strStart(), strBytes);
        long wordZero = origin + h.typeStart() - 4L * (base == null ? 0 : base.types().wordCount());
        return new BtfWords(types, StringSection.of(strBytes, baseStrings), first, source, wordZero);
    }

    /** The words of a parsed {@link Btf} (and of its base, when split). */
    public static BtfWords of(Btf btf) {
        BtfWords base = btf.base().map(BtfWords::of).orElse(null);
        return parse(ByteBuffer.wrap(BtfWriter.write(btf, ByteOrder.LITTLE_ENDIAN)), 0, base, btf.source());
    }

    /** One past the last type id. */
    public int end() {
        return types.end();
    }

    /** The checks {@link Btf#parse} makes, for this blob's own records from {@code from} to {@code to}. */
    public void check(int from, int to) {
        new TypeChecks(types, strings, source, wordZero).check(from, to);
    }
}
