package io.perfj.symbols;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Kallsyms' column parser (names made only for the symbols looked up) against perf's clean-ups
 * written out over Symbol lists: sort keeping file order, fixup_end with the module boundary
 * rule, fixup_duplicate, then the split into kernel and module tables.
 */
class KallsymsPropertyTest {

    record Line(long addr, char type, String name, String module) {
        String text() {
            return Long.toHexString(addr) + " " + type + " " + name + (module == null ? "" : "\t[" + module + "]");
        }
    }

    @Provide
    Arbitrary<List<Line>> files() {
        Arbitrary<Long> addr = Arbitraries.oneOf(
                Arbitraries.of(0xffffffff81000000L, 0xffffffff81000010L, 0xffffffff81002000L, 0xffffffffc0001000L),
                Arbitraries.longs().between(0xffffffff81000000L, 0xffffffff81010000L),
                Arbitraries.longs().between(0xffffffffc0000000L, 0xffffffffc0004000L));
        Arbitrary<Character> type = Arbitraries.of('T', 't', 'W', 'w', 'D', 'd', 'B', 'b', 'r', 'A', 'U');
        Arbitrary<String> name = Arbitraries.strings().withChars("_ab[x").ofMinLength(1).ofMaxLength(5);
        Arbitrary<String> module = Arbitraries.of("", "", "bpf", "kvm");
        return Combinators.combine(addr, type, name, module)
                .as((a, t, n, m) -> new Line(a, t, n, m.isEmpty() ? null : m)).list().ofMaxSize(80);
    }

    @Property(tries = 600)
    void columnsAgreeWithSymbolLists(@ForAll("files") List<Line> lines) {
        StringBuilder text = new StringBuilder();
        List<Symbol> all = new ArrayList<>();
        for (Line l : lines) {
            text.append(l.text()).append('\n');
            if (Kallsyms.keepsType(l.type()) && l.name().charAt(0) != '$') {
                char b = l.type() == 'W' ? 'W' : Character.isUpperCase(l.type()) ? 'G' : 'L';
                String full = l.name() + (l.module() == null ? "" : "\t[" + l.module() + "]");
                all.add(new Symbol(l.addr(), l.addr(), full, b));
            }
        }
        List<Symbol> fixed = reference(all);
        List<Symbol> kernel = new ArrayList<>();
        Map<String, List<Symbol>> modules = new LinkedHashMap<>();
        for (Symbol s : fixed) {
            int tab = s.name().indexOf('\t');
            if (tab < 0) {
                kernel.add(s);
            } else {
                modules.computeIfAbsent(s.name().substring(tab + 1), k -> new ArrayList<>())
                        .add(new Symbol(s.start(), s.end(), s.name().substring(0, tab), s.binding()));
            }
        }
        Kallsyms k = Kallsyms.parse(text.toString().getBytes(StandardCharsets.UTF_8), "kallsyms");
        assertEquals(kernel, k.kernel().symbols());
        assertEquals(List.copyOf(modules.keySet()), k.moduleNames());
        modules.forEach((m, syms) -> assertEquals(syms, k.modules().get(m).symbols(), m));
        // lookups give the same objects as the listing (a symbol is made once)
        for (Symbol s : k.kernel().symbols()) {
            assertEquals(s, k.kernel().find(s.start()));
        }
    }

    /** perf's clean-ups over a list, step by step (symbols__fixup_end, symbols__fixup_duplicate). */
    static List<Symbol> reference(List<Symbol> in) {
        List<Symbol> sorted = new ArrayList<>(in);
        sorted.sort((a, b) -> Long.compareUnsigned(a.start(), b.start()));
        SymbolFixups.fixupEnd(sorted, true);
        List<Symbol> out = new ArrayList<>();
        for (Symbol s : sorted) {
            if (!out.isEmpty() && out.getLast().start() == s.start()) {
                if (SymbolFixups.better(s, out.getLast())) {
                    out.set(out.size() - 1, s);
                }
                continue;
            }
            out.add(s);
        }
        return out;
    }

    @Property(tries = 300)
    void stableOrderIsAStableSort(@ForAll("keys") long[] keys) {
        Integer[] expect = new Integer[keys.length];
        for (int i = 0; i < keys.length; i++) {
            expect[i] = i;
        }
        java.util.Arrays.sort(expect, (a, b) -> Long.compareUnsigned(keys[a], keys[b]));
        int[] want = new int[keys.length];
        for (int i = 0; i < keys.length; i++) {
            want[i] = expect[i];
        }
        assertArrayEquals(want, SymbolTable.stableOrder(keys, keys.length));
    }

    @Provide
    Arbitrary<long[]> keys() {
        return Arbitraries.oneOf(Arbitraries.longs().between(-3, 3), Arbitraries.longs())
                .array(long[].class).ofMaxSize(200);
    }
}
