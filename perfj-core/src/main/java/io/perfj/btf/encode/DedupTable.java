package io.perfj.btf.encode;

import java.util.Arrays;

/**
 * libbpf's dedup table: type ids filed under a 64-bit signature hash, several per hash, listed
 * in the order they were added.
 */
final class DedupTable {
    private long[] keys;
    private int[] head;
    private int[] tail;
    private boolean[] used;
    private int mask;
    private int size;
    private int[] value = new int[1024];
    private int[] next = new int[1024];
    private int entries;

    DedupTable(int cap) {
        int c = Integer.highestOneBit(Math.max(64, cap) * 2 - 1);
        keys = new long[c];
        head = new int[c];
        tail = new int[c];
        used = new boolean[c];
        mask = c - 1;
    }

    /** An independent copy: the same entries, in the same order. */
    DedupTable copy() {
        DedupTable c = new DedupTable(64);
        c.keys = keys.clone();
        c.head = head.clone();
        c.tail = tail.clone();
        c.used = used.clone();
        c.mask = mask;
        c.size = size;
        c.value = value.clone();
        c.next = next.clone();
        c.entries = entries;
        return c;
    }

    private static int mix(long k) {
        long h = k * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 29) ^ (h >>> 47));
    }

    void add(long hash, int id) {
        if ((size + 1) * 2 > keys.length) {
            grow();
        }
        int e = entries++;
        if (e == value.length) {
            value = Arrays.copyOf(value, e * 2);
            next = Arrays.copyOf(next, e * 2);
        }
        value[e] = id;
        next[e] = -1;
        int i = mix(hash) & mask;
        while (used[i] && keys[i] != hash) {
            i = (i + 1) & mask;
        }
        if (!used[i]) {
            used[i] = true;
            keys[i] = hash;
            head[i] = e;
            tail[i] = e;
            size++;
        } else {
            next[tail[i]] = e;
            tail[i] = e;
        }
    }

    /** The first entry filed under {@code hash}, or -1; walk on with {@link #nextEntry}. */
    int first(long hash) {
        int i = mix(hash) & mask;
        while (used[i]) {
            if (keys[i] == hash) {
                return head[i];
            }
            i = (i + 1) & mask;
        }
        return -1;
    }

    int nextEntry(int e) {
        return next[e];
    }

    int value(int e) {
        return value[e];
    }

    private void grow() {
        long[] ok = keys;
        int[] oh = head;
        int[] ot = tail;
        boolean[] ou = used;
        int c = ok.length * 2;
        keys = new long[c];
        head = new int[c];
        tail = new int[c];
        used = new boolean[c];
        mask = c - 1;
        for (int j = 0; j < ok.length; j++) {
            if (!ou[j]) {
                continue;
            }
            int i = mix(ok[j]) & mask;
            while (used[i]) {
                i = (i + 1) & mask;
            }
            used[i] = true;
            keys[i] = ok[j];
            head[i] = oh[j];
            tail[i] = ot[j];
        }
    }
}
