package io.perfj.perfdata;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class OrderQueueTest {
    @Provide
    Arbitrary<List<Long>> times() {
        // few distinct values (many ties), runs, and values past Long.MAX_VALUE (unsigned order)
        return Arbitraries.oneOf(Arbitraries.longs().between(0, 20), Arbitraries.longs(),
                Arbitraries.of(-1L, Long.MIN_VALUE, Long.MAX_VALUE, 0L)).list().ofMaxSize(300);
    }

    /** The run-merging sort equals a stable sort by unsigned time. */
    @Property(tries = 500)
    void sortIsStableAndUnsigned(@ForAll("times") List<Long> list) {
        long[] t = list.stream().mapToLong(Long::longValue).toArray();
        int[] expected = IntStream.range(0, t.length).boxed()
                .sorted(Comparator.comparing((Integer i) -> t[i], Long::compareUnsigned))
                .mapToInt(Integer::intValue).toArray();
        assertArrayEquals(expected, OrderQueue.sortedByTime(t, t.length));
    }

    @Provide
    Arbitrary<List<Long>> ops() {
        // a time to enqueue, or -2 for a FINISHED_ROUND, -3 for a record passed at once
        return Arbitraries.oneOf(Arbitraries.longs().between(0, 40), Arbitraries.of(-2L, -3L),
                Arbitraries.of(-1L, Long.MIN_VALUE)).list().ofMaxSize(400);
    }

    /**
     * Against a plain model of perf's rounds: at each round the records no later than the
     * largest time of the previous round come out by unsigned time, ties and what stays behind
     * in arrival order; passed records come out at once; the end releases the rest.
     */
    @Property(tries = 500)
    void releasesLikeTheRoundModel(@ForAll("ops") List<Long> ops) {
        OrderQueue q = new OrderQueue(1 << 20);
        List<Long> got = new ArrayList<>();
        List<Long> want = new ArrayList<>();
        List<long[]> queued = new ArrayList<>();
        long max = 0;
        long limit = 0;
        boolean any = false;
        long handle = 0;
        for (long op : ops) {
            if (op == -2L) {
                q.round();
                if (any) {
                    release(queued, want, limit, false);
                    limit = max;
                }
            } else if (op == -3L) {
                q.pass(handle);
                want.add(handle);
                handle++;
            } else {
                q.enqueue(handle, op);
                queued.add(new long[] {handle, op});
                if (!any || Long.compareUnsigned(op, max) > 0) {
                    max = op;
                }
                any = true;
                handle++;
            }
            while (q.hasReady()) {
                got.add(q.take());
            }
        }
        q.end();
        while (q.hasReady()) {
            got.add(q.take());
        }
        release(queued, want, 0, true);
        assertEquals(want, got);
    }

    private static void release(List<long[]> queued, List<Long> out, long limit, boolean all) {
        List<long[]> go = new ArrayList<>();
        for (long[] r : queued) {
            if (all || Long.compareUnsigned(r[1], limit) <= 0) {
                go.add(r);
            }
        }
        queued.removeAll(go);
        go.stream().sorted(Comparator.comparing((long[] r) -> r[1], Long::compareUnsigned))
                .forEach(r -> out.add(r[0]));
    }
}
