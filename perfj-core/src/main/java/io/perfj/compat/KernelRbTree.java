package io.perfj.compat;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.function.BiPredicate;
import java.util.function.ToLongBiFunction;

/**
 * A red-black tree with the insertion and erase rebalancing of the Linux kernel's lib/rbtree.c,
 * for replaying the shape of perf's trees: perf's comparisons are not always total orders, and
 * where a search stops (which node it meets, which of two overlapping ranges is the ancestor)
 * depends on the shape, which depends on the order of insertions and erases. The caller decides
 * where each value descends; the tree keeps the kernel's rebalancing steps.
 *
 * <p>Mirrors: the kernel's lib/rbtree.c as perf 6.1 carries it (tools/lib/rbtree.c):
 * {@code rb_insert_color} ({@code __rb_insert}), {@code rb_erase} ({@code __rb_erase_augmented},
 * {@code ____rb_erase_color}), {@code rb_first} and {@code rb_next}.
 */
public final class KernelRbTree<T> {
    /** A node; its value may be replaced in place (the shape stays). */
    public static final class Node<T> {
        T value;
        Node<T> left;
        Node<T> right;
        Node<T> parent;
        boolean red;

        Node(T value) {
            this.value = value;
        }

        public T value() {
            return value;
        }

        public void value(T v) {
            value = v;
        }
    }

    private Node<T> root;
    private int size;

    /** Inserts {@code v}, descending left of a node when {@code goesLeft(node value, v)}, else right. */
    public Node<T> insert(T v, BiPredicate<T, T> goesLeft) {
        Node<T> p = null;
        Node<T> cur = root;
        boolean left = false;
        while (cur != null) {
            p = cur;
            left = goesLeft.test(cur.value, v);
            cur = left ? cur.left : cur.right;
        }
        return link(v, p, left);
    }

    /**
     * The value the search for {@code probe} stops at ({@code cmp(node value, probe) == 0}, left
     * when negative), or, when there is none, {@code probe} itself after inserting it there.
     */
    public T findOrInsert(T probe, ToLongBiFunction<T, T> cmp) {
        Node<T> p = null;
        Node<T> cur = root;
        boolean left = false;
        while (cur != null) {
            long c = cmp.applyAsLong(cur.value, probe);
            if (c == 0) {
                return cur.value;
            }
            p = cur;
            left = c < 0;
            cur = left ? cur.left : cur.right;
        }
        link(probe, p, left);
        return probe;
    }

    /** The value the search for {@code probe} stops at, as {@link #findOrInsert}, or null. */
    public T find(T probe, ToLongBiFunction<T, T> cmp) {
        Node<T> cur = root;
        while (cur != null) {
            long c = cmp.applyAsLong(cur.value, probe);
            if (c == 0) {
                return cur.value;
            }
            cur = c < 0 ? cur.left : cur.right;
        }
        return null;
    }

    private Node<T> link(T v, Node<T> p, boolean left) {
        Node<T> n = new Node<>(v);
        n.parent = p;
        n.red = true;
        if (p == null) {
            root = n;
        } else if (left) {
            p.left = n;
        } else {
            p.right = n;
        }
        size++;
        insertColor(n);
        return n;
    }

    public int size() {
        return size;
    }

    /** The first node in tree order, or null. */
    public Node<T> first() {
        return first(root);
    }

    /** The node after {@code n} in tree order ({@code rb_next}), or null. */
    public Node<T> next(Node<T> n) {
        if (n.right != null) {
            return first(n.right);
        }
        Node<T> p = n.parent;
        while (p != null && n == p.right) {
            n = p;
            p = p.parent;
        }
        return p;
    }

    private static <T> Node<T> first(Node<T> n) {
        if (n == null) {
            return null;
        }
        while (n.left != null) {
            n = n.left;
        }
        return n;
    }

    /** The nodes in tree order. */
    public List<Node<T>> nodes() {
        List<Node<T>> out = new ArrayList<>(size);
        for (Node<T> n = first(); n != null; n = next(n)) {
            out.add(n);
        }
        return out;
    }

    /** The values in tree order ({@code rb_first} / {@code rb_next}). */
    public List<T> values() {
        List<T> out = new ArrayList<>(size);
        for (Node<T> n = first(); n != null; n = next(n)) {
            out.add(n.value);
        }
        return out;
    }

    /**
     * The shape as arrays indexed by tree-order position: the root's position and each
     * position's left and right child (-1 for none).
     */
    public int[][] shape() {
        List<Node<T>> ns = nodes();
        IdentityHashMap<Node<T>, Integer> pos = new IdentityHashMap<>();
        for (int i = 0; i < ns.size(); i++) {
            pos.put(ns.get(i), i);
        }
        int[] l = new int[ns.size()];
        int[] r = new int[ns.size()];
        for (int i = 0; i < ns.size(); i++) {
            Node<T> n = ns.get(i);
            l[i] = n.left == null ? -1 : pos.get(n.left);
            r[i] = n.right == null ? -1 : pos.get(n.right);
        }
        return new int[][] {{root == null ? -1 : pos.get(root)}, l, r};
    }

    /**
     * Checks the red-black invariants (black root, no red node with a red child, the same number
     * of black nodes on every path, parent links); returns the black height. For tests.
     */
    public int checkInvariants() {
        if (root != null && (root.red || root.parent != null)) {
            throw new IllegalStateException("root");
        }
        return blackHeight(root);
    }

    private static int blackHeight(Node<?> n) {
        if (n == null) {
            return 1;
        }
        checkChild(n, n.left);
        checkChild(n, n.right);
        int l = blackHeight(n.left);
        if (l != blackHeight(n.right)) {
            throw new IllegalStateException("black height at " + n.value);
        }
        return l + (n.red ? 0 : 1);
    }

    private static void checkChild(Node<?> n, Node<?> c) {
        if (c != null && (c.parent != n || n.red && c.red)) {
            throw new IllegalStateException("links or colours at " + n.value);
        }
    }

    /** The depth of the deepest node (1 for a single node). For tests. */
    public int height() {
        return height(root);
    }

    private static int height(Node<?> n) {
        return n == null ? 0 : 1 + Math.max(height(n.left), height(n.right));
    }

    private static boolean isRed(Node<?> n) {
        return n != null && n.red;
    }

    private void changeChild(Node<T> old, Node<T> nw, Node<T> parent) {
        if (parent == null) {
            root = nw;
        } else if (parent.left == old) {
            parent.left = nw;
        } else {
            parent.right = nw;
        }
    }

    /** {@code old} hands its parent and colour to {@code nw}, then becomes its child with {@code red}. */
    private void rotateSetParents(Node<T> old, Node<T> nw, boolean red) {
        Node<T> parent = old.parent;
        nw.parent = parent;
        nw.red = old.red;
        old.parent = nw;
        old.red = red;
        changeChild(old, nw, parent);
    }

    /** lib/rbtree.c's insert rebalancing. */
    private void insertColor(Node<T> node) {
        Node<T> parent = node.parent;
        while (true) {
            if (parent == null) {
                node.parent = null;
                node.red = false;
                break;
            }
            if (!parent.red) {
                break;
            }
            Node<T> gparent = parent.parent;
            Node<T> tmp = gparent.right;
            if (parent != tmp) {
                if (isRed(tmp)) {
                    tmp.red = false;
                    parent.red = false;
                    node = gparent;
                    parent = node.parent;
                    node.red = true;
                    continue;
                }
                tmp = parent.right;
                if (node == tmp) {
                    tmp = node.left;
                    parent.right = tmp;
                    node.left = parent;
                    if (tmp != null) {
                        tmp.parent = parent;
                        tmp.red = false;
                    }
                    parent.parent = node;
                    parent.red = true;
                    parent = node;
                    tmp = node.right;
                }
                gparent.left = tmp;
                parent.right = gparent;
                if (tmp != null) {
                    tmp.parent = gparent;
                    tmp.red = false;
                }
                rotateSetParents(gparent, parent, true);
                break;
            } else {
                tmp = gparent.left;
                if (isRed(tmp)) {
                    tmp.red = false;
                    parent.red = false;
                    node = gparent;
                    parent = node.parent;
                    node.red = true;
                    continue;
                }
                tmp = parent.left;
                if (node == tmp) {
                    tmp = node.right;
                    parent.left = tmp;
                    node.right = parent;
                    if (tmp != null) {
                        tmp.parent = parent;
                        tmp.red = false;
                    }
                    parent.parent = node;
                    parent.red = true;
                    parent = node;
                    tmp = node.left;
                }
                gparent.right = tmp;
                parent.left = gparent;
                if (tmp != null) {
                    tmp.parent = gparent;
                    tmp.red = false;
                }
                rotateSetParents(gparent, parent, true);
                break;
            }
        }
    }

    /** lib/rbtree.c's erase: unlink (successor takes a two-child node's place), then rebalance. */
    public void erase(Node<T> node) {
        Node<T> child = node.right;
        Node<T> tmp = node.left;
        Node<T> parent;
        Node<T> rebalance;
        if (tmp == null) {
            parent = node.parent;
            changeChild(node, child, parent);
            if (child != null) {
                child.parent = parent;
                child.red = node.red;
                rebalance = null;
            } else {
                rebalance = node.red ? null : parent;
            }
        } else if (child == null) {
            parent = node.parent;
            tmp.parent = parent;
            tmp.red = node.red;
            changeChild(node, tmp, parent);
            rebalance = null;
        } else {
            Node<T> successor = child;
            Node<T> child2;
            tmp = child.left;
            if (tmp == null) {
                parent = successor;
                child2 = successor.right;
            } else {
                do {
                    parent = successor;
                    successor = tmp;
                    tmp = tmp.left;
                } while (tmp != null);
                child2 = successor.right;
                parent.left = child2;
                successor.right = child;
                child.parent = successor;
            }
            tmp = node.left;
            successor.left = tmp;
            tmp.parent = successor;
            Node<T> np = node.parent;
            changeChild(node, successor, np);
            if (child2 != null) {
                child2.parent = parent;
                child2.red = false;
                rebalance = null;
            } else {
                rebalance = successor.red ? null : parent;
            }
            successor.parent = np;
            successor.red = node.red;
        }
        node.left = node.right = node.parent = null;
        size--;
        if (rebalance != null) {
            eraseColor(rebalance);
        }
    }

    /** lib/rbtree.c's erase rebalancing, starting at the parent of the removed black leaf. */
    private void eraseColor(Node<T> parent) {
        Node<T> node = null;
        Node<T> sibling;
        Node<T> tmp1;
        Node<T> tmp2;
        while (true) {
            sibling = parent.right;
            if (node != sibling) {
                if (isRed(sibling)) {
                    tmp1 = sibling.left;
                    parent.right = tmp1;
                    sibling.left = parent;
                    tmp1.parent = parent;
                    tmp1.red = false;
                    rotateSetParents(parent, sibling, true);
                    sibling = tmp1;
                }
                tmp1 = sibling.right;
                if (!isRed(tmp1)) {
                    tmp2 = sibling.left;
                    if (!isRed(tmp2)) {
                        sibling.red = true;
                        if (parent.red) {
                            parent.red = false;
                        } else {
                            node = parent;
                            parent = node.parent;
                            if (parent != null) {
                                continue;
                            }
                        }
                        break;
                    }
                    tmp1 = tmp2.right;
                    sibling.left = tmp1;
                    tmp2.right = sibling;
                    parent.right = tmp2;
                    if (tmp1 != null) {
                        tmp1.parent = sibling;
                        tmp1.red = false;
                    }
                    tmp1 = sibling;
                    sibling = tmp2;
                }
                tmp2 = sibling.left;
                parent.right = tmp2;
                sibling.left = parent;
                tmp1.parent = sibling;
                tmp1.red = false;
                if (tmp2 != null) {
                    tmp2.parent = parent;
                }
                rotateSetParents(parent, sibling, false);
                break;
            } else {
                sibling = parent.left;
                if (isRed(sibling)) {
                    tmp1 = sibling.right;
                    parent.left = tmp1;
                    sibling.right = parent;
                    tmp1.parent = parent;
                    tmp1.red = false;
                    rotateSetParents(parent, sibling, true);
                    sibling = tmp1;
                }
                tmp1 = sibling.left;
                if (!isRed(tmp1)) {
                    tmp2 = sibling.right;
                    if (!isRed(tmp2)) {
                        sibling.red = true;
                        if (parent.red) {
                            parent.red = false;
                        } else {
                            node = parent;
                            parent = node.parent;
                            if (parent != null) {
                                continue;
                            }
                        }
                        break;
                    }
                    tmp1 = tmp2.left;
                    sibling.right = tmp1;
                    tmp2.left = sibling;
                    parent.left = tmp2;
                    if (tmp1 != null) {
                        tmp1.parent = sibling;
                        tmp1.red = false;
                    }
                    tmp1 = sibling;
                    sibling = tmp2;
                }
                tmp2 = sibling.right;
                parent.left = tmp2;
                sibling.right = parent;
                tmp1.parent = sibling;
                tmp1.red = false;
                if (tmp2 != null) {
                    tmp2.parent = parent;
                }
                rotateSetParents(parent, sibling, false);
                break;
            }
        }
    }}
