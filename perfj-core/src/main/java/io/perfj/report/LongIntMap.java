package io.perfj.report;

import java.util.Arrays;

/** An open-addressing map from long keys to non-negative int values; -1 means absent. */
public final class LongIntMap {
    private static final long EMPTY = Long.MIN_VALUE;

    private long[] keys;
    private int[] values;
    private int size;
    private int mask;

    public LongIntMap(int capacity) {
        int cap = Integer.highestOneBit(Math.max(16, capacity) * 2 - 1);
        keys = new long[cap];
        values = new int[cap];
        Arrays.fill(keys, EMPTY);
        mask = cap - 1;
    }

    private static int hash(long k) {
        long h = k * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 29));
    }

    public int get(long key) {
        int i = hash(key) & mask;
        while (true) {
            long k = keys[i];
            if (k == key) {
                return values[i];
            }
            if (k == EMPTY) {
                return -1;
            }
            i = (i + 1) & mask;
        }
    }

    public void put(long key, int value) {
        if (key == EMPTY) {
            throw new IllegalArgumentException("reserved key");
        }
        if ((size + 1) * 2 > keys.length) {
            grow();
        }
        int i = hash(key) & mask;
        while (true) {
            long k = keys[i];
            if (k == key) {
                values[i] = value;
                return;
            }
            if (k == EMPTY) {
                keys[i] = key;
                values[i] = value;
                size++;
                return;
            }
            i = (i + 1) & mask;
        }
    }

    public void clear() {
        Arrays.fill(keys, EMPTY);
        size = 0;
    }

    public int size() {
        return size;
    }

    private void grow() {
        long[] ok = keys;
        int[] ov = values;
        keys = new long[ok.length * 2];
        values = new int[ok.length * 2];
        Arrays.fill(keys, EMPTY);
        mask = keys.length - 1;
        size = 0;
        for (int i = 0; i < ok.length; i++) {
            if (ok[i] != EMPTY) {
                put(ok[i], ov[i]);
            }
        }
    }
}
