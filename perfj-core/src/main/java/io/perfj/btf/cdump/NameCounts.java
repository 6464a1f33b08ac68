package io.perfj.btf.cdump;

import io.perfj.btf.wire.StringSection;

/**
 * How often each name has been seen, keyed by the name's bytes in the string section (two
 * offsets holding equal strings are one key), so counting needs no String. libbpf keeps one such
 * map for struct/union/enum names and one for typedef and enumerator names.
 */
final class NameCounts {
    private final StringSection strings;
    private int[] keys;
    private int[] counts;
    private int size;

    NameCounts(StringSection strings, int expected) {
        this.strings = strings;
        int cap = Integer.highestOneBit(Math.max(16, expected * 2) - 1) << 1;
        keys = new int[cap];
        counts = new int[cap];
    }

    /** Counts one more occurrence of the name at {@code off}; returns the new count. */
    int increment(int off) {
        int h = strings.hash(off);
        int mask = keys.length - 1;
        int i = mix(h) & mask;
        while (counts[i] != 0) {
            if (strings.equal(keys[i], off)) {
                return ++counts[i];
            }
            i = (i + 1) & mask;
        }
        keys[i] = off;
        counts[i] = 1;
        if (++size * 2 > keys.length) {
            grow();
        }
        return 1;
    }

    private static int mix(int h) {
        return h ^ (h >>> 16);
    }

    private void grow() {
        int[] oldKeys = keys;
        int[] oldCounts = counts;
        keys = new int[oldKeys.length * 2];
        counts = new int[oldKeys.length * 2];
        int mask = keys.length - 1;
        for (int j = 0; j < oldKeys.length; j++) {
            if (oldCounts[j] != 0) {
                int i = mix(strings.hash(oldKeys[j])) & mask;
                while (counts[i] != 0) {
                    i = (i + 1) & mask;
                }
                keys[i] = oldKeys[j];
                counts[i] = oldCounts[j];
            }
        }
    }
}
