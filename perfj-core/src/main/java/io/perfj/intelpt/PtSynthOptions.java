package io.perfj.intelpt;

/**
 * Which events to synthesize from Intel PT trace: perf's {@code --itrace} choices
 * (util/auxtrace.c, itrace_synth_opts) as far as this decoder has them.
 *
 * @param branches synthesize branch samples ("branches")
 * @param branchFilter with {@code branches}: only branches with one of these {@link PtEvent}
 *                     flags (0: all); perf's {@code c} (calls) and {@code r} (returns)
 * @param instructions synthesize instruction samples ("instructions")
 * @param periodType how instruction samples are spaced
 * @param period instructions, or TSC ticks, between instruction samples
 * @param transactions synthesize transaction samples
 * @param ptwrites synthesize PTWRITE samples
 * @param pwrEvents synthesize power events (cbr, psb)
 * @param errors synthesize decoder errors
 */
public record PtSynthOptions(boolean branches, int branchFilter, boolean instructions, PtDecoder.Period periodType,
                             long period, boolean transactions, boolean ptwrites, boolean pwrEvents, boolean errors) {

    /** perf script's default, {@code --itrace=ce} with power events (cbr, psb) and the rest on. */
    public static PtSynthOptions scriptDefault() {
        return new PtSynthOptions(true, PtEvent.FLAG_CALL | PtEvent.FLAG_ASYNC | PtEvent.FLAG_TRACE_END, false,
                PtDecoder.Period.NONE, 0, true, true, true, true);
    }
}
