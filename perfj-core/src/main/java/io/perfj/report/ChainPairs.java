package io.perfj.report;

import io.perfj.util.LongIntMap;

import java.util.Arrays;

/**
 * Deferred callchains summed by (entry, stack) in the order the pairs first came (see
 * {@link Hists#addChains}): the part of a sample's chain that goes into an entry's tree is an
 * interned stack of its own, so rows that share it are added to the tree once. One table per
 * thread of the pass, each for the entries it owns; {@link #concat} joins them, which keeps
 * every entry's pairs in their order (an entry's pairs are all in one table).
 */
final class ChainPairs {
    private final LongIntMap ids = new LongIntMap(1 << 14);
    int[] entry = new int[1 << 12];
    int[] stack = new int[1 << 12];
    long[] period = new long[1 << 12];
    int[] count = new int[1 << 12];
    int size;

    void add(int entryId, int prefix, long p, long samples) {
        long key = ((long) entryId << 32) | (prefix & 0xffffffffL);
        int k = ids.putIfAbsent(key, size);
        if (k == size) {
            if (size == entry.length) {
                entry = Arrays.copyOf(entry, size * 2);
                stack = Arrays.copyOf(stack, size * 2);
                period = Arrays.copyOf(period, size * 2);
                count = Arrays.copyOf(count, size * 2);
            }
            entry[k] = entryId;
            stack[k] = prefix;
            size++;
        }
        period[k] += p;
        count[k] += (int) samples;
    }

    /** The tables one after another (their lookup maps are not kept: nothing is added after). */
    static ChainPairs concat(ChainPairs[] parts) {
        if (parts.length == 1) {
            return parts[0];
        }
        ChainPairs all = new ChainPairs();
        int n = 0;
        for (ChainPairs p : parts) {
            n += p.size;
        }
        all.entry = new int[Math.max(1, n)];
        all.stack = new int[all.entry.length];
        all.period = new long[all.entry.length];
        all.count = new int[all.entry.length];
        for (ChainPairs p : parts) {
            System.arraycopy(p.entry, 0, all.entry, all.size, p.size);
            System.arraycopy(p.stack, 0, all.stack, all.size, p.size);
            System.arraycopy(p.period, 0, all.period, all.size, p.size);
            System.arraycopy(p.count, 0, all.count, all.size, p.size);
            all.size += p.size;
        }
        return all;
    }
}
