package io.perfj.compat;

import java.util.List;

/**
 * A red-black tree of hist entries searched with perf's own entry comparison, rebalanced as the
 * kernel's rbtree ({@link KernelRbTree}).
 *
 * <p>Why not a hash map: perf compares an inlined symbol with another symbol by name first and
 * treats two overlapping address ranges of the same name as equal, so its comparison is no total
 * order. Which existing entry a new one meets (and so whether it joins one or becomes a row of
 * its own) depends on the path the search takes, which depends on the tree's shape, which depends
 * on the order entries were inserted. Reproducing perf's rows means walking the same path.
 *
 * <p>Mirrors: perf 6.1's {@code hists__findnew_entry} (the search of {@code hists->entries_in}),
 * {@code hists__collapse_insert_entry}, {@code hists__find_entry}, {@code hists__add_dummy_entry}
 * and {@code __hists__insert_output_entry}
 * (tools/perf/util/hist.c).
 *
 * @param <T> the entry type
 */
public final class PerfHistTree<T> {
    /** perf's {@code hist_entry__cmp(left, right)}: negative goes left. */
    public interface Cmp<T> {
        long cmp(T left, T right);
    }

    private final Cmp<T> cmp;
    private final KernelRbTree<T> tree = new KernelRbTree<>();

    public PerfHistTree(Cmp<T> cmp) {
        this.cmp = cmp;
    }

    /**
     * The entry the search for {@code probe} stops at ({@code cmp(node, probe) == 0}), or, when
     * there is none, {@code probe} itself after inserting it where the search ended.
     */
    public T findOrInsert(T probe) {
        return tree.findOrInsert(probe, cmp::cmp);
    }

    /**
     * The entry the search for {@code probe} stops at ({@code cmp(node, probe) == 0}), or null:
     * perf's {@code hists__find_entry}, which matches an event group member's rows to its
     * leader's.
     */
    public T find(T probe) {
        return tree.find(probe, cmp::cmp);
    }

    /**
     * Inserts {@code e} as perf's {@code __hists__insert_output_entry} does: left of a node when
     * {@code cmp(node, e) < 0}, otherwise right, so an entry equal to ones already there goes
     * after them. Nothing is merged.
     */
    public void insert(T e) {
        tree.insert(e, (node, x) -> cmp.cmp(node, x) < 0);
    }

    /** See {@link KernelRbTree#checkInvariants()}. For tests. */
    int checkInvariants() {
        return tree.checkInvariants();
    }

    /** The depth of the deepest node (1 for a single node). For tests. */
    int height() {
        return tree.height();
    }

    public int size() {
        return tree.size();
    }

    /** The entries in tree order (perf's rb_first / rb_next walk). */
    public List<T> inOrder() {
        return tree.values();
    }
}
