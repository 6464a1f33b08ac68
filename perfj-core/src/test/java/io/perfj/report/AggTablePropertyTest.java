package io.perfj.report;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@link AggTable} against a LinkedHashMap of keys: same rows, same sums, same first-seen order. */
class AggTablePropertyTest {
    @Property(tries = 200)
    void mergesLikeAMapInFirstSeenOrder(@ForAll @Size(max = 3000) List<@IntRange(min = 0, max = 40) Integer> picks,
                                        @ForAll @IntRange(min = 1, max = 9) int spread) {
        AggTable t = new AggTable(true, true);
        Map<List<Integer>, long[]> want = new LinkedHashMap<>();
        for (int i = 0; i < picks.size(); i++) {
            int p = picks.get(i);
            List<Integer> k = List.of(p % spread - 1, p % 3, p % 5, p % 2 - 1, p, p / 7, p % 4 - 1);
            long period = 1 + (i % 13);
            t.add(k.get(0), k.get(1), k.get(2), k.get(3), k.get(4), k.get(5), k.get(6), period);
            long[] v = want.computeIfAbsent(k, x -> new long[2]);
            v[0] += period;
            v[1]++;
        }
        assertEquals(want.size(), t.rows());
        List<List<Integer>> keys = new ArrayList<>(want.keySet());
        for (int r = 0; r < t.rows(); r++) {
            List<Integer> k = List.of(t.comm(r), t.pid(r), t.tid(r), t.cpu(r), t.self(r), t.stack(r), t.trace(r));
            assertEquals(keys.get(r), k, "row " + r);
            assertEquals(want.get(k)[0], t.period(r));
            assertEquals(want.get(k)[1], t.count(r));
        }
    }

    /** Without pid and tid keys samples of all threads share a row, which keeps its first sample's thread. */
    @Property(tries = 100)
    void aRowWithoutThreadKeysKeepsItsFirstThread(@ForAll @Size(max = 500) List<@IntRange(min = 0, max = 40) Integer> picks) {
        AggTable t = new AggTable(false, false);
        Map<Integer, int[]> first = new LinkedHashMap<>();
        for (int i = 0; i < picks.size(); i++) {
            int self = picks.get(i) % 4;
            t.add(0, 100 + i, 1000 + i, -1, self, 0, -1, 1);
            first.putIfAbsent(self, new int[]{100 + i, 1000 + i});
        }
        assertEquals(first.size(), t.rows());
        List<int[]> want = new ArrayList<>(first.values());
        for (int r = 0; r < t.rows(); r++) {
            assertEquals(-1, t.pid(r));
            assertEquals(-1, t.tid(r));
            assertEquals(want.get(r)[0], t.firstPid(r));
            assertEquals(want.get(r)[1], t.firstTid(r));
        }
    }
}
