package io.perfj.report;

import io.perfj.util.KernelRbTree;

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
 */
final class PerfHistTree {
    /** perf's {@code hist_entry__cmp(left, right)}: negative goes left. */
    interface Cmp {
        long cmp(HistEntry left, HistEntry right);
    }

    private final Cmp cmp;
    private final KernelRbTree<HistEntry> tree = new KernelRbTree<>();

    PerfHistTree(Cmp cmp) {
        this.cmp = cmp;
    }

    /**
     * The entry the search for {@code probe} stops at ({@code cmp(node, probe) == 0}), or, when
     * there is none, {@code probe} itself after inserting it where the search ended.
     */
    HistEntry findOrInsert(HistEntry probe) {
        return tree.findOrInsert(probe, cmp::cmp);
    }

    /**
     * Inserts {@code e} as perf's {@code __hists__insert_output_entry} does: left of a node when
     * {@code cmp(node, e) < 0}, otherwise right, so an entry equal to ones already there goes
     * after them. Nothing is merged.
     */
    void insert(HistEntry e) {
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

    int size() {
        return tree.size();
    }

    /** The entries in tree order (perf's rb_first / rb_next walk). */
    List<HistEntry> inOrder() {
        return tree.values();
    }
}
