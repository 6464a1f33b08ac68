package io.perfj.report;

import io.perfj.profile.SampleFilter;

import java.util.List;
import java.util.Set;

/**
 * What {@code perf report} is asked to do.
 *
 * @param sortKeys       the sort keys in order
 * @param symbolIpc      whether the --sort text contains "symbol": perf then appends its hidden
 *                       ipc_null key (the IPC columns, and rows ordered by it last)
 * @param children       whether to accumulate callers' periods (--children)
 * @param mode           callchain print mode (-g)
 * @param callerOrder    print callchains caller first (perf's default with --children)
 * @param threshold      callchain percent threshold (default 0.5)
 * @param percentLimit   hide entries below this percentage
 * @param maxStack       frames per callchain to use (perf's --max-stack, default 127)
 * @param comms          --comms filter, or null
 * @param dsos           --dsos filter (short or long names), or null
 * @param symbols        --symbols filter, or null
 * @param pids           --pid filter, or null
 * @param tids           --tid filter, or null
 * @param cpus           --cpu filter, or null
 * @param select         the samples read at all (--cpu, --time)
 * @param view           what the rows show (-n, --show-total-period, --percentage, ...)
 */
public record ReportOptions(List<SortKey> sortKeys, boolean symbolIpc, boolean children, CallchainMode mode,
                            boolean callerOrder, double threshold, double percentLimit, int maxStack,
                            Set<String> comms, Set<String> dsos, Set<String> symbols, Set<Integer> pids,
                            Set<Integer> tids, Set<Integer> cpus, SampleSelection select, ReportView view) {

    /** Options that read every sample and print perf's default columns. */
    public ReportOptions(List<SortKey> sortKeys, boolean symbolIpc, boolean children, CallchainMode mode,
                         boolean callerOrder, double threshold, double percentLimit, int maxStack,
                         Set<String> comms, Set<String> dsos, Set<String> symbols, Set<Integer> pids,
                         Set<Integer> tids, Set<Integer> cpus) {
        this(sortKeys, symbolIpc, children, mode, callerOrder, threshold, percentLimit, maxStack, comms, dsos,
                symbols, pids, tids, cpus, SampleSelection.ALL, ReportView.DEFAULT);
    }

    public boolean has(SortKey k) {
        return sortKeys.contains(k);
    }

    /** The filter options as one {@link SampleFilter}. */
    public SampleFilter filter() {
        return new SampleFilter(comms, dsos, symbols, pids, tids, cpus);
    }

    public boolean filters() {
        return comms != null || dsos != null || symbols != null || pids != null || tids != null || cpus != null
                || excludeOther();
    }

    /** {@code -x}: rows without a parent symbol are filtered out. */
    public boolean excludeOther() {
        return view != null && view.excludeOther();
    }

    /** Whether the rows' parent symbols are needed (the parent key, or -x). */
    public boolean parents() {
        return has(SortKey.PARENT) || excludeOther();
    }
}
