package io.perfj.serve;

import io.perfj.profile.FlameTree;
import io.perfj.profile.StackTable;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

/**
 * Views by function over a selection's stacks: the top functions (self and total, each sample
 * counted once per function however often the function recurses in its stack).
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
}
