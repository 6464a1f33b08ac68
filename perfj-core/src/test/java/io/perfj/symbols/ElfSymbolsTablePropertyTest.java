package io.perfj.symbols;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * An object's symbol table in the default mode (sorted and fixed up, no tree) against the replay
 * of perf's tree (--compat perf-6.1): the same symbols in the same order; every address answered by
 * the covering symbol with the greatest start (the later of equal starts) among those that had a
 * size, else among those stretched by the fix-ups, which is perf's answer whenever no two symbols
 * overlap (where they do, perf's tree walk may miss a covering symbol or pick the outer one).
 */
class ElfSymbolsTablePropertyTest {
    @Provide
    Arbitrary<List<Symbol>> elf() {
        Arbitrary<Long> start = Arbitraries.longs().between(0, 400).map(x -> x * 8);
        Arbitrary<Long> size = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(1, Arbitraries.just(0L)),
                net.jqwik.api.Tuple.of(3, Arbitraries.longs().between(1, 24)));
        Arbitrary<String> name = Arbitraries.strings().withChars("abc_").ofMinLength(1).ofMaxLength(4);
        Arbitrary<Character> binding = Arbitraries.of('G', 'L', 'W', 'T', 't');
        return Combinators.combine(start, size, name, binding).as((st, sz, n, b) -> new Symbol(st, st + sz, n, b))
                .list().ofMaxSize(40);
    }

    @Provide
    Arbitrary<List<Symbol>> plt() {
        return Arbitraries.longs().between(0, 400).map(x -> new Symbol(x * 8, x * 8 + 16, "f@plt", 'G'))
                .list().ofMaxSize(6);
    }

    @Property(tries = 2000)
    void sameSymbolsAndPerfsAnswersWhereNothingOverlaps(@ForAll("elf") List<Symbol> syms, @ForAll("plt") List<Symbol> plt) {
        SymbolTable table = ElfSymbols.table(syms, plt);
        SymbolTable tree = io.perfj.compat.PerfSymbolTree.of(syms, plt);
        List<Symbol> sorted = tree.symbols();
        assertEquals(sorted, table.symbols());
        boolean overlap = false;
        for (int i = 1; i < sorted.size(); i++) {
            overlap |= Long.compareUnsigned(sorted.get(i - 1).end(), sorted.get(i).start()) > 0;
        }
        for (long a = 0; a < 3300; a += 3) {
            Symbol innermost = null;
            Symbol stretched = null;
            for (Symbol s : sorted) {
                if (s.contains(a) || s.start() == a) {
                    // the greatest start, the later of equal ones
                    if (hadSize(s, syms, plt)) {
                        innermost = s;
                    } else {
                        stretched = s;
                    }
                }
            }
            if (innermost == null) {
                innermost = stretched;
            }
            assertEquals(innermost, table.find(a), "address " + a);
            if (!overlap) {
                assertEquals(tree.find(a), table.find(a), "address " + a + ", no overlaps: perf's answer");
            }
        }
    }

    /** Whether a symbol of the table is a PLT entry or an ELF symbol kept with its own size. */
    private static boolean hadSize(Symbol s, List<Symbol> syms, List<Symbol> plt) {
        return plt.contains(s) || syms.stream().anyMatch(e -> e.size() > 0 && e.equals(s));
    }
}
