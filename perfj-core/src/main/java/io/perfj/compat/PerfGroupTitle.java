package io.perfj.compat;

import java.util.List;

/**
 * The totals in the title of an event group's annotation ({@code Samples: N of events 'anon
 * group { a, b }', ..., Event count (approx.): P}): the samples of every member, and their
 * period. perf 6.1 annotates each group leader as soon as its own entries are sorted, before its
 * members' are, and a member's period total is only summed by that sort; so its event count is
 * the leader's period alone. perf 7.2 sorts the members first and, as perf report does, sums them
 * (when annotating symbols by name; without names it prints the leader's period, as 6.1 does).
 *
 * <p>Mirrors: {@code __cmd_annotate} (tools/perf/builtin-annotate.c) and
 * {@code hists__scnprintf_title} (tools/perf/util/hist.c), perf 6.1.
 */
public final class PerfGroupTitle {
    private PerfGroupTitle() {
    }

    /**
     * Samples and period of the group {@code leader} leads, from each event's {@code {samples,
     * period}} in {@code totals} as perf 6.1 has them: the period is the leader's.
     */
    public static long[] total(List<long[]> totals, int leader, List<Integer> members) {
        long[] t = totals.get(leader).clone();
        for (int m : members) {
            t[0] += totals.get(m)[0];
        }
        return t;
    }
}
