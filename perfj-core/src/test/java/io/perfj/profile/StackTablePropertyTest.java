package io.perfj.profile;

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

/** The report's stack trie against plain Java collections. */
class StackTablePropertyTest {
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
