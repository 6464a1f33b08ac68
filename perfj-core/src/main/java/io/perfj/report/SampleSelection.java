package io.perfj.report;

import io.perfj.profile.SampleFilter;

import java.util.Set;

/**
 * The samples a command reads at all, as perf's {@code --cpu} and {@code --time} choose them:
 * a sample outside is dropped before anything counts it (perf report's totals and percentages
 * are then of the selected samples), unlike the {@link SampleFilter} options, whose samples
 * still count in the totals. Null members select everything.
 *
 * @param cpus the CPUs to keep, or null
 * @param time the time window, or null
 */
public record SampleSelection(Set<Integer> cpus, TimeRanges time) {
    /** Every sample. */
    public static final SampleSelection ALL = new SampleSelection(null, null);

    /** Whether this selects every sample. */
    public boolean all() {
        return cpus == null && time == null;
    }

    /** Whether records of this CPU are read (-C; perf applies --time to samples alone). */
    public boolean keepsCpu(int cpu) {
        return cpus == null || cpus.contains(cpu);
    }

    /** Whether a sample of this CPU and timestamp is read. */
    public boolean keeps(int cpu, long timestamp) {
        return (cpus == null || cpus.contains(cpu)) && (time == null || time.keeps(timestamp));
    }
}
