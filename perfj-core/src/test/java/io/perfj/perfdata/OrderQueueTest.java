package io.perfj.perfdata;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

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
}
