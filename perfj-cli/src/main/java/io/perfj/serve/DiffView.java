package io.perfj.serve;

import io.perfj.profile.FlameTree;

import java.util.ArrayList;
import java.util.List;

/**
 * Two recordings compared: their flame tree of two ({@link FlameTree#diff}) and the functions
 * whose share of self weight changed most from the first to the second.
 */
final class DiffView {
    private DiffView() {
    }

    static void changed(JsonOut out, FlameTree t, int limit) {
        int nf = t.functionCount();
        long[] a = new long[nf];
        long[] b = new long[nf];
        for (int n = 1; n < t.size(); n++) {
            a[t.functionIndex(n)] += t.self(n);
            b[t.functionIndex(n)] += t.self2(n);
        }
        double ta = Math.max(1, t.total(0));
        double tb = Math.max(1, t.total2(0));
        List<Integer> ids = new ArrayList<>();
        for (int f = 0; f < nf; f++) {
            if (a[f] != 0 || b[f] != 0) {
                ids.add(f);
            }
        }
        ids.sort((x, y) -> {
            int k = Double.compare(Math.abs(b[y] / tb - a[y] / ta), Math.abs(b[x] / tb - a[x] / ta));
            return k != 0 ? k : t.functionAt(x).name().compareTo(t.functionAt(y).name());
        });
        out.object();
        out.field("total", t.total(0)).field("total2", t.total2(0));
        out.name("rows").array();
        for (int f : ids.subList(0, Math.min(limit, ids.size()))) {
            FlameTree.Function fn = t.functionAt(f);
            out.object().field("fn", f).field("name", fn.name()).field("dso", fn.object())
                    .field("self", a[f]).field("self2", b[f])
                    .name("share").share(a[f] / ta).name("share2").share(b[f] / tb)
                    .endObject();
        }
        out.endArray();
        out.endObject();
    }
}
