package io.perfj.report;

import java.util.ArrayList;
import java.util.List;

/**
 * A red-black tree of hist entries searched with perf's own entry comparison, built by the same
 * insertion and recolouring steps as the kernel's rbtree (lib/rbtree.c, the textbook algorithm).
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

    private static final class Node {
        final HistEntry e;
        Node left;
        Node right;
        Node parent;
        boolean red = true;

        Node(HistEntry e) {
            this.e = e;
        }
    }

    private final Cmp cmp;
    private Node root;
    private int size;

    PerfHistTree(Cmp cmp) {
        this.cmp = cmp;
    }

    /**
     * The entry the search for {@code probe} stops at ({@code cmp(node, probe) == 0}), or, when
     * there is none, {@code probe} itself after inserting it where the search ended.
     */
    HistEntry findOrInsert(HistEntry probe) {
        Node parent = null;
        Node n = root;
        boolean left = false;
        while (n != null) {
            long c = cmp.cmp(n.e, probe);
            if (c == 0) {
                return n.e;
            }
            parent = n;
            left = c < 0;
            n = left ? n.left : n.right;
        }
        Node x = new Node(probe);
        x.parent = parent;
        if (parent == null) {
            root = x;
        } else if (left) {
            parent.left = x;
        } else {
            parent.right = x;
        }
        size++;
        fixAfterInsert(x);
        return probe;
    }

    /**
     * Inserts {@code e} as perf's {@code __hists__insert_output_entry} does: left of a node when
     * {@code cmp(node, e) < 0}, otherwise right, so an entry equal to ones already there goes
     * after them. Nothing is merged.
     */
    void insert(HistEntry e) {
        Node parent = null;
        Node n = root;
        boolean left = false;
        while (n != null) {
            parent = n;
            left = cmp.cmp(n.e, e) < 0;
            n = left ? n.left : n.right;
        }
        Node x = new Node(e);
        x.parent = parent;
        if (parent == null) {
            root = x;
        } else if (left) {
            parent.left = x;
        } else {
            parent.right = x;
        }
        size++;
        fixAfterInsert(x);
    }

    /**
     * Checks the red-black invariants (black root, no red node with a red child, the same number
     * of black nodes on every path, parent links); returns the black height. For tests.
     */
    int checkInvariants() {
        if (root != null && (root.red || root.parent != null)) {
            throw new IllegalStateException("root");
        }
        return blackHeight(root);
    }

    private static int blackHeight(Node n) {
        if (n == null) {
            return 1;
        }
        for (Node c : new Node[] {n.left, n.right}) {
            if (c != null && (c.parent != n || n.red && c.red)) {
                throw new IllegalStateException("links or colours at " + n.e);
            }
        }
        int l = blackHeight(n.left);
        if (l != blackHeight(n.right)) {
            throw new IllegalStateException("black height at " + n.e);
        }
        return l + (n.red ? 0 : 1);
    }

    /** The depth of the deepest node (1 for a single node). For tests. */
    int height() {
        return height(root);
    }

    private static int height(Node n) {
        return n == null ? 0 : 1 + Math.max(height(n.left), height(n.right));
    }

    int size() {
        return size;
    }

    /** The entries in tree order (perf's rb_first / rb_next walk). */
    List<HistEntry> inOrder() {
        List<HistEntry> out = new ArrayList<>(size);
        Node n = root;
        java.util.ArrayDeque<Node> stack = new java.util.ArrayDeque<>();
        while (n != null || !stack.isEmpty()) {
            while (n != null) {
                stack.push(n);
                n = n.left;
            }
            n = stack.pop();
            out.add(n.e);
            n = n.right;
        }
        return out;
    }

    private static boolean isRed(Node n) {
        return n != null && n.red;
    }

    private void fixAfterInsert(Node node) {
        while (true) {
            Node parent = node.parent;
            if (parent == null) {
                node.red = false;
                return;
            }
            if (!parent.red) {
                return;
            }
            Node g = parent.parent;
            if (parent == g.left) {
                Node uncle = g.right;
                if (isRed(uncle)) {
                    uncle.red = false;
                    parent.red = false;
                    g.red = true;
                    node = g;
                    continue;
                }
                if (node == parent.right) {
                    rotateLeft(parent);
                    parent = node;
                }
                rotateRight(g);
                parent.red = false;
                g.red = true;
                return;
            } else {
                Node uncle = g.left;
                if (isRed(uncle)) {
                    uncle.red = false;
                    parent.red = false;
                    g.red = true;
                    node = g;
                    continue;
                }
                if (node == parent.left) {
                    rotateRight(parent);
                    parent = node;
                }
                rotateLeft(g);
                parent.red = false;
                g.red = true;
                return;
            }
        }
    }

    private void rotateLeft(Node x) {
        Node y = x.right;
        x.right = y.left;
        if (y.left != null) {
            y.left.parent = x;
        }
        replace(x, y);
        y.left = x;
        x.parent = y;
    }

    private void rotateRight(Node x) {
        Node y = x.left;
        x.left = y.right;
        if (y.right != null) {
            y.right.parent = x;
        }
        replace(x, y);
        y.right = x;
        x.parent = y;
    }

    /** Puts {@code y} where {@code x} hangs from its parent. */
    private void replace(Node x, Node y) {
        Node p = x.parent;
        y.parent = p;
        if (p == null) {
            root = y;
        } else if (p.left == x) {
            p.left = y;
        } else {
            p.right = y;
        }
    }
}
