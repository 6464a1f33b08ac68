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
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * Kallsyms' column parser (names made only for the symbols looked up) against perf's clean-ups
 * written out over Symbol lists: sort keeping file order, fixup_end with the module boundary
 * rule, fixup_duplicate, then the split into kernel and module tables.
 */
class KallsymsPropertyTest {

    /** A line; with a {@code junk} text, that text instead (malformed or not). */
    record Line(long addr, char type, String name, String module, String junk) {
        String text() {
            if (junk != null) {
                return junk;
            }
            return Long.toHexString(addr) + " " + type + " " + name + (module == null ? "" : "\t[" + module + "]");
        }

        /** Whether perf's parser rejects the line (counted as skipped); empty lines are not. */
        boolean malformed() {
            return junk != null && !junk.isEmpty() && !junk.endsWith(" ");
        }
    }

    /** Lines that are not symbols: malformed ones, an empty one, one with an empty name. */
    static final List<String> JUNK = List.of("zz", "", "ffff T", "12345", "ffffffff81000000 T ", "x T y");

    @Provide
    Arbitrary<List<Line>> files() {
        Arbitrary<Long> addr = Arbitraries.oneOf(
                Arbitraries.of(0xffffffff81000000L, 0xffffffff81000010L, 0xffffffff81002000L, 0xffffffffc0001000L),
                Arbitraries.longs().between(0xffffffff81000000L, 0xffffffff81010000L),
                Arbitraries.longs().between(0xffffffffc0000000L, 0xffffffffc0004000L));
        Arbitrary<Character> type = Arbitraries.of('T', 't', 'W', 'w', 'D', 'd', 'B', 'b', 'r', 'A', 'U');
        Arbitrary<String> name = Arbitraries.oneOf(Arbitraries.strings().withChars("_ab[x$").ofMinLength(1).ofMaxLength(5),
                Arbitraries.of("_stext", "_text", "_etext"));
        Arbitrary<String> module = Arbitraries.of("", "", "bpf", "kvm");
        Arbitrary<String> junk = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(9, Arbitraries.just("-")),
                net.jqwik.api.Tuple.of(1, Arbitraries.of(JUNK)));
        return Combinators.combine(addr, type, name, module, junk)
                .as((a, t, n, m, j) -> new Line(a, t, n, m.isEmpty() ? null : m, j.equals("-") ? null : j))
                .list().ofMaxSize(80);
    }

    @Property(tries = 600)
    void columnsAgreeWithSymbolLists(@ForAll("files") List<Line> lines) {
        StringBuilder text = new StringBuilder();
        List<Symbol> all = new ArrayList<>();
        int bad = 0;
        int firstBad = -1;
        long stext = 0;
        long textSym = 0;
        long etext = 0;
        for (int i = 0; i < lines.size(); i++) {
            Line l = lines.get(i);
            text.append(l.text()).append('\n');
            if (l.malformed()) {
                bad++;
                if (firstBad < 0) {
                    firstBad = i + 1;
                }
            }
            if (l.junk() != null) {
                continue;
            }
            if (Kallsyms.keepsType(l.type()) && l.name().charAt(0) != '$') {
                if (l.module() == null) {
                    switch (l.name()) {
                        case "_stext" -> stext = l.addr();
                        case "_text" -> textSym = l.addr();
                        case "_etext" -> etext = l.addr();
                        default -> {
                        }
                    }
                }
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
        byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
        // whole, and scanned in two parts (as large files are), cut anywhere
        for (int cut : new int[] {0, 1, bytes.length / 3, bytes.length / 2, bytes.length - 1}) {
            Kallsyms k = Kallsyms.parse(bytes, "kallsyms", cut);
            assertEquals(kernel, k.kernel().symbols());
            assertEquals(bad, k.badLines());
            if (bad > 0) {
                assertEquals("kallsyms: skipped " + bad + " malformed line" + (bad == 1 ? "" : "s")
                        + " (first: line " + firstBad + ")", k.warning());
            }
            assertEquals(stext != 0 ? stext : textSym, k.textStart());
            assertEquals(etext, k.textEnd());
            assertEquals(List.copyOf(modules.keySet()), k.moduleNames());
            modules.forEach((m, syms) -> assertEquals(syms, k.modules().get(m).symbols(), m));
            // lookups give the same objects as the listing (a symbol is made once)
            for (Symbol s : k.kernel().symbols()) {
                assertSame(s, k.kernel().find(s.start()));
            }
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
