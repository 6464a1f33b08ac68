package io.perfj.compat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Random inserts and erases keep the red-black invariants, the order and the size. */
class KernelRbTreePropertyTest {
    @Property(tries = 300)
    void insertsAndErasesKeepTheInvariants(@ForAll @Size(max = 200) List<@IntRange(min = 0, max = 50) Integer> values,
                                           @ForAll long seed) {
        KernelRbTree<Integer> t = new KernelRbTree<>();
        List<Integer> expected = new ArrayList<>();
        java.util.Random r = new java.util.Random(seed);
        for (int v : values) {
            if (!expected.isEmpty() && r.nextInt(3) == 0) {
                List<KernelRbTree.Node<Integer>> ns = t.nodes();
                KernelRbTree.Node<Integer> gone = ns.get(r.nextInt(ns.size()));
                expected.remove(gone.value());
                t.erase(gone);
            } else {
                t.insert(v, (node, x) -> x < node);
                expected.add(v);
            }
            t.checkInvariants();
        }
        expected.sort(null);
        assertEquals(expected, t.values());
        assertEquals(expected.size(), t.size());
        assertTrue(t.height() <= 2 * (32 - Integer.numberOfLeadingZeros(t.size() + 1)));
    }

    @Property(tries = 100)
    void findOrInsertFindsWhatIsThere(@ForAll @Size(max = 100) List<@IntRange(min = 0, max = 30) Integer> values) {
        KernelRbTree<Integer> t = new KernelRbTree<>();
        for (int v : values) {
            t.findOrInsert(v, (node, x) -> (long) x - node);
        }
        assertEquals(values.stream().distinct().sorted().toList(), t.values());
    }
}
