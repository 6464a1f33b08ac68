package io.perfj.symbols;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.IntFunction;

/**
 * A DSO's symbols sorted by start address, looked up by binary search over primitive arrays.
 * Build with {@link #of(List)}, which applies perf's clean-ups (see {@link SymbolFixups}).
 *
 * <p>A table may name its symbols lazily ({@link #ofNamed}): a large symbol source (kallsyms'
 * 120k lines) is indexed by address without making a String for every name, and a
 * {@link Symbol} is made the first time a lookup returns it, then kept, so every caller sees
 * the same object.
 */
public final class SymbolTable {
    public static final SymbolTable EMPTY = new SymbolTable(List.of());

    private final long[] starts;
    private final long[] ends;
    private final char[] bindings;
    /** The symbols made so far (all of them when {@link #names} is null). */
    private final Symbol[] symbols;
    /** A position's name, for tables whose symbols are made on demand; else null. */
    private final IntFunction<String> names;
    /** perf's tree (root, left, right by position) when symbols overlap, else null. */
    private final int[][] tree;
    /**
     * Per position, the nearest earlier symbol that ends after this one starts (-1: none), for
     * tables whose overlapping symbols answer by {@link #ofInnermost}'s rule; else null.
     */
    private final int[] enclosing;
    /**
     * Per position, whether the symbol yields to a stronger one that also holds the address (a
     * label that had no size), for tables with {@link #enclosing}; else null.
     */
    private final boolean[] weak;

    private SymbolTable(List<Symbol> sorted) {
        this(sorted, null, false, null);
    }

    private SymbolTable(List<Symbol> sorted, int[][] tree, boolean innermost, boolean[] weak) {
        this.symbols = sorted.toArray(new Symbol[0]);
        int n = symbols.length;
        this.starts = new long[n];
        this.ends = new long[n];
        this.bindings = new char[n];
        for (int i = 0; i < n; i++) {
            starts[i] = symbols[i].start();
            ends[i] = symbols[i].end();
            bindings[i] = symbols[i].binding();
        }
        this.names = null;
        this.tree = tree;
        this.enclosing = innermost ? enclosing(starts, ends) : null;
        this.weak = enclosing != null ? weak : null;
    }

    private SymbolTable(long[] starts, long[] ends, char[] bindings, boolean innermost, boolean[] weak,
                        IntFunction<String> names) {
        this.starts = starts;
        this.ends = ends;
        this.bindings = bindings;
        this.symbols = new Symbol[starts.length];
        this.names = names;
        this.tree = null;
        this.enclosing = innermost ? enclosing(starts, ends) : null;
        this.weak = enclosing != null ? weak : null;
    }

    /** {@link #enclosing} of sorted symbols, or null when none overlaps another. */
    private static int[] enclosing(long[] starts, long[] ends) {
        int[] up = new int[starts.length];
        boolean any = false;
        for (int i = 0; i < starts.length; i++) {
            int k = i - 1;
            // the chain of earlier symbols reaching past each other's starts holds the answer
            while (k >= 0 && Long.compareUnsigned(ends[k], starts[i]) <= 0) {
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
        return new SymbolTable(sorted, shape, false, null);
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
        return new SymbolTable(sorted, null, true, null);
    }

    /**
     * As {@link #ofInnermost(List)}, except that a {@code weak} symbol (by position; a label
     * without a size of its own) answers only where no other covering symbol does: an address
     * in a function past a label inside it is the function's.
     */
    public static SymbolTable ofInnermost(List<Symbol> sorted, boolean[] weak) {
        return new SymbolTable(sorted, null, true, weak);
    }

    /**
     * Indexes clean symbols sorted by start (unsigned), given as columns (the arrays are kept,
     * not copied), whose names are asked of {@code names} by position the first time a symbol
     * is returned; {@code names} may be called from any thread. With {@code innermost},
     * overlapping symbols answer as in {@link #ofInnermost(List, boolean[])} ({@code weak} may be
     * null); without, they must not overlap.
     */
    static SymbolTable ofNamed(long[] starts, long[] ends, char[] bindings, boolean innermost, boolean[] weak,
                               IntFunction<String> names) {
        if (starts.length != ends.length || starts.length != bindings.length
                || weak != null && weak.length != starts.length) {
            throw new IllegalArgumentException("columns of different lengths");
        }
        return new SymbolTable(starts, ends, bindings, innermost, weak, names);
    }

    /** The symbol containing {@code addr}, or null. */
    public Symbol find(long addr) {
        int at = tree != null ? walk(addr) : search(addr);
        return at < 0 ? null : symbol(at);
    }

    private int search(long addr) {
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
            return -1;
        }
        // perf's symbols__find also matches a zero-sized symbol at exactly its start.
        if (holds(found, addr) && (weak == null || !weak[found])) {
            return found;
        }
        if (enclosing == null) {
            return holds(found, addr) ? found : -1;
        }
        // the innermost covering symbol, unless it is weak and a stronger one covers the address
        int firstWeak = holds(found, addr) ? found : -1;
        for (int k = enclosing[found]; k >= 0; k = enclosing[k]) {
            if (holds(k, addr)) {
                if (weak == null || !weak[k]) {
                    return k;
                }
                if (firstWeak < 0) {
                    firstWeak = k;
                }
            }
        }
        return firstWeak;
    }

    private boolean holds(int i, long addr) {
        return starts[i] == addr
                || (Long.compareUnsigned(addr, starts[i]) >= 0 && Long.compareUnsigned(addr, ends[i]) < 0);
    }

    /** perf's {@code symbols__find}: the first node on the path from the root that holds addr. */
    private int walk(long addr) {
        int n = tree[0][0];
        while (n >= 0) {
            if (Long.compareUnsigned(addr, starts[n]) < 0) {
                n = tree[1][n];
            } else if (Long.compareUnsigned(addr, ends[n]) > 0 || (addr == ends[n] && addr != starts[n])) {
                n = tree[2][n];
            } else {
                return n;
            }
        }
        return -1;
    }

    /** The symbol at a position, made (once) when the table names its symbols lazily. */
    private Symbol symbol(int i) {
        Symbol s = symbols[i];
        if (s != null || names == null) {
            return s;
        }
        // made under the lock, so that every caller gets the same object; read without it
        // after (a Symbol's fields are final: a reference seen is a complete object)
        synchronized (this) {
            s = symbols[i];
            if (s == null) {
                s = new Symbol(starts[i], ends[i], names.apply(i), bindings[i]);
                symbols[i] = s;
            }
            return s;
        }
    }

    /** The first symbol with this exact name, or null. */
    public Symbol byName(String name) {
        for (int i = 0; i < starts.length; i++) {
            Symbol s = symbols[i];
            if (s != null ? s.name().equals(name) : names != null && names.apply(i).equals(name)) {
                return symbol(i);
            }
        }
        return null;
    }

    public int size() {
        return starts.length;
    }

    /** The lowest start, or 0 for an empty table. */
    public long firstStart() {
        return starts.length == 0 ? 0 : starts[0];
    }

    /** The end of the last symbol by start, or 0 for an empty table. */
    public long lastEnd() {
        return ends.length == 0 ? 0 : ends[ends.length - 1];
    }

    /** Every symbol in address order (a lazily named table names them all). */
    public List<Symbol> symbols() {
        Symbol[] all = new Symbol[starts.length];
        for (int i = 0; i < all.length; i++) {
            all[i] = symbol(i);
        }
        return List.of(all);
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

    /**
     * Positions {@code 0..n-1} ordered by unsigned {@code keys[position]}, equal keys in position
     * order (a stable merge sort over primitives: no boxing, no comparator calls).
     */
    static int[] stableOrder(long[] keys, int n) {
        int[] a = new int[n];
        boolean sorted = true;
        for (int i = 0; i < n; i++) {
            a[i] = i;
            if (i > 0 && Long.compareUnsigned(keys[i - 1], keys[i]) > 0) {
                sorted = false;
            }
        }
        if (sorted) {
            return a;
        }
        int[] b = new int[n];
        for (int width = 1; width < n; width <<= 1) {
            for (int lo = 0; lo < n; lo += width << 1) {
                int mid = Math.min(lo + width, n);
                int hi = Math.min(lo + (width << 1), n);
                int i = lo;
                int j = mid;
                int k = lo;
                while (i < mid && j < hi) {
                    b[k++] = Long.compareUnsigned(keys[a[j]], keys[a[i]]) < 0 ? a[j++] : a[i++];
                }
                while (i < mid) {
                    b[k++] = a[i++];
                }
                while (j < hi) {
                    b[k++] = a[j++];
                }
            }
            int[] t = a;
            a = b;
            b = t;
        }
        return a;
    }

    @Override
    public String toString() {
        return "SymbolTable[" + starts.length + " symbols" + (names != null ? ", named lazily" : "") + "]";
    }
}
