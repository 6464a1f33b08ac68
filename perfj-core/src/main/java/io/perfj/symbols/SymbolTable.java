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

    private SymbolTable(List<Symbol> sorted) {
        this.symbols = sorted.toArray(new Symbol[0]);
        this.starts = new long[symbols.length];
        for (int i = 0; i < symbols.length; i++) {
            starts[i] = symbols[i].start();
        }
    }

    /** Sorts, removes duplicates and fixes zero sizes as perf does, then indexes. */
    public static SymbolTable of(List<Symbol> symbols) {
        return new SymbolTable(SymbolFixups.apply(symbols));
    }

    /** Indexes symbols that are already clean and sorted by start (unsigned). */
    public static SymbolTable ofSorted(List<Symbol> sorted) {
        return new SymbolTable(sorted);
    }

    /** The symbol containing {@code addr}, or null. */
    public Symbol find(long addr) {
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
        return s.contains(addr) || s.start() == addr ? s : null;
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

    static List<Symbol> sortedCopy(List<Symbol> in) {
        List<Symbol> l = new ArrayList<>(in);
        l.sort(Comparator.comparing(Symbol::start, Long::compareUnsigned));
        return l;
    }
}
