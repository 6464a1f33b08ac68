package io.perfj.compat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** perf's hist entry tree against a TreeMap when the comparison is a total order. */
class PerfHistTreePropertyTest {
    /** An entry with one key (identity matters: the tree must hand back the one inserted). */
    private static final class Entry {
        final int frame;

        Entry(int frame) {
            this.frame = frame;
        }
    }

    private static Entry entry(int key) {
        return new Entry(key);
    }

    @Property(tries = 300)
    void behavesLikeASortedMapAndStaysBalanced(@ForAll @Size(max = 500) List<@IntRange(min = -200, max = 200) Integer> keys) {
        // perf's address comparisons (right - left, negative: go left): ascending in-order.
        PerfHistTree<Entry> t = new PerfHistTree<>((l, r) -> (long) r.frame - l.frame);
        TreeMap<Integer, Entry> ref = new TreeMap<>();
        for (int k : keys) {
            Entry probe = entry(k);
            Entry got = t.findOrInsert(probe);
            Entry old = ref.putIfAbsent(k, probe);
            assertSame(old == null ? probe : old, got);
            t.checkInvariants();
        }
        assertEquals(ref.size(), t.size());
        List<Integer> inOrder = new ArrayList<>();
        for (Entry e : t.inOrder()) {
            inOrder.add(e.frame);
        }
        assertEquals(new ArrayList<>(ref.keySet()), inOrder);
        // a red-black tree is at most twice as deep as a perfect one
        assertTrue(t.height() <= 2 * (32 - Integer.numberOfLeadingZeros(t.size() + 1)));
    }

    @Property(tries = 100)
    void ascendingInsertionsRotate(@ForAll @IntRange(min = 1, max = 2000) int n) {
        PerfHistTree<Entry> t = new PerfHistTree<>((l, r) -> (long) r.frame - l.frame);
        for (int i = 0; i < n; i++) {
            t.findOrInsert(entry(i));
        }
        t.checkInvariants();
        assertTrue(t.height() <= 2 * (32 - Integer.numberOfLeadingZeros(n + 1)));
    }
}
