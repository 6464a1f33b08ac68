package io.perfj.btf.encode;

/** An open-addressing map from long keys (never {@link Long#MIN_VALUE}) to int values. */
final class LongIntMap {
    private static final long EMPTY = Long.MIN_VALUE;
    private long[] keys;
    private int[] vals;
    private int size;
    private int mask;

    LongIntMap(int cap) {
        int c = Integer.highestOneBit(Math.max(16, cap) * 2 - 1);
        keys = new long[c];
        vals = new int[c];
        java.util.Arrays.fill(keys, EMPTY);
        mask = c - 1;
    }

    private static int mix(long k) {
        long h = k * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }

    /** The value for {@code key}, or {@code missing}. */
    int get(long key, int missing) {
        int i = mix(key) & mask;
        while (true) {
            long k = keys[i];
            if (k == key) {
                return vals[i];
            }
            if (k == EMPTY) {
                return missing;
            }
            i = (i + 1) & mask;
        }
    }

    void put(long key, int value) {
        if ((size + 1) * 2 > keys.length) {
            grow();
        }
        int i = mix(key) & mask;
        while (true) {
            long k = keys[i];
            if (k == key) {
                vals[i] = value;
                return;
            }
            if (k == EMPTY) {
                keys[i] = key;
                vals[i] = value;
                size++;
                return;
            }
            i = (i + 1) & mask;
        }
    }

    /** Stores {@code value} unless the key is present; returns the value now stored. */
    int putIfAbsent(long key, int value) {
        int old = get(key, Integer.MIN_VALUE);
        if (old != Integer.MIN_VALUE) {
            return old;
        }
        put(key, value);
        return value;
    }

    int size() {
        return size;
    }

    void clear() {
        if (size == 0) {
            return;
        }
        if (keys.length > 1 << 16 && size < keys.length >> 6) {
            keys = new long[1 << 12];
            vals = new int[1 << 12];
            mask = keys.length - 1;
        }
        java.util.Arrays.fill(keys, EMPTY);
        size = 0;
    }

    private void grow() {
        long[] ok = keys;
        int[] ov = vals;
        keys = new long[ok.length * 2];
        vals = new int[ok.length * 2];
        java.util.Arrays.fill(keys, EMPTY);
        mask = keys.length - 1;
        size = 0;
        for (int i = 0; i < ok.length; i++) {
            if (ok[i] != EMPTY) {
                put(ok[i], ov[i]);
            }
        }
    }
}
