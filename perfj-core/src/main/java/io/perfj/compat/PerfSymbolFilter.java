package io.perfj.compat;

/**
 * Where perf 6.1 (and 7.2) applies report's {@code --symbol-filter}: only to the entries its
 * collapse step inserts ({@code hists__collapse_resort} calls {@code hists__apply_filters} for
 * each entry it does not merge), and that step runs only when a sort key needs collapsing
 * ({@code hists__has(hists, need_collapse)}: the comm key here) or in the hierarchy view. With
 * other sort keys ({@code -s sym}, {@code -s dso,sym}) the filter is silently ignored. The test
 * is the entry's symbol's name containing the text, whatever the sort keys (an entry without a
 * symbol key is tested on the symbol of the sample that made it).
 */
public final class PerfSymbolFilter {
    private PerfSymbolFilter() {
    }

    /** Whether perf filters the entries at all, given whether comm is a sort key and --hierarchy. */
    public static boolean applies(boolean commKey, boolean hierarchy) {
        return commKey || hierarchy;
    }
}
