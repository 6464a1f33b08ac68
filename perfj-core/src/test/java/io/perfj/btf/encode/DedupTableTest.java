package io.perfj.btf.encode;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link DedupTable} lists a hash's candidates in the order libbpf's hashmap walks them: checked
 * against a literal model of that hashmap (bucket chains, insertion at a chain's head, growth from
 * 4 buckets that moves each chain head first), for few and many keys, before and after copying.
 */
class DedupTableTest {
    /** libbpf's hashmap as tools/lib/bpf/hashmap.c behaves: an array of singly linked chains. */
    private static final class Model {
        private long[] keyOf = new long[16];
        private int[] valueOf = new int[16];
        private int[] nextOf = new int[16];
        private int[] buckets = new int[0];
        private int capBits;
        private int size;

        private static int bucket(long key, int bits) {
            return bits == 0 ? 0 : (int) ((key * 0x9E3779B97F4A7C15L) >>> (64 - bits));
        }

        void append(long key, int value) {
            if (buckets.length == 0 || (size + 1L) * 4 / 3 > buckets.length) {
                int bits = Math.max(2, capBits + 1);
                int[] nb = new int[1 << bits];
                java.util.Arrays.fill(nb, -1);
                for (int b = 0; b < buckets.length; b++) {
                    for (int e = buckets[b]; e >= 0; ) {
                        int next = nextOf[e];
                        int h = bucket(keyOf[e], bits);
                        nextOf[e] = nb[h];
                        nb[h] = e;
                        e = next;
                    }
                }
                buckets = nb;
                capBits = bits;
            }
            if (size == keyOf.length) {
                keyOf = java.util.Arrays.copyOf(keyOf, 2 * size);
                valueOf = java.util.Arrays.copyOf(valueOf, 2 * size);
                nextOf = java.util.Arrays.copyOf(nextOf, 2 * size);
            }
            int e = size++;
            keyOf[e] = key;
            valueOf[e] = value;
            int h = bucket(key, capBits);
            nextOf[e] = buckets[h];
            buckets[h] = e;
        }

        List<Integer> values(long key) {
            List<Integer> out = new ArrayList<>();
            if (buckets.length == 0) {
                return out;
            }
            for (int e = buckets[bucket(key, capBits)]; e >= 0; e = nextOf[e]) {
                if (keyOf[e] == key) {
                    out.add(valueOf[e]);
                }
            }
            return out;
        }
    }

    private static List<Integer> values(DedupTable t, long key) {
        List<Integer> out = new ArrayList<>();
        for (int e = t.first(key); e >= 0; e = t.nextEntry(e)) {
            out.add(t.value(e));
        }
        return out;
    }

    @Test
    void candidatesComeInLibbpfsOrder() {
        for (int keys : new int[] {1, 3, 50, 5000}) {
            SplittableRandom r = new SplittableRandom(keys);
            Model model = new Model();
            DedupTable table = new DedupTable(16);
            long[] ks = new long[keys];
            for (int i = 0; i < keys; i++) {
                ks[i] = r.nextLong();
            }
            for (int id = 1; id <= 20_000; id++) {
                long k = ks[r.nextInt(keys)];
                model.append(k, id);
                table.add(k, id);
                if (id % 997 == 0 || id < 40) {
                    for (long key : ks) {
                        assertEquals(model.values(key), values(table, key), keys + " keys, after " + id);
                    }
                }
            }
            DedupTable copy = table.copy();
            for (int id = 20_001; id <= 20_100; id++) {
                long k = ks[r.nextInt(keys)];
                model.append(k, id);
                copy.add(k, id);
            }
            for (long key : ks) {
                assertEquals(model.values(key), values(copy, key), keys + " keys, a copy added to");
            }
        }
        assertEquals(-1, new DedupTable(16).first(42));
    }
}
