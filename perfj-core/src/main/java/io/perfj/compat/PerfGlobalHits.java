package io.perfj.compat;

import io.perfj.annotate.Annotation;
import io.perfj.annotate.PercentType;

/**
 * perf 6.1 annotate's global-hits column: it divides by a sample count its annotate never fills
 * in ({@code hists->stats.nr_samples} of 0), so every line prints an empty column and
 * {@code percent(GLOBAL_HITS)} is 0 everywhere.
 *
 * <p>Mirrors: {@code annotation__calc_percent} (tools/perf/util/annotate.c) as
 * {@code perf annotate} calls it.
 */
public final class PerfGlobalHits {
    private PerfGlobalHits() {
    }

    /** The annotation with its global-hits percentages as perf 6.1 has them (all 0). */
    public static Annotation apply(Annotation a) {
        return a.zeroPercent(PercentType.GLOBAL_HITS);
    }
}
