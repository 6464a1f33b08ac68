package io.perfj.report;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The report's primitive maps and stack trie against plain Java collections. */
class InterningPropertyTest {
    @Property(tries = 300)
    void longIntMapBehavesLikeAHashMap(@ForAll @Size(max = 400) List<Long> keys, @ForAll @Size(max = 400) List<@IntRange(min = 0, max = 1000) Integer> values) {
        LongIntMap m = new LongIntMap(4);
        Map<Long, Integer> ref = new HashMap<>();
        for (int i = 0; i < keys.size(); i++) {
            long k = keys.get(i);
            if (k == Long.MIN_VALUE) {
                continue;
            }
            int v = values.isEmpty() ? i : values.get(i % values.size());
            m.put(k, v);
            ref.put(k, v);
        }
        assertEquals(ref.size(), m.size());
        for (Map.Entry<Long, Integer> e : ref.entrySet()) {
            assertEquals((int) e.getValue(), m.get(e.getKey()));
        }
        for (long probe : List.of(0L, 1L, -1L, 12345L, Long.MAX_VALUE)) {
            assertEquals(ref.getOrDefault(probe, -1), m.get(probe));
        }
        m.clear();
        assertEquals(0, m.size());
    }

    /** Pushing the frames of any stacks gives back the same frames, and equal stacks share an id. */
    @Property(tries = 300)
    void stackTableRoundTripsAndShares(@ForAll @Size(max = 30) List<@Size(max = 20) List<@IntRange(min = 0, max = 9) Integer>> stacks) {
        StackTable t = new StackTable();
        Map<List<Integer>, Integer> ids = new HashMap<>();
        List<Integer> got = new ArrayList<>();
        for (List<Integer> frames : stacks) {
            int s = StackTable.EMPTY;
            for (int f : frames) {
                s = t.push(s, f);
            }
            got.add(s);
            int[] back = t.frames(s);
            assertArrayEquals(frames.stream().mapToInt(Integer::intValue).toArray(), back);
            assertEquals(frames.size(), t.depth(s));
            Integer prev = ids.putIfAbsent(frames, s);
            if (prev != null) {
                assertEquals((int) prev, s, "equal stacks share one id");
            }
        }
        assertEquals(ids.size(), new java.util.HashSet<>(got).size(), "different stacks get different ids");
    }
}
