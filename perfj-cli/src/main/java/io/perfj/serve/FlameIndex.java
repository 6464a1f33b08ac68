package io.perfj.serve;

import io.perfj.profile.FlameTree;

import java.util.Arrays;

/**
 * A {@link FlameTree} made ready for queries: every node's children (in one array, by parent)
 * and its function as a {@link Recording}'s stable id (for a tree of two recordings, the tree's
 * own function index).
 */
final class FlameIndex {
    final FlameTree tree;
    private final int[] childStart;
    private final int[] childList;
    private final int[] fn;

    FlameIndex(FlameTree tree, Recording names) {
        this.tree = tree;
        int n = tree.size();
        childStart = new int[n + 1];
        for (int i = 1; i < n; i++) {
            childStart[tree.parent(i) + 1]++;
        }
        for (int i = 0; i < n; i++) {
            childStart[i + 1] += childStart[i];
        }
        childList = new int[Math.max(0, n - 1)];
        int[] fill = Arrays.copyOf(childStart, n);
        for (int i = 1; i < n; i++) {
            childList[fill[tree.parent(i)]++] = i;
        }
        int[] byTreeFunction = new int[tree.functionCount()];
        for (int f = 0; f < byTreeFunction.length; f++) {
            byTreeFunction[f] = names == null ? f : names.functionId(tree.functionAt(f));
        }
        fn = new int[n];
        fn[0] = -1;
        for (int i = 1; i < n; i++) {
            fn[i] = byTreeFunction[tree.functionIndex(i)];
        }
    }

    int size() {
        return tree.size();
    }

    /** The node's function id (-1 for the root). */
    int fn(int node) {
        return fn[node];
    }

    int childCount(int node) {
        return childStart[node + 1] - childStart[node];
    }

    int child(int node, int i) {
        return childList[childStart[node] + i];
    }

    /** The node's children in flamegraph.pl's order (by function name). */
    int[] childrenByName(int node) {
        return children(node, (a, b) -> {
            int k = tree.function(a).name().compareTo(tree.function(b).name());
            return k != 0 ? k : Integer.compare(a, b);
        });
    }

    /** The node's children, heaviest first (the call tree's order). */
    int[] childrenByTotal(int node) {
        return children(node, (a, b) -> {
            int k = Long.compare(Math.max(tree.total(b), tree.total2(b)), Math.max(tree.total(a), tree.total2(a)));
            return k != 0 ? k : Integer.compare(a, b);
        });
    }

    private int[] children(int node, java.util.Comparator<Integer> order) {
        int[] c = Arrays.copyOfRange(childList, childStart[node], childStart[node + 1]);
        if (c.length > 1) {
            Integer[] boxed = new Integer[c.length];
            for (int i = 0; i < c.length; i++) {
                boxed[i] = c[i];
            }
            Arrays.sort(boxed, order);
            for (int i = 0; i < c.length; i++) {
                c[i] = boxed[i];
            }
        }
        return c;
    }
}
