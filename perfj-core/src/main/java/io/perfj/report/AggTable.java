package io.perfj.report;

import java.util.Arrays;

/**
 * Samples merged by what separates them in a report (command id, pid, tid, cpu, own frame,
 * stack, trace text id), with their period and count summed: an open-addressing table over int arrays, rows in
 * the order their first sample came (the order perf creates entries in). No object per key, so
 * the per-sample cost is a hash and a few array reads. A row also keeps the process and thread
 * of its first sample when they are no key: perf's entry remembers that thread (its command
 * column is as wide as the thread's last name).
 */
final class AggTable {
    private static final int W = 9;
    /** Whether the pid, the tid separate rows. */
    private final boolean byPid;
    private final boolean byTid;

    AggTable(boolean byPid, boolean byTid) {
        this.byPid = byPid;
        this.byTid = byTid;
    }
    private int[] keys = new int[W * 1024];
    private long[] periods = new long[1024];
    private long[] counts = new long[1024];
    private int rows;
    private int[] slots = new int[2048]; // row + 1, 0 for empty
    private int mask = slots.length - 1;

    /** Adds one sample's period to its row, making the row when it is new. */
    void add(int comm, int samplePid, int sampleTid, int cpu, int self, int stack, int trace, long period) {
        int pid = byPid ? samplePid : -1;
        int tid = byTid ? sampleTid : -1;
        int h = hash(comm, pid, tid, cpu, self, stack) ^ trace * 0x9E3779B9;
        for (int i = h & mask; ; i = (i + 1) & mask) {
            int r = slots[i] - 1;
            if (r < 0) {
                r = newRow(comm, pid, tid, cpu, self, stack);
                keys[r * W + 8] = trace;
                keys[r * W + 6] = samplePid;
                keys[r * W + 7] = sampleTid;
                slots[i] = r + 1;
                periods[r] = period;
                counts[r] = 1;
                if (rows * 2 > slots.length) {
                    grow();
                }
                return;
            }
            int k = r * W;
            if (keys[k + 4] == self && keys[k + 5] == stack && keys[k] == comm && keys[k + 1] == pid
                    && keys[k + 2] == tid && keys[k + 3] == cpu && keys[k + 8] == trace) {
                periods[r] += period;
                counts[r]++;
                return;
            }
        }
    }

    private int newRow(int comm, int pid, int tid, int cpu, int self, int stack) {
        if (rows == periods.length) {
            keys = Arrays.copyOf(keys, keys.length * 2);
            periods = Arrays.copyOf(periods, periods.length * 2);
            counts = Arrays.copyOf(counts, counts.length * 2);
        }
        int k = rows * W;
        keys[k] = comm;
        keys[k + 1] = pid;
        keys[k + 2] = tid;
        keys[k + 3] = cpu;
        keys[k + 4] = self;
        keys[k + 5] = stack;
        return rows++;
    }

    private void grow() {
        slots = new int[slots.length * 2];
        mask = slots.length - 1;
        for (int r = 0; r < rows; r++) {
            int k = r * W;
            int h = hash(keys[k], keys[k + 1], keys[k + 2], keys[k + 3], keys[k + 4], keys[k + 5])
                    ^ keys[k + 8] * 0x9E3779B9;
            int i = h & mask;
            while (slots[i] != 0) {
                i = (i + 1) & mask;
            }
            slots[i] = r + 1;
        }
    }

    private static int hash(int comm, int pid, int tid, int cpu, int self, int stack) {
        long h = self * 0x9E3779B97F4A7C15L;
        h = (h ^ stack) * 0xC2B2AE3D27D4EB4FL;
        h = (h ^ comm) * 0x165667B19E3779F9L;
        h = (h ^ (((long) pid << 32) | (tid & 0xffffffffL))) * 0x9E3779B97F4A7C15L;
        h = (h ^ cpu) * 0xC2B2AE3D27D4EB4FL;
        return (int) (h ^ (h >>> 31));
    }

    int rows() {
        return rows;
    }

    int comm(int r) {
        return keys[r * W];
    }

    int pid(int r) {
        return keys[r * W + 1];
    }

    int tid(int r) {
        return keys[r * W + 2];
    }

    int cpu(int r) {
        return keys[r * W + 3];
    }

    int self(int r) {
        return keys[r * W + 4];
    }

    int stack(int r) {
        return keys[r * W + 5];
    }

    /** The row's trace text id (-1 when the trace is no key). */
    int trace(int r) {
        return keys[r * W + 8];
    }

    /** The process of the row's first sample. */
    int firstPid(int r) {
        return keys[r * W + 6];
    }

    /** The thread of the row's first sample. */
    int firstTid(int r) {
        return keys[r * W + 7];
    }

    long period(int r) {
        return periods[r];
    }

    long count(int r) {
        return counts[r];
    }
}
