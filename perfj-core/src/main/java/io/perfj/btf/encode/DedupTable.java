package io.perfj.btf.encode;

import java.util.Arrays;

/**
 * libbpf's dedup table: type ids filed under a 64-bit signature hash, several per hash, listed
 * in the order libbpf's hashmap walks them, because the first equivalent candidate wins. That
 * hashmap (tools/lib/bpf/hashmap.c) puts a new entry at the head of its bucket's chain, and when
 * it grows (from 4 buckets, doubling whenever {@code (size + 1) * 4 / 3} would pass the bucket
 * count) it moves each chain head first onto the new chains' heads, which reverses the order of
 * the entries of one hash. So a hash's list is kept as a doubly linked list with one flag for
 * all of them: adding prepends, growing flips the direction every list is read in.
 */
final class DedupTable implements Cloneable {
    private long[] keys;
    private int[] head;
    private int[] tail;
    private boolean[] used;
    private int mask;
    private int size;
    private int[] value = new int[1024];
    private int[] next = new int[1024];
    private int[] prev = new int[1024];
    private int entries;
    /** libbpf's bucket count (0 before the first entry). */
    private long libCap;
    /** Whether the lists are read tail to head (an odd number of libbpf growths). */
    private boolean reversed;

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
        DedupTable c;
        try {
            c = (DedupTable) super.clone(); // the counts, the growth state and the flag
        } catch (CloneNotSupportedException e) {
            throw new AssertionError(e);
        }
        c.keys = keys.clone();
        c.used = used.clone();
        c.head = head.clone();
        c.tail = tail.clone();
        // the entries, each with its links
        c.value = Arrays.copyOf(value, value.length);
        c.next = Arrays.copyOf(next, next.length);
        c.prev = Arrays.copyOf(prev, prev.length);
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
        if (libCap == 0 || ((long) e + 1) * 4 / 3 > libCap) {
            // libbpf's hashmap_needs_to_grow, checked before each insertion
            libCap = libCap == 0 ? 4 : 2 * libCap;
            reversed = !reversed;
        }
        if (e == value.length) {
            value = Arrays.copyOf(value, e * 2);
            next = Arrays.copyOf(next, e * 2);
            prev = Arrays.copyOf(prev, e * 2);
        }
        value[e] = id;
        next[e] = -1;
        prev[e] = -1;
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
        } else if (!reversed) {
            // first in reading order: the new head
            next[e] = head[i];
            prev[head[i]] = e;
            head[i] = e;
        } else {
            // first in reading order when lists are read backwards: the new tail
            prev[e] = tail[i];
            next[tail[i]] = e;
            tail[i] = e;
        }
    }

    /** The first entry filed under {@code hash}, or -1; walk on with {@link #nextEntry}. */
    int first(long hash) {
        int i = mix(hash) & mask;
        while (used[i]) {
            if (keys[i] == hash) {
                return reversed ? tail[i] : head[i];
            }
            i = (i + 1) & mask;
        }
        return -1;
    }

    int nextEntry(int e) {
        return reversed ? prev[e] : next[e];
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
