package io.perfj.btf;

import io.perfj.btf.wire.Header;
import io.perfj.elf.ElfFile;
import io.perfj.elf.SectionHeader;
import io.perfj.io.Bytes;
import io.perfj.io.FormatException;
import io.perfj.perfdata.FeatureId;
import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.feature.Feature;
import io.perfj.perfdata.feature.Features;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Finds BTF in a file the way bpftool's {@code btf dump file} does: a raw BTF blob (e.g.
 * {@code /sys/kernel/btf/vmlinux}), or the {@code .BTF} section of an ELF object; and, beyond
 * bpftool, the BPF_BTF feature of a perf.data recording (one blob per BPF program BTF id).
 */
public final class BtfFiles {
    private BtfFiles() {
    }

    /** One BTF found in a file; {@code id} is the BPF_BTF id for perf.data entries, else -1. */
    public record Found(long id, Btf btf) {
    }

    /** What kind of file {@code path} is, from its first bytes. */
    public enum Kind { RAW, ELF, PERF_DATA, UNKNOWN }

    public static Kind kind(Path path) {
        byte[] head = new byte[8];
        int n;
        // a FileInputStream, not Files.newInputStream: no channel classes for a command whose
        // input is read that way too (BtfWords.load)
        try (var in = new java.io.FileInputStream(path.toFile())) {
            n = in.readNBytes(head, 0, 8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (n >= 4 && head[0] == 0x7f && head[1] == 'E' && head[2] == 'L' && head[3] == 'F') {
            return Kind.ELF;
        }
        if (n >= 8 && (new String(head, 0, 8, java.nio.charset.StandardCharsets.ISO_8859_1).equals("PERFILE2")
                || new String(head, 0, 8, java.nio.charset.StandardCharsets.ISO_8859_1).equals("2ELIFREP"))) {
            return Kind.PERF_DATA;
        }
        if (n >= 2 && ((head[0] & 0xff) == 0x9f && (head[1] & 0xff) == 0xeb
                || (head[0] & 0xff) == 0xeb && (head[1] & 0xff) == 0x9f)) {
            return Kind.RAW;
        }
        return Kind.UNKNOWN;
    }

    /** The single BTF of a raw or ELF file, split on {@code base} when given. */
    public static Btf load(Path path, Btf base) {
        List<Found> all = loadAll(path, base);
        if (all.size() != 1) {
            throw new FormatException(path.toString(), "BTF", -1,
                    "holds " + all.size() + " BTF blobs; expected one");
        }
        return all.getFirst().btf();
    }

    /** Every BTF in the file: one for raw and ELF input, one per BPF_BTF entry for perf.data. */
    public static List<Found> loadAll(Path path, Btf base) {
        String name = path.toString();
        return switch (kind(path)) {
            case RAW, UNKNOWN -> List.of(new Found(-1, parseRaw(path, base)));
            case ELF -> {
                try (ElfFile elf = ElfFile.open(path)) {
                    yield List.of(new Found(-1, fromElf(elf, base)));
                }
            }
            case PERF_DATA -> fromPerfData(path, base);
        };
    }

    /** The {@code .BTF} section of an ELF file. */
    public static Btf fromElf(ElfFile elf, Btf base) {
        SectionHeader s = elf.section(".BTF").orElseThrow(() -> new FormatException(elf.name(), "ELF", -1,
                "no .BTF section"));
        return Btf.parse(elf.sectionData(s), base);
    }

    /** The {@code .BTF.ext} section of an ELF file, read against its {@code .BTF}. */
    public static Optional<BtfExt> extFromElf(ElfFile elf, Btf btf) {
        return elf.section(".BTF.ext").map(s -> BtfExt.parse(elf.sectionData(s), btf));
    }

    private static List<Found> fromPerfData(Path path, Btf base) {
        try (PerfData data = PerfData.open(path)) {
            var p = data.features().get(FeatureId.BPF_BTF);
            if (p == null) {
                return List.of();
            }
            List<Found> out = new ArrayList<>();
            if (Features.decode(FeatureId.BPF_BTF, p, data) instanceof Feature.BpfBtf b) {
                for (Feature.BpfBtf.Btf e : b.entries()) {
                    out.add(new Found(e.id(), Btf.parse(e.data(), path + " BPF_BTF id " + e.id(), base)));
                }
            }
            return out;
        }
    }

    /** A raw file parsed from its mapping, or read when it cannot be mapped (sysfs files). */
    private static Btf parseRaw(Path path, Btf base) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment seg = mapRaw(path, arena);
            if (seg == null) {
                return Btf.parse(read(path), path.toString(), base);
            }
            return Btf.parse(Bytes.of(seg, ByteOrder.LITTLE_ENDIAN, path.toString(), "btf_header", 0), base);
        }
    }

    /** The most bytes of BTF read into one array. */
    static final long MAX_BLOB = Integer.MAX_VALUE - 16;

    /**
     * A raw BTF file mapped in {@code arena}, as far as its header says the BTF reaches (libbpf,
     * like perfj, ignores bytes after the string section), or null when the file cannot be mapped
     * (sysfs files, an empty file). A file too large for one array is only looked at through its
     * header: when that is not a BTF header, or describes sections ending past 2 GiB, the result
     * is a {@link FormatException} (libbpf reads such a file into one buffer whose size is a
     * 32-bit number; the kernel refuses BTF past 16 MiB).
     */
    public static MemorySegment mapRaw(Path path, Arena arena) {
        String name = path.toString();
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size == 0) {
                return null;
            }
            MemorySegment seg;
            try {
                seg = ch.map(FileChannel.MapMode.READ_ONLY, 0, size, arena);
            } catch (IOException | UnsupportedOperationException e) {
                return null;
            }
            if (size <= MAX_BLOB) {
                return seg;
            }
            Bytes b = Bytes.of(seg, ByteOrder.LITTLE_ENDIAN, name, "btf_header", 0);
            ByteOrder order = Header.orderOf(b.u8(0), b.u8(1));
            if (order == null) {
                throw new FormatException(name, "btf_header", 0, String.format(
                        "bad magic 0x%02x%02x (expected 0xeb9f) in a %d-byte file", b.u8(0), b.u8(1), size));
            }
            b = b.withOrder(order);
            long hdrLen = b.u32(4);
            long end = hdrLen + Math.max(b.u32(8) + b.u32(12), b.u32(16) + b.u32(20));
            if (end > MAX_BLOB) {
                throw new FormatException(name, "btf_header", 4, "type and string sections end at byte "
                        + end + ", past the 2 GiB of BTF perfj reads");
            }
            return seg.asSlice(0, end);
        } catch (IOException e) {
            throw new UncheckedIOException("failed to open " + name + ": " + e.getMessage(), e);
        }
    }

    private static byte[] read(Path path) {
        try {
            return Files.readAllBytes(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
