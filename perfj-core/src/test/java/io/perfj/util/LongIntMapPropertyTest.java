package io.perfj.util;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.Size;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Any sequence of puts, put-if-absents, lookups and clears gives the same answers as a
 * {@link HashMap}: keys from a small range (so they repeat and collide after a clear) mixed with
 * the extremes of {@code long}, which a table with a reserved empty key could not hold.
 */
class LongIntMapPropertyTest {
    /** One step: 0 put, 1 putIfAbsent, 2 get, 3 clear (rarely). */
    record Op(int kind, long key, int value) {
    }

    @Provide
    Arbitrary<Op> ops() {
        Arbitrary<Long> keys = Arbitraries.oneOf(Arbitraries.longs().between(-40, 40),
                Arbitraries.of(Long.MIN_VALUE, Long.MAX_VALUE, 1L << 56, 3L << 56), Arbitraries.longs());
        Arbitrary<Integer> kinds = Arbitraries.frequency(
                Tuple.of(40, 0), Tuple.of(20, 1), Tuple.of(38, 2),
                Tuple.of(2, 3));
        return Combinators.combine(kinds, keys, Arbitraries.integers()).as(Op::new);
    }

    @Property(tries = 500)
    void behavesLikeAHashMap(@ForAll @Size(max = 600) List<@From("ops") Op> ops) {
        LongIntMap m = new LongIntMap(4);
        Map<Long, Integer> ref = new HashMap<>();
        for (Op op : ops) {
            switch (op.kind()) {
                case 0 -> {
                    m.put(op.key(), op.value());
                    ref.put(op.key(), op.value());
                }
                case 1 -> {
                    Integer prev = ref.putIfAbsent(op.key(), op.value());
                    assertEquals(prev == null ? op.value() : prev, m.putIfAbsent(op.key(), op.value()));
                }
                case 2 -> assertEquals(ref.getOrDefault(op.key(), 77), m.get(op.key(), 77), "get " + op.key());
                default -> {
                    m.clear();
                    ref.clear();
                }
            }
            assertEquals(ref.size(), m.size());
        }
        for (Map.Entry<Long, Integer> e : ref.entrySet()) {
            assertEquals((int) e.getValue(), m.get(e.getKey(), 77));
        }
    }

    @Property(tries = 100)
    void getWithoutDefaultIsMinusOneWhenAbsent(@ForAll @Size(max = 100) List<Long> keys, @ForAll long probe) {
        LongIntMap m = new LongIntMap(1);
        for (long k : keys) {
            m.put(k, (int) (k & 0xffff));
        }
        assertEquals(keys.contains(probe) ? (int) (probe & 0xffff) : -1, m.get(probe));
    }
}
