package io.perfj.symbols;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/**
 * A DSO's symbols sorted by start address, looked up by binary search over a primitive array.
 * Build with {@link #of(List)}, which applies perf's clean-ups (see {@link SymbolFixups}).
 */
public final class SymbolTable {
    public static final SymbolTable EMPTY = new SymbolTable(List.of());

    private final Symbol[] symbols;
    private final long[] starts;
    /** perf's tree (root, left, right by position) when symbols overlap, else null. */
    private final int[][] tree;
    /**
     * Per position, the nearest earlier symbol that ends after this one starts (-1: none), for
     * tables whose overlapping symbols answer by {@link #ofInnermost}'s rule; else null.
     */
    private final int[] enclosing;

    private SymbolTable(List<Symbol> sorted) {
        this(sorted, null);
    }

    private SymbolTable(List<Symbol> sorted, int[][] tree) {
        this(sorted, tree, false);
    }

    private SymbolTable(List<Symbol> sorted, int[][] tree, boolean innermost) {
        this.symbols = sorted.toArray(new Symbol[0]);
        this.starts = new long[symbols.length];
        for (int i = 0; i < symbols.length; i++) {
            starts[i] = symbols[i].start();
        }
        this.tree = tree;
        this.enclosing = innermost ? enclosing(symbols) : null;
    }

    /** {@link #enclosing} of sorted symbols, or null when none overlaps another. */
    private static int[] enclosing(Symbol[] s) {
        int[] up = new int[s.length];
        boolean any = false;
        for (int i = 0; i < s.length; i++) {
            int k = i - 1;
            // the chain of earlier symbols reaching past each other's starts holds the answer
            while (k >= 0 && Long.compareUnsigned(s[k].end(), s[i].start()) <= 0) {
                k = up[k];
            }
            up[i] = k;
            any |= k >= 0;
        }
        return any ? up : null;
    }

    /**
     * Indexes symbols sorted by start (unsigned) that may overlap, looked up by walking a binary
     * tree over them from the root, the first symbol met that holds the address winning (perf's
     * {@code symbols__find}; see {@code io.perfj.compat.PerfSymbolTree}).
     *
     * @param shape the root's position in {@code sorted}, then each position's left and right
     *              child (-1 for none)
     */
    public static SymbolTable ofTreeShape(List<Symbol> sorted, int[][] shape) {
        return new SymbolTable(sorted, shape);
    }

    /** Sorts, removes duplicates and fixes zero sizes as perf does, then indexes. */
    public static SymbolTable of(List<Symbol> symbols) {
        return new SymbolTable(SymbolFixups.apply(symbols));
    }

    /** Indexes symbols that are already clean and sorted by start (unsigned). */
    public static SymbolTable ofSorted(List<Symbol> sorted) {
        return new SymbolTable(sorted);
    }

    /**
     * Indexes clean symbols sorted by start that may overlap (a zero-sized {@code _init}
     * stretched over the PLT entries after it): an address goes to the symbol with the greatest
     * start, the later one of equal starts, that covers it.
     */
    public static SymbolTable ofInnermost(List<Symbol> sorted) {
        return new SymbolTable(sorted, null, true);
    }

    /** The symbol containing {@code addr}, or null. */
    public Symbol find(long addr) {
        if (tree != null) {
            return walk(addr);
        }
        int lo = 0;
        int hi = starts.length - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(starts[mid], addr) <= 0) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        if (found < 0) {
            return null;
        }
        Symbol s = symbols[found];
        // perf's symbols__find also matches a zero-sized symbol at exactly its start.
        if (s.contains(addr) || s.start() == addr) {
            return s;
        }
        if (enclosing != null) {
            for (int k = enclosing[found]; k >= 0; k = enclosing[k]) {
                if (symbols[k].contains(addr) || symbols[k].start() == addr) {
                    return symbols[k];
                }
            }
        }
        return null;
    }

    /** perf's {@code symbols__find}: the first node on the path from the root that holds addr. */
    private Symbol walk(long addr) {
        int n = tree[0][0];
        while (n >= 0) {
            Symbol s = symbols[n];
            if (Long.compareUnsigned(addr, s.start()) < 0) {
                n = tree[1][n];
            } else if (Long.compareUnsigned(addr, s.end()) > 0 || (addr == s.end() && addr != s.start())) {
                n = tree[2][n];
            } else {
                return s;
            }
        }
        return null;
    }

    /** The first symbol with this exact name, or null. */
    public Symbol byName(String name) {
        for (Symbol s : symbols) {
            if (s.name().equals(name)) {
                return s;
            }
        }
        return null;
    }

    public int size() {
        return symbols.length;
    }

    public List<Symbol> symbols() {
        return Collections.unmodifiableList(java.util.Arrays.asList(symbols));
    }

    /**
     * A copy sorted by unsigned start, equal starts in their given order. Symbol sources are
     * mostly sorted already (kallsyms, ELF tables): checked first, without boxing the keys.
     */
    static List<Symbol> sortedCopy(List<Symbol> in) {
        List<Symbol> l = new ArrayList<>(in);
        for (int i = 1; i < l.size(); i++) {
            if (Long.compareUnsigned(l.get(i - 1).start(), l.get(i).start()) > 0) {
                l.sort(BY_START);
                break;
            }
        }
        return l;
    }

    private static final Comparator<Symbol> BY_START = (a, b) -> Long.compareUnsigned(a.start(), b.start());
}
