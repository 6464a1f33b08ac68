package io.perfj.serve;

import io.perfj.profile.FlameTree;

import java.util.BitSet;
import java.util.Locale;

/**
 * The answers read off one flame tree: the graph below a node pruned to the nodes above a
 * minimum share of it (and the share left out), the matches of a search, and one level of the
 * call tree. Functions are named in a table of the ids the answer uses.
 */
final class FlameView {
    /** A node cap: a browser lays out a few tens of thousands of boxes quickly, not millions. */
    static final int MAX_NODES = 40_000;

    private final FlameIndex index;
    private final Names names;

    /** How a view names a function id (the recording's stable ids, or a tree of two's own). */
    interface Names {
        FlameTree.Function function(int id);

        /** The function's source position as {@code file:line}, or null; asked only when {@link #sources}. */
        default String source(int id) {
            return null;
        }

        /** Whether the {@code fns} table carries each function's source position (a fifth column). */
        default boolean sources() {
            return false;
        }
    }

    FlameView(FlameIndex index, Names names) {
        this.index = index;
        this.names = names;
    }

    private long weight(int node) {
        FlameTree t = index.tree;
        return t.paired() ? Math.max(t.total(node), t.total2(node)) : t.total(node);
    }

    /** The graph below {@code root}: nodes in depth-first order, children by name. */
    void flame(JsonOut out, int root, double minShare) {
        FlameTree t = index.tree;
        if (root < 0 || root >= index.size()) {
            throw new BadRequest("root: no such node");
        }
        long threshold = Math.max(1, (long) Math.ceil(weight(root) * minShare));
        int cap = 64;
        int[] ids = new int[cap];
        int[] parents = new int[cap];
        int count = 0;
        long pruned = 0;
        // explicit stack of (node, index of its parent in the output)
        int[] stack = new int[128];
        int sp = 0;
        stack[sp++] = root;
        stack[sp++] = -1;
        BitSet used = new BitSet();
        while (sp > 0) {
            int parentOut = stack[--sp];
            int node = stack[--sp];
            if (count == MAX_NODES) {
                pruned += weight(node);
                continue;
            }
            if (count == ids.length) {
                ids = java.util.Arrays.copyOf(ids, count * 2);
                parents = java.util.Arrays.copyOf(parents, count * 2);
            }
            ids[count] = node;
            parents[count] = parentOut;
            int me = count++;
            if (index.fn(node) >= 0) {
                used.set(index.fn(node));
            }
            int[] kids = index.childrenByName(node);
            // pushed last first, so that they come out in name order
            for (int k = kids.length - 1; k >= 0; k--) {
                int c = kids[k];
                if (weight(c) < threshold) {
                    pruned += weight(c);
                    continue;
                }
                if (sp + 2 > stack.length) {
                    stack = java.util.Arrays.copyOf(stack, stack.length * 2);
                }
                stack[sp++] = c;
                stack[sp++] = me;
            }
        }
        out.object();
        out.field("total", t.total(0));
        if (t.paired()) {
            out.field("total2", t.total2(0));
        }
        out.field("root", root);
        out.name("path").array();
        int depth = t.depth(root);
        int[] path = new int[depth];
        for (int n = root, d = depth - 1; n > 0; n = t.parent(n), d--) {
            path[d] = n;
        }
        for (int n : path) {
            out.object().field("node", n).field("fn", index.fn(n)).endObject();
            used.set(index.fn(n));
        }
        out.endArray();
        out.name("minShare").share(minShare);
        out.name("pruned").share(weight(root) == 0 ? 0 : (double) pruned / weight(root));
        out.name("nodes").object();
        column(out, "id", ids, count);
        column(out, "parent", parents, count);
        column(out, "fn", ids, count, index::fn);
        column(out, "self", ids, count, t::self);
        column(out, "total", ids, count, t::total);
        if (t.paired()) {
            column(out, "self2", ids, count, t::self2);
            column(out, "total2", ids, count, t::total2);
        }
        out.endObject();
        functions(out, used, names);
        out.endObject();
    }

    /** A column of a value of each output node. */
    private static void column(JsonOut out, String name, int[] ids, int count, java.util.function.IntToLongFunction value) {
        out.name(name).array();
        for (int i = 0; i < count; i++) {
            out.value(value.applyAsLong(ids[i]));
        }
        out.endArray();
    }

    private static void column(JsonOut out, String name, int[] values, int count) {
        out.name(name).array();
        for (int i = 0; i < count; i++) {
            out.value(values[i]);
        }
        out.endArray();
    }

    /**
     * The {@code fns} table: id, name, object and kind (k kernel, i inlined, u other) of each used
     * id, and its source position when the names carry them.
     */
    static void functions(JsonOut out, BitSet used, Names names) {
        out.name("fns").array();
        for (int id = used.nextSetBit(0); id >= 0; id = used.nextSetBit(id + 1)) {
            FlameTree.Function f = names.function(id);
            out.array().value(id).value(f.name()).value(f.object())
                    .value(f.kernel() ? "k" : f.inlined() ? "i" : "u");
            if (names.sources()) {
                out.value(names.source(id));
            }
            out.endArray();
        }
        out.endArray();
    }

    /**
     * The functions whose name contains {@code query} (ignoring case) and the share of the
     * weight whose stacks pass through one of them (each sample counted once).
     */
    void search(JsonOut out, String query, int limit) {
        FlameTree t = index.tree;
        String q = query.toLowerCase(Locale.ROOT);
        BitSet matchFn = new BitSet();
        BitSet checked = new BitSet();
        int n = index.size();
        boolean[] under = new boolean[n];
        long matched = 0;
        for (int node = 1; node < n; node++) {
            int fn = index.fn(node);
            if (!checked.get(fn)) {
                checked.set(fn);
                if (names.function(fn).name().toLowerCase(Locale.ROOT).contains(q)) {
                    matchFn.set(fn);
                }
            }
            boolean above = under[t.parent(node)];
            if (!above && matchFn.get(fn)) {
                matched += t.total(node);
            }
            under[node] = above || matchFn.get(fn);
        }
        out.object();
        out.field("query", query);
        out.field("matched", matched);
        out.field("total", t.total(0));
        out.name("share").share(t.total(0) == 0 ? 0 : (double) matched / t.total(0));
        out.field("functions", matchFn.cardinality());
        BitSet shown = new BitSet();
        for (int id = matchFn.nextSetBit(0), k = 0; id >= 0 && k < limit; id = matchFn.nextSetBit(id + 1), k++) {
            shown.set(id);
        }
        functions(out, shown, names);
        out.endObject();
    }

    /**
     * One function's callers and callees (the butterfly), read off the tree: its outermost
     * occurrences on each path (so a recursive function's samples count once) with their
     * parents' functions as callers (-1: it was the outermost frame) and their children's as
     * callees; self is the weight ending in any of its nodes.
     */
    void butterfly(JsonOut out, int fnId) {
        FlameTree t = index.tree;
        if (names.function(fnId) == null) {
            throw new BadRequest("fn: no such function");
        }
        int n = index.size();
        boolean[] under = new boolean[n];
        java.util.Map<Integer, Long> callers = new java.util.HashMap<>();
        java.util.Map<Integer, Long> callees = new java.util.HashMap<>();
        long self = 0;
        long total = 0;
        for (int node = 1; node < n; node++) {
            boolean above = under[t.parent(node)];
            boolean here = index.fn(node) == fnId;
            under[node] = above || here;
            if (!here) {
                continue;
            }
            self += t.self(node);
            if (above) {
                continue;
            }
            total += t.total(node);
            callers.merge(index.fn(t.parent(node)), t.total(node), Long::sum);
            for (int k = 0; k < index.childCount(node); k++) {
                int c = index.child(node, k);
                callees.merge(index.fn(c), t.total(c), Long::sum);
            }
        }
        BitSet used = new BitSet();
        used.set(fnId);
        out.object();
        out.field("fn", fnId).field("self", self).field("total", total).field("all", t.total(0));
        out.name("callers");
        rows(out, callers, used);
        out.name("callees");
        rows(out, callees, used);
        functions(out, used, names);
        out.endObject();
    }

    private static void rows(JsonOut out, java.util.Map<Integer, Long> w, BitSet used) {
        java.util.List<java.util.Map.Entry<Integer, Long>> rows = new java.util.ArrayList<>(w.entrySet());
        rows.sort((a, b) -> {
            int k = Long.compare(b.getValue(), a.getValue());
            return k != 0 ? k : Integer.compare(a.getKey(), b.getKey());
        });
        out.array();
        for (var e : rows.subList(0, Math.min(200, rows.size()))) {
            if (e.getKey() >= 0) {
                used.set(e.getKey());
            }
            out.object().field("fn", e.getKey()).field("weight", e.getValue()).endObject();
        }
        out.endArray();
    }

    /** One level of the call tree: the node's children, heaviest first. */
    void callTree(JsonOut out, int node) {
        FlameTree t = index.tree;
        if (node < 0 || node >= index.size()) {
            throw new BadRequest("node: no such node");
        }
        BitSet used = new BitSet();
        out.object();
        out.field("node", node);
        out.field("total", t.total(0));
        out.name("children").array();
        for (int c : index.childrenByTotal(node)) {
            used.set(index.fn(c));
            out.object().field("node", c).field("fn", index.fn(c)).field("self", t.self(c))
                    .field("total", t.total(c)).field("children", index.childCount(c)).endObject();
        }
        out.endArray();
        functions(out, used, names);
        out.endObject();
    }
}
