package io.perfj.symbols;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** SymbolTable.find against a linear scan over the same (fixed-up) symbols. */
class SymbolTablePropertyTest {

    /** Reference: the last symbol (in table order) starting at or below addr, if it covers addr. */
    static Symbol linear(List<Symbol> syms, long addr) {
        Symbol best = null;
        for (Symbol s : syms) {
            if (Long.compareUnsigned(s.start(), addr) <= 0) {
                best = s;
            }
        }
        if (best == null) {
            return null;
        }
        return best.contains(addr) || best.start() == addr ? best : null;
    }

    @Provide
    Arbitrary<List<Symbol>> symbolLists() {
        return symbols().list().ofMaxSize(60);
    }

    Arbitrary<Symbol> symbols() {
        Arbitrary<Long> start = Arbitraries.oneOf(
                Arbitraries.longs().between(0, 4096),
                Arbitraries.longs().between(0xffffffff81000000L, 0xffffffff81001000L),
                Arbitraries.longs());
        Arbitrary<Long> size = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(1, Arbitraries.just(0L)),
                net.jqwik.api.Tuple.of(4, Arbitraries.longs().between(1, 300)));
        Arbitrary<String> name = Arbitraries.strings().withChars("_abc").ofMinLength(1).ofMaxLength(6);
        Arbitrary<Character> binding = Arbitraries.of('G', 'L', 'W');
        return Combinators.combine(start, size, name, binding).as((st, sz, n, b) -> {
            long end = st + sz;
            if (Long.compareUnsigned(end, st) < 0) {
                end = st;
            }
            return new Symbol(st, end, n, b);
        });
    }

    @Property(tries = 300)
    void findAgreesWithLinearScan(@ForAll("symbolLists") List<Symbol> input,
                                  @ForAll @Size(min = 1, max = 40) List<Long> probes) {
        SymbolTable t = SymbolTable.of(input);
        List<Symbol> syms = t.symbols();
        for (int i = 1; i < syms.size(); i++) {
            assertTrue(Long.compareUnsigned(syms.get(i - 1).start(), syms.get(i).start()) < 0, "sorted, no duplicate starts");
        }
        for (long p : probes) {
            assertSame(linear(syms, p), t.find(p));
        }
        for (Symbol s : syms) {
            assertSame(linear(syms, s.start()), t.find(s.start()));
            assertSame(linear(syms, s.end() - 1), t.find(s.end() - 1));
            assertSame(linear(syms, s.end()), t.find(s.end()));
        }
    }

    @Property(tries = 200)
    void disjointSymbolsAreAllFound(@ForAll @Size(max = 50) List<@net.jqwik.api.constraints.IntRange(min = 1, max = 100) Integer> sizes) {
        java.util.ArrayList<Symbol> in = new java.util.ArrayList<>();
        long at = 0x1000;
        for (int i = 0; i < sizes.size(); i++) {
            in.add(new Symbol(at, at + sizes.get(i), "s" + i, 'G'));
            at += sizes.get(i) + (i % 3);
        }
        java.util.Collections.reverse(in);
        SymbolTable t = SymbolTable.of(in);
        assertEquals(in.size(), t.size());
        for (Symbol s : in) {
            for (long a = s.start(); a < s.end(); a++) {
                assertEquals(s, t.find(a));
            }
        }
    }
}
