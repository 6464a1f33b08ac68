package io.perfj.util;

import java.util.Arrays;

/**
 * An open-addressing hash map from {@code long} keys (any value) to {@code int} values, with
 * linear probing and no boxing: the report's stack and frame tables and the BTF encoder's
 * per-unit caches.
 *
 * <p>Each slot records the generation it was written in, so {@link #clear} is O(1): the
 * encoder clears its maps once per compile unit, and filling a table grown by one large unit
 * again for each of thousands of small ones would cost more than the lookups. A slot's
 * generation and value sit next to each other in one array, so a lookup that hits touches two
 * cache lines (the key's and the slot's), as with a table that marks empty slots by a reserved key.
 */
public final class LongIntMap {
    private long[] keys;
    /** Slot {@code i}'s generation at {@code 2i}, its value at {@code 2i + 1}. */
    private int[] slots;
    private int gen = 1;
    private int size;
    private int mask;

    /** A map sized for about {@code expected} entries before it first grows. */
    public LongIntMap(int expected) {
        int cap = Integer.highestOneBit(Math.max(16, expected) * 2 - 1);
        keys = new long[cap];
        slots = new int[cap * 2];
        mask = cap - 1;
    }

    private static int mix(long k) {
        long h = k * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }

    /** The value for {@code key}, or {@code missing} when the key is absent. */
    public int get(long key, int missing) {
        int[] s = slots;
        int i = mix(key) & mask;
        while (true) {
            if (s[2 * i] != gen) {
                return missing;
            }
            if (keys[i] == key) {
                return s[2 * i + 1];
            }
            i = (i + 1) & mask;
        }
    }

    /** The value for {@code key}, or -1 when absent (for maps that hold only non-negative values). */
    public int get(long key) {
        return get(key, -1);
    }

    /** Maps {@code key} to {@code value}, replacing any earlier value. */
    public void put(long key, int value) {
        store(key, value, true);
    }

    /** Stores {@code value} unless the key is present; returns the value now stored. */
    public int putIfAbsent(long key, int value) {
        return store(key, value, false);
    }

    private int store(long key, int value, boolean replace) {
        if ((size + 1) * 2 > keys.length) {
            grow();
        }
        int[] s = slots;
        int i = mix(key) & mask;
        while (true) {
            if (s[2 * i] != gen) {
                s[2 * i] = gen;
                s[2 * i + 1] = value;
                keys[i] = key;
                size++;
                return value;
            }
            if (keys[i] == key) {
                if (replace) {
                    s[2 * i + 1] = value;
                }
                return s[2 * i + 1];
            }
            i = (i + 1) & mask;
        }
    }

    public int size() {
        return size;
    }

    /** Removes every entry, keeping the capacity. */
    public void clear() {
        if (size == 0) {
            return;
        }
        size = 0;
        if (++gen == Integer.MAX_VALUE) {
            Arrays.fill(slots, 0);
            gen = 1;
        }
    }

    private void grow() {
        long[] ok = keys;
        int[] os = slots;
        int old = gen;
        keys = new long[ok.length * 2];
        slots = new int[os.length * 2];
        gen = 1;
        mask = keys.length - 1;
        size = 0;
        for (int i = 0; i < ok.length; i++) {
            if (os[2 * i] == old) {
                put(ok[i], os[2 * i + 1]);
            }
        }
    }
}
