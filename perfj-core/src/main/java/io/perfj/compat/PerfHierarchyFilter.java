package io.perfj.compat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Predicate;

/**
 * perf 6.1's {@code --symbol-filter} in the {@code --hierarchy} view. perf builds each level's
 * row from the first entry of its input tree that has the row's values ({@code
 * hierarchy_insert_entry}, walking the input tree in order) and tests the filter on that entry's
 * symbol alone, when it makes the row ({@code hists__apply_filters} from
 * {@code hist_entry__apply_hierarchy_filters}). A row keeps the period of all its entries,
 * filtered or not; a row the filter marks is not printed, but the rows under it are, each as its
 * own entry says ({@code hists__fprintf} walks every child). So a level can be missing above
 * rows that are printed, and a row be printed with no row under it ({@code no entry >= 0.00%}).
 * The total the percentages of {@code --percentage relative} are of is the period of the
 * first level's rows that are printed ({@code hierarchy_recalc_total_periods}).
 *
 * @param <E> an entry of the report
 */
public final class PerfHierarchyFilter<E> {
    /** Each level's row, by the values of the levels down to it, and the entry that made it. */
    private final Map<List<Object>, E> makers = new HashMap<>();
    private final BiFunction<E, Integer, Object> value;
    private final Predicate<E> matches;
    private final int levels;

    /**
     * @param input   the entries in perf's input tree order (after collapsing, the ones left)
     * @param levels  how many levels of sort keys the hierarchy has
     * @param value   an entry's value at a level
     * @param matches whether an entry's symbol passes the filter
     */
    public PerfHierarchyFilter(List<E> input, int levels, BiFunction<E, Integer, Object> value, Predicate<E> matches) {
        this.value = value;
        this.matches = matches;
        this.levels = levels;
        for (E e : input) {
            List<Object> path = new ArrayList<>(levels);
            for (int d = 0; d < levels; d++) {
                path.add(value.apply(e, d));
                makers.putIfAbsent(List.copyOf(path), e);
            }
        }
    }

    /** The entry that made the row of level {@code depth} that {@code e} is counted in. */
    private E maker(E e, int depth) {
        List<Object> path = new ArrayList<>(depth + 1);
        for (int d = 0; d <= Math.min(depth, levels - 1); d++) {
            path.add(value.apply(e, d));
        }
        E m = makers.get(path);
        return m != null ? m : e;
    }

    /** Whether the filter hides the row of level {@code depth} that {@code e} is counted in. */
    public boolean hides(E e, int depth) {
        return !matches.test(maker(e, depth));
    }

    /**
     * The entries whose values size the columns: the makers of the rows the filter leaves
     * (perf's {@code hists__calc_col_len} of each such row, a copy of its maker), first level first.
     */
    public List<E> sizing() {
        List<E> out = new ArrayList<>();
        java.util.Set<E> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (E m : makers.values()) {
            if (matches.test(m) && seen.add(m)) {
                out.add(m);
            }
        }
        return out;
    }
}
