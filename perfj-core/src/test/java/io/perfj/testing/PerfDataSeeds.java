package io.perfj.testing;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Small seed recordings for mutation runs, cut from the committed ones: the header, attrs and
 * features of a file-mode recording with only some of its records (the feature table moved up
 * behind them), or a pipe-mode one with only some of its records.
 */
public final class PerfDataSeeds {
    private PerfDataSeeds() {
    }

    /**
     * The recording with, of each record type, only the first {@code perType} records (the
     * first {@code samples} samples), in their order; perf's description records (attrs,
     * features, build ids, maps of ids, cpus and threads) are all kept.
     */
    public static Mutants.Seed sampled(String name, byte[] file, int perType, int samples) {
        ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        boolean pipe = b.getLong(8) == 16;
        int from = pipe ? 16 : (int) b.getLong(40);
        int to = pipe ? file.length : (int) (from + b.getLong(48));
        java.io.ByteArrayOutputStream kept = new java.io.ByteArrayOutputStream();
        java.util.Map<Integer, Integer> seen = new java.util.HashMap<>();
        for (int p = from; p + 8 <= to; ) {
            int type = b.getInt(p);
            int size = b.getShort(p + 6) & 0xffff;
            if (size < 8 || p + size > to) {
                break;
            }
            int n = seen.merge(type, 1, Integer::sum);
            boolean describes = type >= 64 && type != 68 && type != 81 && type != 83;
            if (describes || n <= (type == 9 ? samples : perType)) {
                kept.write(file, p, size);
            }
            p += size;
        }
        byte[] records = kept.toByteArray();
        byte[] out = new byte[file.length - (to - from) + records.length];
        System.arraycopy(file, 0, out, 0, from);
        System.arraycopy(records, 0, out, from, records.length);
        System.arraycopy(file, to, out, from + records.length, file.length - to);
        if (pipe) {
            return new Mutants.Seed(name, out, new long[] {0, Math.min(out.length, 4096)});
        }
        ByteBuffer o = ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN);
        o.putLong(48, records.length);
        int shift = (to - from) - records.length;
        int end = from + records.length;
        int features = 0;
        for (int i = 0; i < 4; i++) {
            features += Long.bitCount(o.getLong(72 + 8 * i));
        }
        for (int i = 0; i < features && end + 16 * i + 16 <= out.length; i++) {
            long off = o.getLong(end + 16 * i);
            if (off >= to) {
                o.putLong(end + 16 * i, off - shift);
            }
        }
        return new Mutants.Seed(name, out, new long[] {0, from, from, end, end, out.length});
    }

    /** The recording with its records cut after about {@code maxData} bytes of data. */
    public static Mutants.Seed trimmed(String name, byte[] file, int maxData) {
        ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        if (b.getLong(0) != PerfDataBuilder.MAGIC2) {
            throw new IllegalArgumentException(name + ": not a little-endian perf.data file");
        }
        if (b.getLong(8) == 16) {
            int end = recordsEnd(b, 16, file.length, maxData);
            return new Mutants.Seed(name, java.util.Arrays.copyOf(file, end), new long[] {0, Math.min(end, 4096)});
        }
        long dataOff = b.getLong(40);
        long dataSize = b.getLong(48);
        int keep = recordsEnd(b, (int) dataOff, (int) (dataOff + dataSize), maxData);
        int features = 0;
        for (int i = 0; i < 4; i++) {
            features += Long.bitCount(b.getLong(72 + 8 * i));
        }
        long table = dataOff + dataSize;
        long first = Long.MAX_VALUE;
        long last = table + 16L * features;
        for (int i = 0; i < features; i++) {
            first = Math.min(first, b.getLong((int) (table + 16L * i)));
            last = Math.max(last, b.getLong((int) (table + 16L * i)) + b.getLong((int) (table + 16L * i + 8)));
        }
        long shift = table - keep;
        ByteBuffer out = ByteBuffer.allocate((int) (keep + (last - table))).order(ByteOrder.LITTLE_ENDIAN);
        out.put(file, 0, keep);
        out.put(file, (int) table, (int) (last - table));
        out.putLong(48, keep - dataOff);
        for (int i = 0; i < features; i++) {
            int at = (int) (keep + 16L * i);
            long off = out.getLong(at);
            if (off >= table) {
                out.putLong(at, off - shift);
            }
        }
        byte[] seed = out.array();
        // structure: header, attrs and ids, the first records, the feature table and sections
        return new Mutants.Seed(name, seed, new long[] {0, dataOff, dataOff, Math.min(keep, dataOff + 2048),
                keep, seed.length});
    }

    /** Where the last whole record ending within {@code maxData} bytes of {@code from} ends. */
    private static int recordsEnd(ByteBuffer b, int from, int limit, int maxData) {
        int p = from;
        while (p + 8 <= limit) {
            int size = b.getShort(p + 6) & 0xffff;
            if (size < 8 || p + size > limit || p + size - from > maxData) {
                break;
            }
            p += size;
        }
        return p;
    }
}
