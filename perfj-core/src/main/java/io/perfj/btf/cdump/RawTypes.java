package io.perfj.btf.cdump;

import io.perfj.btf.Btf;
import io.perfj.btf.BtfFiles;
import io.perfj.btf.BtfWriter;
import io.perfj.btf.wire.Header;
import io.perfj.btf.wire.StringSection;
import io.perfj.btf.wire.TypeSection;
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
            if (ch.read(head, 0) != 2 || Header.orderOf(head.get(0), head.get(1)) == null) {
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

    /** Same, from a buffer's bytes 0 to its limit. */
    static TypeTable parse(ByteBuffer data, TypeTable base, String source) {
        // Plain ByteBuffers: the foreign-memory API would cost more to start up than this whole parse.
        StringSection baseStrings = base == null ? null : base.strings();
        Header h = Header.read(data, source, 0, base != null, baseStrings == null ? 0 : baseStrings.length());
        TypeSection types = TypeSection.read(data, h, source, 0, base == null ? 1 : base.count(),
                base == null ? null : base.types());
        byte[] strBytes = new byte[h.strLen()];
        data.get(h.strStart(), strBytes);
        TypeTable tt = new TypeTable(types, StringSection.of(strBytes, baseStrings), source);
        tt.validate(base == null ? 1 : base.count(), base == null ? null : base.referenced());
        return tt;
    }

    /** The types of a parsed {@link Btf} (and of its base, when split). */
    public static TypeTable of(Btf btf) {
        TypeTable base = btf.base().map(RawTypes::of).orElse(null);
        return parse(BtfWriter.write(btf, ByteOrder.LITTLE_ENDIAN), base, btf.source());
    }
}
