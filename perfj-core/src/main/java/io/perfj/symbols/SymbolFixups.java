package io.perfj.symbols;

import java.util.ArrayList;
import java.util.List;

/**
 * perf's symbol table clean-ups (tools/perf/util/symbol.c), in perf's order:
 * <ol>
 * <li>sort by start address, keeping insertion order among equal starts (perf's rb-tree puts an
 * equal key to the right);</li>
 * <li>{@code symbols__fixup_end}: a zero-sized symbol ends where the next one starts; with
 * {@code kallsyms}, a zero-sized symbol followed by one on the other side of the kernel/module
 * boundary (one name holds "[", the other not) ends at the next page boundary past it; the last
 * zero-sized symbol ends one page past its start's page;</li>
 * <li>{@code symbols__fixup_duplicate}: of symbols with the same start keep one
 * ({@code choose_best_symbol}: sized over zero-sized, non-weak over weak, global over non-global,
 * fewer leading underscores, longer name, else the first).</li>
 * </ol>
 */
public final class SymbolFixups {
    private static final long PAGE = 4096;

    private SymbolFixups() {
    }

    /** The clean-ups perf applies to an ELF symbol table. */
    public static List<Symbol> apply(List<Symbol> in) {
        return apply(in, false);
    }

    /** The clean-ups perf applies; {@code kallsyms} selects the kernel/module boundary rule. */
    public static List<Symbol> apply(List<Symbol> in, boolean kallsyms) {
        List<Symbol> sorted = SymbolTable.sortedCopy(in);
        fixupEnd(sorted, kallsyms);
        return fixupDuplicate(sorted);
    }

    /** {@code symbols__fixup_end} over a sorted list, in place. */
    public static void fixupEnd(List<Symbol> sorted, boolean kallsyms) {
        int n = sorted.size();
        if (n == 0) {
            return;
        }
        boolean prevBracket = kallsyms && sorted.get(0).name().indexOf('[') >= 0;
        for (int i = 1; i < n; i++) {
            Symbol prev = sorted.get(i - 1);
            Symbol curr = sorted.get(i);
            boolean currBracket = kallsyms && curr.name().indexOf('[') >= 0;
            if (prev.end() == prev.start()) {
                long end = prevBracket != currBracket ? roundUp(prev.end() + PAGE) : curr.start();
                sorted.set(i - 1, new Symbol(prev.start(), end, prev.name(), prev.binding()));
            }
            prevBracket = currBracket;
        }
        Symbol last = sorted.get(n - 1);
        if (last.end() == last.start()) {
            sorted.set(n - 1, new Symbol(last.start(), roundUp(last.start()) + PAGE, last.name(), last.binding()));
        }
    }

    /** {@code symbols__fixup_duplicate} over a sorted list. */
    public static List<Symbol> fixupDuplicate(List<Symbol> sorted) {
        List<Symbol> out = new ArrayList<>(sorted.size());
        for (Symbol s : sorted) {
            if (!out.isEmpty() && out.getLast().start() == s.start()) {
                if (better(s, out.getLast())) {
                    out.set(out.size() - 1, s);
                }
                continue;
            }
            out.add(s);
        }
        return out;
    }

    private static long roundUp(long v) {
        return (v + PAGE - 1) & -PAGE;
    }

    /**
     * Whether {@code b} (inserted later) should replace {@code a} when both start at the same
     * address: perf's {@code choose_best_symbol(a, b) == SYMBOL_B}.
     */
    public static boolean better(Symbol b, Symbol a) {
        long sa = a.end() - a.start();
        long sb = b.end() - b.start();
        if (sb == 0 && sa > 0) {
            return false;
        }
        if (sa == 0 && sb > 0) {
            return true;
        }
        boolean wa = a.binding() == 'W';
        boolean wb = b.binding() == 'W';
        if (wb && !wa) {
            return false;
        }
        if (wa && !wb) {
            return true;
        }
        boolean ga = a.binding() == 'G';
        boolean gb = b.binding() == 'G';
        if (ga && !gb) {
            return false;
        }
        if (gb && !ga) {
            return true;
        }
        int ua = leadingUnderscores(a.name());
        int ub = leadingUnderscores(b.name());
        if (ub > ua) {
            return false;
        }
        if (ua > ub) {
            return true;
        }
        // perf compares strlen, i.e. UTF-8 bytes; names are ASCII in practice.
        return b.name().length() > a.name().length();
    }

    private static int leadingUnderscores(String s) {
        int n = 0;
        while (n < s.length() && s.charAt(n) == '_') {
            n++;
        }
        return n;
    }
}
