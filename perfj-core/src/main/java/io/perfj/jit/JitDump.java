package io.perfj.jit;

import io.perfj.io.Bytes;
import io.perfj.io.FormatException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A jitdump file ({@code jit-PID.dump}, perf's {@code jitdump-specification.txt}): the header and
 * the records in file order. The byte order is the writer's, told by how the magic reads.
 *
 * <p>Damage: a bad header is a {@link FormatException}. A file that ends inside a record (a
 * runtime killed while writing, or a copy taken while it ran) keeps the records before it, with
 * one warning. Any other damage to a record (a size smaller than its fields, code or names past
 * the record's end) stops the reading there: the records before it are kept, {@link #damage()}
 * is the {@link FormatException} naming file, record and offset, and its message is a warning.
 */
public final class JitDump {
    /** 'JiTD' as the writer's native order stores it, read in that order. */
    public static final int MAGIC = 0x4A695444;
    /** The header of version 1: magic, version, total_size, elf_mach, pad1, pid, timestamp, flags. */
    public static final int HEADER_SIZE = 40;
    /** Header flag: timestamps are the CPU's time-stamp counter, not CLOCK_MONOTONIC. */
    public static final long FLAG_ARCH_TIMESTAMP = 1;

    private static final int LOAD_FIXED = JitRecord.PREFIX_SIZE + 40;
    private static final int MOVE_FIXED = JitRecord.PREFIX_SIZE + 48;
    private static final int DEBUG_FIXED = JitRecord.PREFIX_SIZE + 16;
    private static final int UNWIND_FIXED = JitRecord.PREFIX_SIZE + 24;
    /** An entry of a debug-info record: address, line, discriminator and at least a NUL. */
    private static final int LINE_ENTRY_MIN = 17;

    /**
     * The file header.
     *
     * @param headerSize the header's total_size (later versions may add fields, skipped)
     * @param timestamp  when the file was created, in the writer's clock
     */
    public record Header(ByteOrder order, int version, int headerSize, int elfMach, int pid, long timestamp,
                         long flags) {
        public boolean archTimestamp() {
            return (flags & FLAG_ARCH_TIMESTAMP) != 0;
        }
    }

    private final String name;
    private final Bytes bytes;
    private final Header header;
    private final List<JitRecord> records;
    private final List<String> warnings;
    private final FormatException damage;

    private JitDump(String name, Bytes bytes, Header header, List<JitRecord> records, List<String> warnings,
                    FormatException damage) {
        this.name = name;
        this.bytes = bytes;
        this.header = header;
        this.records = records;
        this.warnings = warnings;
        this.damage = damage;
    }

    /**
     * Maps {@code file} read-only (the mapping lives as long as the returned object is reachable:
     * code bytes are read from it on demand).
     */
    public static JitDump read(Path file) {
        String n = file.toString();
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            MemorySegment seg = size == 0 ? MemorySegment.ofArray(new byte[0])
                    : ch.map(FileChannel.MapMode.READ_ONLY, 0, size, Arena.ofAuto());
            return parse(Bytes.of(seg, ByteOrder.LITTLE_ENDIAN, n, "jitdump", 0));
        } catch (IOException e) {
            throw new UncheckedIOException("failed to read " + n + ": " + e.getMessage(), e);
        }
    }

    /** A dump held in memory; {@code name} names it in messages. */
    public static JitDump parse(byte[] data, String name) {
        return parse(Bytes.of(data, ByteOrder.LITTLE_ENDIAN, name, "jitdump"));
    }

    /** A dump in {@code b} (its order is ignored: the magic decides). */
    public static JitDump parse(Bytes b) {
        String name = b.source();
        Bytes in = b.named("jitdump header");
        if (!in.has(0, 4)) {
            throw new FormatException(name, "jitdump header", 0, "file of " + in.size() + " bytes has no magic");
        }
        int m = in.s32(0);
        ByteOrder order = in.order();
        if (m != MAGIC) {
            if (Integer.reverseBytes(m) != MAGIC) {
                throw new FormatException(name, "jitdump header", 0,
                        "bad magic 0x" + Integer.toHexString(m) + " (not a jitdump file)");
            }
            order = order == ByteOrder.LITTLE_ENDIAN ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
            in = in.withOrder(order);
        }
        if (!in.has(0, HEADER_SIZE)) {
            throw new FormatException(name, "jitdump header", 0,
                    "needs " + HEADER_SIZE + " bytes but the file has " + in.size());
        }
        int version = in.s32(4);
        long total = in.u32(8);
        if (total < HEADER_SIZE || total > in.size()) {
            throw new FormatException(name, "jitdump header", 8,
                    "total_size " + total + " outside [" + HEADER_SIZE + ", " + in.size() + "]");
        }
        Header h = new Header(order, version, (int) total, in.s32(12), in.s32(20), in.u64(24), in.u64(32));
        if ((h.flags() & ~FLAG_ARCH_TIMESTAMP) != 0) {
            // perf refuses such files too: a flag it does not know may change what the records mean
            throw new FormatException(name, "jitdump header", 32,
                    "unsupported flags 0x" + Long.toHexString(h.flags() & ~FLAG_ARCH_TIMESTAMP));
        }
        Bytes all = in.named("jitdump");
        List<JitRecord> out = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        FormatException damage = null;
        long off = total;
        while (off < all.size()) {
            long left = all.size() - off;
            if (left < JitRecord.PREFIX_SIZE) {
                warnings.add(new FormatException(name, "jitdump record prefix", off,
                        "file ends " + left + " bytes into a record (truncated): the records before it are kept")
                        .getMessage());
                break;
            }
            int id = all.s32(off);
            long size = all.u32(off + 4);
            String structure = JitRecord.name(id);
            if (size < JitRecord.PREFIX_SIZE) {
                damage = new FormatException(name, structure, off,
                        "total_size " + size + " is smaller than the record prefix (" + JitRecord.PREFIX_SIZE + ")");
                break;
            }
            if (size > left) {
                warnings.add(new FormatException(name, structure, off, "record of " + size
                        + " bytes runs past the end of the file (" + left + " left; truncated): the records before it are kept")
                        .getMessage());
                break;
            }
            try {
                out.add(decode(all.slice(off, size, structure), id, off));
            } catch (FormatException e) {
                damage = e;
                break;
            }
            off += size;
        }
        if (damage != null) {
            warnings.add(damage.getMessage() + " (the records before it are kept)");
        }
        return new JitDump(name, all, h, Collections.unmodifiableList(out), Collections.unmodifiableList(warnings),
                damage);
    }

    private static JitRecord decode(Bytes r, int id, long off) {
        long ts = r.u64(8);
        long size = r.size();
        switch (id) {
            case JitRecord.CODE_LOAD -> {
                need(r, LOAD_FIXED);
                long codeSize = r.u64(40);
                if (Long.compareUnsigned(codeSize, size - LOAD_FIXED) > 0) {
                    throw r.error(40, "code_size " + Long.toUnsignedString(codeSize) + " exceeds the record's "
                            + (size - LOAD_FIXED) + " bytes after its fields");
                }
                long nameLen = size - LOAD_FIXED - codeSize;
                String fn = nameLen == 0 ? "" : r.cstring(LOAD_FIXED, nameLen);
                return new JitRecord.CodeLoad(off, ts, r.s32(16), r.s32(20), r.u64(24), r.u64(32), codeSize, r.u64(48),
                        fn, off + size - codeSize);
            }
            case JitRecord.CODE_MOVE -> {
                need(r, MOVE_FIXED);
                return new JitRecord.CodeMove(off, ts, r.s32(16), r.s32(20), r.u64(24), r.u64(32), r.u64(40), r.u64(48),
                        r.u64(56));
            }
            case JitRecord.DEBUG_INFO -> {
                need(r, DEBUG_FIXED);
                long n = r.u64(24);
                if (Long.compareUnsigned(n, (size - DEBUG_FIXED) / LINE_ENTRY_MIN) > 0) {
                    throw r.error(24, "nr_entry " + Long.toUnsignedString(n) + " entries cannot fit in "
                            + (size - DEBUG_FIXED) + " bytes");
                }
                List<JitRecord.LineEntry> lines = new ArrayList<>((int) n);
                long p = DEBUG_FIXED;
                String previous = "";
                for (long i = 0; i < n; i++) {
                    r.check(p, LINE_ENTRY_MIN);
                    long nameAt = p + 16;
                    long end = nul(r, nameAt);
                    String file;
                    if (end == nameAt + 1 && r.u8(nameAt) == 0xff) {
                        file = previous; // the specification's "same file as the entry before"
                    } else {
                        file = r.cstring(nameAt, end - nameAt);
                    }
                    lines.add(new JitRecord.LineEntry(r.u64(p), r.s32(p + 8), r.s32(p + 12), file));
                    previous = file;
                    p = end + 1;
                }
                return new JitRecord.DebugInfo(off, ts, r.u64(16), List.copyOf(lines));
            }
            case JitRecord.UNWINDING_INFO -> {
                need(r, UNWIND_FIXED);
                long unwind = r.u64(16);
                long hdr = r.u64(24);
                if (Long.compareUnsigned(unwind, size - UNWIND_FIXED) > 0 || Long.compareUnsigned(hdr, unwind) > 0) {
                    throw r.error(16, "unwinding_size " + Long.toUnsignedString(unwind) + " / eh_frame_hdr_size "
                            + Long.toUnsignedString(hdr) + " do not fit the record's " + (size - UNWIND_FIXED) + " bytes");
                }
                return new JitRecord.UnwindingInfo(off, ts, unwind, hdr, r.u64(32), off + UNWIND_FIXED);
            }
            case JitRecord.CLOSE -> {
                return new JitRecord.Close(off, ts);
            }
            default -> {
                return new JitRecord.Unknown(off, ts, id, size);
            }
        }
    }

    private static void need(Bytes r, int fixed) {
        if (r.size() < fixed) {
            throw r.error(4, "total_size " + r.size() + " is smaller than the record's fields (" + fixed + " bytes)");
        }
    }

    /** The offset of the NUL ending the string at {@code from}; a string must end inside the record. */
    private static long nul(Bytes r, long from) {
        for (long p = from; p < r.size(); p++) {
            if (r.u8(p) == 0) {
                return p;
            }
        }
        throw r.error(from, "file name runs past the end of the record");
    }

    /** The file's name, as given. */
    public String name() {
        return name;
    }

    public Header header() {
        return header;
    }

    /** The records read, in file order (up to the damage, if any). */
    public List<JitRecord> records() {
        return records;
    }

    /** What was cut short: a truncated last record, or {@link #damage()}. */
    public List<String> warnings() {
        return warnings;
    }

    /** Why reading stopped before the end of the file (other than truncation), or null. */
    public FormatException damage() {
        return damage;
    }

    /** Throws {@link #damage()} if there is one; for callers that accept no partial file. */
    public JitDump requireIntact() {
        if (damage != null) {
            throw damage;
        }
        return this;
    }

    /** The code bytes of a load of this dump. */
    public byte[] code(JitRecord.CodeLoad load) {
        return bytes.bytes(load.codeOffset(), load.codeSize());
    }

    /**
     * The code loads as perf inject pairs them (see {@link JitCode}), in file order.
     */
    public List<JitCode> codes() {
        return JitCode.of(this);
    }
}
