package io.perfj.util;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/** KeyedTables against a HashMap of the same keys: one table per key, the same one every time. */
class KeyedTablesPropertyTest {

    @Provide
    Arbitrary<List<Long>> keys() {
        // few distinct keys (repeats, runs of one key) including the extremes, and keys that share
        // their low half (a process's tables of several modes)
        Arbitrary<Long> sharedLow = Arbitraries.longs().between(0, 5).flatMap(hi -> Arbitraries.integers().between(-2, 3)
                .map(lo -> (hi << 32) | (lo & 0xffff_ffffL)));
        return Arbitraries.oneOf(Arbitraries.longs().between(-3, 3), Arbitraries.of(Long.MIN_VALUE, Long.MAX_VALUE, 0L),
                Arbitraries.longs(), sharedLow).list().ofMaxSize(300);
    }

    @Property(tries = 300)
    void oneTablePerKey(@ForAll("keys") List<Long> keys, @ForAll("keys") List<Long> visits) {
        KeyedTables<List<Long>> t = new KeyedTables<>(ArrayList::new);
        Map<Long, List<Long>> model = new HashMap<>();
        int i = 0;
        for (long k : keys) {
            List<Long> got = t.get(k);
            List<Long> want = model.computeIfAbsent(k, x -> got);
            assertSame(want, got);
            got.add(k);
            if (i < visits.size() && (visits.get(i) & 7) == 0) {
                // forEachOfLow sees each table whose key's low half is the one asked for, once
                int low = (int) (visits.get(i) >> 3);
                Set<Long> seen = new HashSet<>();
                t.forEachOfLow(low, table -> {
                    long key = table.getFirst();
                    assertEquals(low, (int) key);
                    assertEquals(true, seen.add(key));
                });
                assertEquals(model.keySet().stream().filter(x -> (int) (long) x == low).count(), seen.size());
                // and of a key in the recording, its own low half
                int own = (int) k;
                Set<Long> ownSeen = new HashSet<>();
                t.forEachOfLow(own, table -> assertEquals(true, ownSeen.add(table.getFirst())));
                assertEquals(model.keySet().stream().filter(x -> (int) (long) x == own).count(), ownSeen.size());
                Set<Long> all = new HashSet<>();
                t.forEach(table -> assertEquals(true, all.add(table.getFirst())));
                assertEquals(model.keySet(), all);
            }
            i++;
        }
        assertEquals(model.size(), new HashSet<>(keys).size());
    }
}
