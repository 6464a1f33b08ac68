package io.perfj.report;

import io.perfj.profile.StackTable;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link SampleAggregator} on its own thread gives the stack and row numbers that merging on the
 * caller's thread gives, across many batch hand-overs, with chains longer than a batch and with
 * several events.
 */
class SampleAggregatorTest {
    @Test
    void threadedMergeEqualsInline() {
        Tables one = run(1);
        Tables two = run(2);
        assertEquals(one.stacks.size(), two.stacks.size());
        // the same nodes under the same numbers (frame and depth of each; the whole path of the last)
        for (int s = 0; s < one.stacks.size(); s++) {
            assertEquals(one.stacks.frame(s), two.stacks.frame(s), "stack " + s);
            assertEquals(one.stacks.depth(s), two.stacks.depth(s), "stack " + s);
        }
        assertArrayEquals(one.stacks.frames(one.stacks.size() - 1), two.stacks.frames(two.stacks.size() - 1));
        assertEquals(one.agg.size(), two.agg.size());
        for (int ev = 0; ev < one.agg.size(); ev++) {
            AggTable a = one.agg.get(ev);
            AggTable b = two.agg.get(ev);
            assertEquals(a.rows(), b.rows());
            for (int r = 0; r < a.rows(); r++) {
                assertEquals(List.of(a.comm(r), a.pid(r), a.tid(r), a.cpu(r), a.self(r), a.stack(r), a.trace(r)),
                        List.of(b.comm(r), b.pid(r), b.tid(r), b.cpu(r), b.self(r), b.stack(r), b.trace(r)), "row " + r);
                assertEquals(a.period(r), b.period(r));
                assertEquals(a.count(r), b.count(r));
            }
        }
        // the samples were merged, not kept: fewer rows than samples, and some deep chains interned
        assertEquals(3, one.agg.size());
        int rows = one.agg.stream().mapToInt(AggTable::rows).sum();
        assertEquals(true, rows < SAMPLES && rows > 100, "rows " + rows);
        int deepest = 0;
        for (int s = 0; s < one.stacks.size(); s++) {
            deepest = Math.max(deepest, one.stacks.depth(s));
        }
        assertEquals(true, deepest > 70_000, "deepest " + deepest);
    }

    private static final int SAMPLES = 40_000;

    private record Tables(StackTable stacks, List<AggTable> agg) {
    }

    private static Tables run(int threads) {
        StackTable stacks = new StackTable();
        List<AggTable> agg = new ArrayList<>();
        SampleAggregator sink = new SampleAggregator(stacks, agg, threads, true, true);
        Random rnd = new Random(11);
        int[] chain = new int[80_000];
        for (int i = 0; i < SAMPLES; i++) {
            // now and then a chain longer than a batch, which is merged on the caller's thread
            int n = i % 10_007 == 5000 ? chain.length : rnd.nextInt(40);
            for (int k = 0; k < n; k++) {
                chain[k] = rnd.nextInt(6);
            }
            sink.add(rnd.nextInt(3), rnd.nextInt(4) - 1, rnd.nextInt(3), rnd.nextInt(3), -1, rnd.nextInt(20),
                    rnd.nextInt(3) - 1, chain, n,
                    1 + rnd.nextInt(1000));
        }
        sink.finish();
        return new Tables(stacks, agg);
    }

    @Test
    void consumerFailureIsRethrownToTheWriter() {
        StackTable stacks = new StackTable();
        List<AggTable> agg = new ArrayList<>();
        SampleAggregator sink = new SampleAggregator(stacks, agg, 2, true, true);
        int[] chain = {1, 2, 3};
        // a negative event makes the consumer's table lookup fail
        sink.add(-5, 0, 0, 0, 0, 0, -1, chain, 3, 1);
        IndexOutOfBoundsException e = org.junit.jupiter.api.Assertions.assertThrows(IndexOutOfBoundsException.class,
                () -> {
                    for (int i = 0; i < 1_000_000; i++) {
                        sink.add(0, 0, 0, 0, 0, 0, -1, chain, 3, 1);
                    }
                    sink.finish();
                });
        assertEquals(true, e.getMessage().contains("-5"), e.getMessage());
    }
}
