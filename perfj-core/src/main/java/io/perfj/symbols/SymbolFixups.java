package io.perfj.symbols;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.Supplier;

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
        int n = in.size();
        long[] start = new long[n];
        long[] end = new long[n];
        char[] binding = new char[n];
        boolean[] bracket = kallsyms ? new boolean[n] : null;
        for (int i = 0; i < n; i++) {
            Symbol s = in.get(i);
            start[i] = s.start();
            end[i] = s.end();
            binding[i] = s.binding();
            if (kallsyms) {
                bracket[i] = s.name().indexOf('[') >= 0;
            }
        }
        int[] kept = apply(start, end, binding, n, bracket, i -> in.get(i).name());
        List<Symbol> out = new ArrayList<>(kept.length);
        for (int i : kept) {
            Symbol s = in.get(i);
            out.add(end[i] == s.end() ? s : new Symbol(s.start(), end[i], s.name(), s.binding()));
        }
        return out;
    }

    /**
     * The clean-ups over columns of {@code n} symbols: returns the positions kept, in address
     * order, and gives zero-sized ones their ends in {@code end} (changed in place).
     *
     * @param bracket per position, whether a kallsyms name holds "[" (a module symbol), for the
     *                kernel/module boundary rule; null for ELF tables
     * @param name    a position's name, asked only to break ties between symbols of the same
     *                start, size class and binding (a lazily named table stays unnamed)
     */
    static int[] apply(long[] start, long[] end, char[] binding, int n, boolean[] bracket, IntFunction<String> name) {
        int[] order = SymbolTable.stableOrder(start, n);
        for (int k = 0; k + 1 < n; k++) {
            int i = order[k];
            if (end[i] == start[i]) {
                int next = order[k + 1];
                end[i] = bracket != null && bracket[i] != bracket[next] ? roundUp(end[i] + PAGE) : start[next];
            }
        }
        if (n > 0) {
            int last = order[n - 1];
            if (end[last] == start[last]) {
                end[last] = roundUp(start[last]) + PAGE;
            }
        }
        int m = 0;
        for (int k = 0; k < n; k++) {
            int i = order[k];
            if (m > 0 && start[order[m - 1]] == start[i]) {
                int a = order[m - 1];
                if (better(end[a] - start[a], binding[a], () -> name.apply(a),
                        end[i] - start[i], binding[i], () -> name.apply(i))) {
                    order[m - 1] = i;
                }
                continue;
            }
            order[m++] = i;
        }
        return Arrays.copyOf(order, m);
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

    private static long roundUp(long v) {
        return (v + PAGE - 1) & -PAGE;
    }

    /**
     * Whether {@code b} (inserted later) should replace {@code a} when both start at the same
     * address: perf's {@code choose_best_symbol(a, b) == SYMBOL_B}.
     */
    public static boolean better(Symbol b, Symbol a) {
        return better(a.size(), a.binding(), a::name, b.size(), b.binding(), b::name);
    }

    private static boolean better(long sa, char ba, Supplier<String> nameA, long sb, char bb, Supplier<String> nameB) {
        if (sb == 0 && sa > 0) {
            return false;
        }
        if (sa == 0 && sb > 0) {
            return true;
        }
        boolean wa = ba == 'W';
        boolean wb = bb == 'W';
        if (wb != wa) {
            return wa;
        }
        boolean ga = ba == 'G';
        boolean gb = bb == 'G';
        if (ga != gb) {
            return gb;
        }
        String a = nameA.get();
        String b = nameB.get();
        int ua = leadingUnderscores(a);
        int ub = leadingUnderscores(b);
        if (ub != ua) {
            return ua > ub;
        }
        // perf compares strlen, i.e. UTF-8 bytes; names are ASCII in practice.
        return b.length() > a.length();
    }

    private static int leadingUnderscores(String s) {
        int n = 0;
        while (n < s.length() && s.charAt(n) == '_') {
            n++;
        }
        return n;
    }
}
