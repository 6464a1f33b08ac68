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
        AggTable t = new AggTable();
        Map<List<Integer>, long[]> want = new LinkedHashMap<>();
        for (int i = 0; i < picks.size(); i++) {
            int p = picks.get(i);
            List<Integer> k = List.of(p % spread - 1, p % 3, p % 5, p % 2 - 1, p, p / 7);
            long period = 1 + (i % 13);
            t.add(k.get(0), k.get(1), k.get(2), k.get(3), k.get(4), k.get(5), period);
            long[] v = want.computeIfAbsent(k, x -> new long[2]);
            v[0] += period;
            v[1]++;
        }
        assertEquals(want.size(), t.rows());
        List<List<Integer>> keys = new ArrayList<>(want.keySet());
        for (int r = 0; r < t.rows(); r++) {
            List<Integer> k = List.of(t.comm(r), t.pid(r), t.tid(r), t.cpu(r), t.self(r), t.stack(r));
            assertEquals(keys.get(r), k, "row " + r);
            assertEquals(want.get(k)[0], t.period(r));
            assertEquals(want.get(k)[1], t.count(r));
        }
    }
}
