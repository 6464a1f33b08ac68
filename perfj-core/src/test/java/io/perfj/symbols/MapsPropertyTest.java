package io.perfj.symbols;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Random sequences of insert, overlap-insert, remove and mutate give the same address-to-map
 * answers as a plain list of non-overlapping intervals.
 */
class MapsPropertyTest {
    private static final Dso DSO = new Dso("/x", DsoKind.USER, null, d -> SymbolTable.EMPTY);

    /** One step: kind 0 insert, 1 overlap-insert, 2 remove, 3 mutate; a, b, c its numbers. */
    record Op(int kind, int a, int b, int c) {
    }

    /** The reference model's interval. */
    static final class Iv {
        long start;
        long end;
        long pgoff;
        Map map;

        Iv(long start, long end, long pgoff, Map map) {
            this.start = start;
            this.end = end;
            this.pgoff = pgoff;
            this.map = map;
        }

        boolean contains(long ip) {
            return Long.compareUnsigned(ip, start) >= 0 && Long.compareUnsigned(ip, end) < 0;
        }
    }

    @Provide
    Arbitrary<List<Op>> ops() {
        Arbitrary<Op> op = Combinators.combine(Arbitraries.integers().between(0, 3),
                Arbitraries.integers().between(0, 300), Arbitraries.integers().between(1, 60),
                Arbitraries.integers().between(0, 1000)).as(Op::new);
        return op.list().ofMinSize(1).ofMaxSize(60);
    }

    @Provide
    Arbitrary<Long> bases() {
        // low addresses, kernel addresses, and a range that crosses the signed boundary
        return Arbitraries.of(0L, 0xffffffff80000000L, 0x7fffffffffffff00L, 0xfffffffffffffe00L);
    }

    @Property(tries = 400)
    void sameAnswersAsReferenceModel(@ForAll("ops") List<Op> ops, @ForAll("bases") long base) {
        Maps maps = new Maps();
        List<Iv> model = new ArrayList<>();
        for (Op op : ops) {
            long start = base + op.a();
            long end = start + op.b();
            if (Long.compareUnsigned(end, start) <= 0) {
                continue; // would wrap around the top
            }
            switch (op.kind()) {
                case 0 -> {
                    if (overlapsAny(model, start, end, null)) {
                        continue; // plain insert keeps overlaps; the model covers disjoint maps
                    }
                    Map m = Map.of(start, end, op.c(), DSO);
                    maps.insert(m);
                    model.add(new Iv(start, end, op.c(), m));
                }
                case 1 -> {
                    Map m = Map.of(start, end, op.c(), DSO);
                    maps.fixupOverlapAndInsert(m);
                    List<Iv> next = new ArrayList<>();
                    for (Iv iv : model) {
                        if (Long.compareUnsigned(iv.end, start) <= 0 || Long.compareUnsigned(iv.start, end) >= 0) {
                            next.add(iv);
                            continue;
                        }
                        if (Long.compareUnsigned(iv.start, start) < 0) {
                            next.add(new Iv(iv.start, start, iv.pgoff, null));
                        }
                        if (Long.compareUnsigned(end, iv.end) < 0) {
                            next.add(new Iv(end, iv.end, iv.pgoff + (end - iv.start), null));
                        }
                    }
                    next.add(new Iv(start, end, op.c(), m));
                    model.clear();
                    model.addAll(next);
                }
                case 2 -> {
                    if (model.isEmpty()) {
                        continue;
                    }
                    Iv victim = model.get(op.c() % model.size());
                    Map m = victim.map != null ? victim.map : maps.find(victim.start);
                    assertNotNull(m);
                    assertTrue(maps.remove(m));
                    model.remove(victim);
                }
                default -> {
                    if (model.isEmpty()) {
                        continue;
                    }
                    Iv iv = model.get(op.c() % model.size());
                    if (overlapsAny(model, start, end, iv)) {
                        continue;
                    }
                    Map m = iv.map != null ? iv.map : maps.find(iv.start);
                    assertNotNull(m);
                    long pg = op.c() * 3L;
                    maps.mutate(m, e -> e.start(start).end(end).pgoff(pg));
                    iv.start = start;
                    iv.end = end;
                    iv.pgoff = pg;
                    iv.map = m;
                }
            }
            if (op.c() % 3 == 0) {
                check(maps, model, base); // not after every step: unsorted states must persist too
            }
        }
        check(maps, model, base);
    }

    private static boolean overlapsAny(List<Iv> model, long start, long end, Iv except) {
        for (Iv iv : model) {
            if (iv != except && Long.compareUnsigned(iv.start, end) < 0 && Long.compareUnsigned(start, iv.end) < 0) {
                return true;
            }
        }
        return false;
    }

    private static void check(Maps maps, List<Iv> model, long base) {
        assertEquals(model.size(), maps.size(), "number of maps");
        TreeSet<Long> probes = new TreeSet<>(Long::compareUnsigned);
        for (Iv iv : model) {
            probes.add(iv.start);
            probes.add(iv.start - 1);
            probes.add(iv.end);
            probes.add(iv.end - 1);
        }
        for (int i = 0; i < 400; i += 7) {
            probes.add(base + i);
        }
        for (long ip : probes) {
            Iv want = null;
            for (Iv iv : model) {
                if (iv.contains(ip)) {
                    want = iv;
                }
            }
            Map got = maps.find(ip);
            if (want == null) {
                assertNull(got, () -> "0x" + Long.toHexString(ip) + " should be unmapped, found " + got);
            } else {
                assertNotNull(got, () -> "0x" + Long.toHexString(ip) + " should be mapped");
                assertEquals(want.start, got.start(), "start");
                assertEquals(want.end, got.end(), "end");
                assertEquals(want.pgoff, got.pgoff(), "pgoff");
                assertEquals(ip - want.start + want.pgoff, got.mapIp(ip), "map_ip");
                if (want.map != null) {
                    assertTrue(want.map == got, "same map object");
                }
            }
        }
        List<Map> listed = maps.list();
        for (int i = 1; i < listed.size(); i++) {
            assertTrue(Long.compareUnsigned(listed.get(i - 1).end(), listed.get(i).start()) <= 0, "ordered, disjoint");
        }
        List<Iv> sorted = new ArrayList<>(model);
        sorted.sort(Comparator.comparing((Iv iv) -> iv.start, Long::compareUnsigned));
        for (int i = 0; i < sorted.size(); i++) {
            assertEquals(sorted.get(i).start, listed.get(i).start());
        }
    }

    @Property(tries = 100)
    void forkCopyAnswersLikeTheParent(@ForAll("ops") List<Op> ops) {
        Maps parent = new Maps();
        for (Op op : ops) {
            parent.fixupOverlapAndInsert(Map.of(op.a(), op.a() + op.b(), op.c(), DSO));
        }
        Maps child = new Maps();
        child.copyFrom(parent);
        for (long ip = 0; ip < 400; ip++) {
            Map p = parent.find(ip);
            Map c = child.find(ip);
            if (p == null) {
                assertNull(c);
            } else {
                assertNotNull(c);
                assertTrue(p != c, "maps are cloned");
                assertEquals(p.start(), c.start());
                assertEquals(p.end(), c.end());
                assertEquals(p.mapIp(ip), c.mapIp(ip));
            }
        }
        // changing the child leaves the parent alone
        child.fixupOverlapAndInsert(Map.of(0, 400, 0, DSO));
        assertEquals(1, child.size());
        assertEquals(parent.list().size(), parent.size());
    }
}
