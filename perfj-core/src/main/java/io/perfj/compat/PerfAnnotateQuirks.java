package io.perfj.compat;

import io.perfj.annotate.Annotation;
import io.perfj.annotate.AnnotateQuirks;

import java.util.List;

/**
 * perf 6.1's annotate: it deletes the symbols samples hit outside those asked for
 * ({@link PerfAnnotateDeletions}), titles a group with the leader's period
 * ({@link PerfGroupTitle}) and shows no global hits ({@link PerfGlobalHits}).
 */
final class PerfAnnotateQuirks implements AnnotateQuirks {
    static final PerfAnnotateQuirks INSTANCE = new PerfAnnotateQuirks();

    private PerfAnnotateQuirks() {
    }

    @Override
    public Deletions deletions(boolean symbolsAsked, boolean stdio, boolean branchStacks) {
        return PerfAnnotateDeletions.applies(symbolsAsked, stdio, branchStacks) ? new PerfAnnotateDeletions() : null;
    }

    @Override
    public long[] groupTotal(List<long[]> totals, int leader, List<Integer> members) {
        return PerfGroupTitle.total(totals, leader, members);
    }

    @Override
    public Annotation shown(Annotation a) {
        return PerfGlobalHits.apply(a);
    }
}
