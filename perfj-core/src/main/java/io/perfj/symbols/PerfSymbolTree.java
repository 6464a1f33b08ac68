package io.perfj.symbols;

import java.util.ArrayList;
import java.util.List;

/**
 * The shape of perf's per-DSO symbol rb-tree, replayed so that lookups among overlapping symbols
 * give perf's answer.
 *
 * <p>perf 6.1 keeps a DSO's symbols in a Linux red-black tree keyed by start address (an equal
 * start goes right, {@code __symbols__insert}). {@code dso__load} first inserts the ELF symbols in
 * symbol-table order ({@code dso__load_sym}), runs {@code symbols__fixup_end} and
 * {@code symbols__fixup_duplicate} (which erases nodes), and only then inserts the synthesized
 * {@code name@plt} symbols ({@code dso__synthesize_plt_symbols}). A zero-sized symbol in front of
 * .plt, typically {@code _init} in .init, has by then been stretched up to the next ELF symbol, so
 * it overlaps the PLT entries. {@code symbols__find} walks down from the root and returns the
 * first node whose range holds the address, so which of two overlapping symbols wins depends on
 * which is the ancestor of the other. This class rebuilds the tree with the insertion and erase
 * rebalancing of the kernel's lib/rbtree.c and answers lookups by the same walk.
 */
final class PerfSymbolTree {
    private static final class Node {
        Symbol sym;
        Node left;
        Node right;
        Node parent;
        boolean red;

        Node(Symbol sym) {
            this.sym = sym;
        }
    }

    private Node root;

    /** {@code __symbols__insert}: descend by start (unsigned), equal starts to the right. */
    void insert(Symbol sym) {
        Node n = new Node(sym);
        Node p = null;
        Node cur = root;
        boolean left = false;
        while (cur != null) {
            p = cur;
            left = Long.compareUnsigned(sym.start(), cur.sym.start()) < 0;
            cur = left ? cur.left : cur.right;
        }
        n.parent = p;
        n.red = true;
        if (p == null) {
            root = n;
        } else if (left) {
            p.left = n;
        } else {
            p.right = n;
        }
        insertColor(n);
    }

    /** The nodes in address order (the tree's in-order walk). */
    private List<Node> nodes() {
        List<Node> out = new ArrayList<>();
        Node n = first(root);
        while (n != null) {
            out.add(n);
            n = next(n);
        }
        return out;
    }

    /** The symbols in address order. */
    List<Symbol> symbols() {
        List<Node> ns = nodes();
        List<Symbol> out = new ArrayList<>(ns.size());
        for (Node n : ns) {
            out.add(n.sym);
        }
        return out;
    }

    /** {@code symbols__fixup_end} then {@code symbols__fixup_duplicate} on the tree's nodes. */
    void fixup() {
        List<Node> ns = nodes();
        List<Symbol> syms = new ArrayList<>(ns.size());
        for (Node n : ns) {
            syms.add(n.sym);
        }
        SymbolFixups.fixupEnd(syms, false);
        for (int i = 0; i < ns.size(); i++) {
            ns.get(i).sym = syms.get(i);
        }
        Node curr = first(root);
        while (curr != null) {
            Node nx = next(curr);
            if (nx == null) {
                break;
            }
            if (nx.sym.start() != curr.sym.start()) {
                curr = nx;
                continue;
            }
            if (SymbolFixups.better(nx.sym, curr.sym)) {
                erase(curr);
                curr = nx;
            } else {
                erase(nx);
            }
        }
    }

    /**
     * Lookups in perf's order, as arrays indexed by position in {@link #symbols()}: the root's
     * position and each position's left and right child (-1 for none).
     */
    int[][] shape() {
        List<Node> ns = nodes();
        java.util.IdentityHashMap<Node, Integer> pos = new java.util.IdentityHashMap<>();
        for (int i = 0; i < ns.size(); i++) {
            pos.put(ns.get(i), i);
        }
        int[] l = new int[ns.size()];
        int[] r = new int[ns.size()];
        for (int i = 0; i < ns.size(); i++) {
            Node n = ns.get(i);
            l[i] = n.left == null ? -1 : pos.get(n.left);
            r[i] = n.right == null ? -1 : pos.get(n.right);
        }
        return new int[][] {{root == null ? -1 : pos.get(root)}, l, r};
    }

    private static Node first(Node n) {
        if (n == null) {
            return null;
        }
        while (n.left != null) {
            n = n.left;
        }
        return n;
    }

    private static Node next(Node n) {
        if (n.right != null) {
            return first(n.right);
        }
        Node p = n.parent;
        while (p != null && n == p.right) {
            n = p;
            p = p.parent;
        }
        return p;
    }

    private static boolean isRed(Node n) {
        return n != null && n.red;
    }

    private void changeChild(Node old, Node nw, Node parent) {
        if (parent == null) {
            root = nw;
        } else if (parent.left == old) {
            parent.left = nw;
        } else {
            parent.right = nw;
        }
    }

    /** {@code old} hands its parent and colour to {@code nw}, then becomes its child with {@code red}. */
    private void rotateSetParents(Node old, Node nw, boolean red) {
        Node parent = old.parent;
        nw.parent = parent;
        nw.red = old.red;
        old.parent = nw;
        old.red = red;
        changeChild(old, nw, parent);
    }

    /** lib/rbtree.c's insert rebalancing. */
    private void insertColor(Node node) {
        Node parent = node.parent;
        while (true) {
            if (parent == null) {
                node.parent = null;
                node.red = false;
                break;
            }
            if (!parent.red) {
                break;
            }
            Node gparent = parent.parent;
            Node tmp = gparent.right;
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
    private void erase(Node node) {
        Node child = node.right;
        Node tmp = node.left;
        Node parent;
        Node rebalance;
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
            Node successor = child;
            Node child2;
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
            Node np = node.parent;
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
        if (rebalance != null) {
            eraseColor(rebalance);
        }
    }

    /** lib/rbtree.c's erase rebalancing, starting at the parent of the removed black leaf. */
    private void eraseColor(Node parent) {
        Node node = null;
        Node sibling;
        Node tmp1;
        Node tmp2;
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
    }
}
