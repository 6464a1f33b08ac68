package io.perfj.btf.encode;

/**
 * An open-addressing map from long keys to int values. Slots carry the generation they were
 * written in, so {@link #clear} is O(1) (the maps are cleared once per compile unit).
 */
final class LongIntMap {
    private long[] keys;
    private int[] vals;
    private int[] gens;
    private int gen = 1;
    private int size;
    private int mask;

    LongIntMap(int cap) {
        int c = Integer.highestOneBit(Math.max(16, cap) * 2 - 1);
        keys = new long[c];
        vals = new int[c];
        gens = new int[c];
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
            if (gens[i] != gen) {
                return missing;
            }
            if (keys[i] == key) {
                return vals[i];
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
            if (gens[i] != gen) {
                gens[i] = gen;
                keys[i] = key;
                vals[i] = value;
                size++;
                return;
            }
            if (keys[i] == key) {
                vals[i] = value;
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
        size = 0;
        if (++gen == Integer.MAX_VALUE) {
            java.util.Arrays.fill(gens, 0);
            gen = 1;
        }
    }

    private void grow() {
        long[] ok = keys;
        int[] ov = vals;
        int[] og = gens;
        int old = gen;
        keys = new long[ok.length * 2];
        vals = new int[ok.length * 2];
        gens = new int[ok.length * 2];
        gen = 1;
        mask = keys.length - 1;
        size = 0;
        for (int i = 0; i < ok.length; i++) {
            if (og[i] == old) {
                put(ok[i], ov[i]);
            }
        }
    }
}
