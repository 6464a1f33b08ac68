package io.perfj.serve;

import io.perfj.profile.FlameTree;
import io.perfj.report.StackTable;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

/**
 * Views by function over a selection's stacks: the top functions (self and total, each sample
 * counted once per function however often the function recurses in its stack) and one
 * function's callers and callees (the butterfly).
 */
final class FunctionViews {
    private final Recording rec;
    private final StackWeights sw;
    private long[] self;
    private long[] total;

    FunctionViews(Recording rec, StackWeights sw) {
        this.rec = rec;
        this.sw = sw;
    }

    private synchronized void sums() {
        if (self != null) {
            return;
        }
        StackTable st = rec.profile().stacks();
        int nf = rec.functionCount();
        long[] s = new long[nf];
        long[] t = new long[nf];
        int[] stamp = new int[nf];
        Arrays.fill(stamp, -1);
        for (int stack : sw.stacks) {
            long w = sw.weight[stack];
            s[rec.leafFunction(stack)] += w;
            for (int n = stack; n != StackTable.EMPTY; n = st.parent(n)) {
                int fn = rec.frameFunction(st.frame(n));
                if (stamp[fn] != stack) {
                    stamp[fn] = stack;
                    t[fn] += w;
                }
            }
        }
        self = s;
        total = t;
    }

    /** The {@code limit} functions with the most self (or total) weight. */
    void top(JsonOut out, boolean byTotal, int limit) {
        sums();
        List<Integer> ids = new ArrayList<>();
        for (int f = 0; f < self.length; f++) {
            if (total[f] > 0) {
                ids.add(f);
            }
        }
        long[] key = byTotal ? total : self;
        long[] second = byTotal ? self : total;
        ids.sort((a, b) -> {
            int k = Long.compare(key[b], key[a]);
            if (k == 0) {
                k = Long.compare(second[b], second[a]);
            }
            return k != 0 ? k : rec.function(a).name().compareTo(rec.function(b).name());
        });
        out.object();
        out.field("total", sw.total);
        out.field("functions", ids.size());
        out.name("rows").array();
        BitSet used = new BitSet();
        for (int i = 0; i < Math.min(limit, ids.size()); i++) {
            int f = ids.get(i);
            used.set(f);
            out.object().field("fn", f).field("self", self[f]).field("total", total[f]).endObject();
        }
        out.endArray();
        FlameView.functions(out, used, rec::function);
        out.endObject();
    }

    /**
     * The function's callers (the frame above each of its occurrences, -1 when it is the
     * outermost) and callees (the frame below; its self weight where it is the leaf), each
     * stack's weight counted once per caller and callee.
     */
    void butterfly(JsonOut out, int fn) {
        FlameTree.Function f = rec.function(fn);
        if (f == null) {
            throw new BadRequest("fn: no such function");
        }
        sums();
        StackTable st = rec.profile().stacks();
        int nf = rec.functionCount();
        long[] callers = new long[nf + 1];
        long[] callees = new long[nf];
        int[] callerStamp = new int[nf + 1];
        int[] calleeStamp = new int[nf];
        Arrays.fill(callerStamp, -1);
        Arrays.fill(calleeStamp, -1);
        for (int stack : sw.stacks) {
            long w = sw.weight[stack];
            int below = -1;
            for (int n = stack; n != StackTable.EMPTY; n = st.parent(n)) {
                int here = rec.frameFunction(st.frame(n));
                if (here == fn) {
                    int p = st.parent(n);
                    int caller = p == StackTable.EMPTY ? nf : rec.frameFunction(st.frame(p));
                    if (callerStamp[caller] != stack) {
                        callerStamp[caller] = stack;
                        callers[caller] += w;
                    }
                    if (below >= 0 && calleeStamp[below] != stack) {
                        calleeStamp[below] = stack;
                        callees[below] += w;
                    }
                }
                below = here;
            }
        }
        BitSet used = new BitSet();
        used.set(fn);
        out.object();
        out.field("fn", fn).field("self", self[fn]).field("total", total[fn]).field("all", sw.total);
        out.name("callers");
        rows(out, callers, nf, used);
        out.name("callees");
        rows(out, callees, -1, used);
        FlameView.functions(out, used, rec::function);
        out.endObject();
    }

    private static void rows(JsonOut out, long[] w, int outermost, BitSet used) {
        List<Integer> ids = new ArrayList<>();
        for (int i = 0; i < w.length; i++) {
            if (w[i] > 0) {
                ids.add(i);
            }
        }
        ids.sort((a, b) -> Long.compare(w[b], w[a]));
        out.array();
        for (int i : ids.subList(0, Math.min(200, ids.size()))) {
            int id = i == outermost ? -1 : i;
            if (id >= 0) {
                used.set(id);
            }
            out.object().field("fn", id).field("weight", w[i]).endObject();
        }
        out.endArray();
    }
}
