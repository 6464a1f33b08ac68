package io.perfj.report;

import io.perfj.profile.SampleFilter;

import java.util.Set;

/**
 * What {@code perf script} is asked for beyond the fields.
 *
 * @param fields        {@code -F}: the fields, or null for perf's defaults
 * @param add           {@code -F +field}: fields added to the defaults (empty: none)
 * @param remove        {@code -F -field}: fields taken from them (empty: none)
 * @param maxStack      callchain frames to print at most
 * @param select        the samples printed at all ({@code -C}, {@code --time})
 * @param filter        {@code --comms}, {@code --pid}, {@code --tid}, {@code -S}: the samples of
 *                      other threads or symbols are not printed
 * @param nanoseconds   {@code --ns}: times with nine decimals
 * @param relativeTime  {@code --reltime}: times since the first printed sample
 * @param hideCallGraph {@code -G}: no callchains, one line per sample
 * @param noInline      {@code --no-inline}: no frames of functions inlined at an address
 * @param sideBand      {@code --show-task-events}, {@code --show-mmap-events}, ...: the kinds of
 *                      other records printed among the samples (empty: none)
 * @param deltaTime     {@code --deltatime}: times since the event printed before (0 for the first)
 */
public record ScriptOptions(Set<ScriptPrinter.Field> fields, Set<ScriptPrinter.Field> add,
                            Set<ScriptPrinter.Field> remove, int maxStack, SampleSelection select,
                            SampleFilter filter, boolean nanoseconds, boolean relativeTime, boolean hideCallGraph,
                            boolean noInline, Set<SideBand> sideBand, boolean deltaTime) {
    /** perf script's defaults with {@code fields} (null: the default fields). */
    public static ScriptOptions of(Set<ScriptPrinter.Field> fields, int maxStack) {
        return new ScriptOptions(fields, Set.of(), Set.of(), maxStack, SampleSelection.ALL, SampleFilter.ALL,
                false, false, false, false, Set.of(), false);
    }

    /** The kinds of records other than samples perf script can show, each with its option. */
    public enum SideBand {
        /** {@code --show-task-events}: COMM, FORK, EXIT. */
        TASK("--show-task-events"),
        /** {@code --show-mmap-events}: MMAP, MMAP2. */
        MMAP("--show-mmap-events"),
        /** {@code --show-switch-events}: SWITCH, SWITCH_CPU_WIDE. */
        SWITCH("--show-switch-events"),
        /** {@code --show-namespace-events}: NAMESPACES. */
        NAMESPACE("--show-namespace-events"),
        /** {@code --show-cgroup-events}: CGROUP. */
        CGROUP("--show-cgroup-events"),
        /** {@code --show-lost-events}: LOST. */
        LOST("--show-lost-events"),
        /** {@code --show-round-events}: FINISHED_ROUND, and every record in file order, as perf then reads them. */
        ROUND("--show-round-events"),
        /** {@code --show-bpf-events}: KSYMBOL, BPF_EVENT. */
        BPF("--show-bpf-events"),
        /** {@code --show-text-poke-events}: TEXT_POKE and KSYMBOL. */
        TEXT_POKE("--show-text-poke-events");

        private final String option;

        SideBand(String option) {
            this.option = option;
        }

        /** The perf script option that asks for these records. */
        public String option() {
            return option;
        }
    }
}
