package io.perfj.report;

import io.perfj.perfdata.Evsel;
import io.perfj.perfdata.FeatureId;
import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.SampleFormat;
import io.perfj.perfdata.feature.Feature;
import io.perfj.perfdata.feature.Features;
import io.perfj.perfdata.record.RecordDecoder;

import java.util.Optional;

/**
 * What {@code --stitch-lbr} can do with a recording (perf 6.1's util/machine.c, lbr_stitch):
 * stitching extends a thread's LBR call stack with the entries of its previous sample that
 * the LBR has since overwritten, which needs to know where in the LBR's ring each sample's
 * stack began (PERF_SAMPLE_BRANCH_HW_INDEX) and how deep the ring is (the cpu PMU's
 * "branches" capability, in CPU_PMU_CAPS). Without either perf leaves every callchain as it was.
 * Without an LBR call stack at all perf switches the option off with a warning
 * (builtin-report.c / builtin-script.c, setup_sample_type).
 */
public final class LbrStitch {
    /** perf's warning when the recording has no LBR callchains (report adds a "Warning:" line above). */
    public static final String NO_LBR = "Can't find LBR callchain. Switch off --stitch-lbr.\n"
            + "Please apply --call-graph lbr when recording.\n";

    private LbrStitch() {
    }

    /**
     * perf's warning for {@code --stitch-lbr}, if it gives one: when the callchain mode it sets
     * up from the events' combined sample_type is not LBR (the branch stack taken as call
     * stack). {@code callchainsUsed}: whether the command uses callchains at all (report: the
     * recording has them and -g or --children asks for them; script always).
     */
    public static Optional<String> warning(PerfData data, boolean callchainsUsed) {
        long type = 0;
        for (Evsel e : data.evlist().evsels()) {
            type |= e.attr().sampleType();
        }
        boolean dwarf = (type & SampleFormat.REGS_USER) != 0 && (type & SampleFormat.STACK_USER) != 0;
        boolean lbr = callchainsUsed && !dwarf && (type & SampleFormat.BRANCH_STACK) != 0;
        return lbr ? Optional.empty() : Optional.of(NO_LBR);
    }

    /**
     * Whether perf would stitch anything: some event records LBR call stacks with the hardware
     * index and the recording says how many entries the LBR has.
     */
    public static boolean stitches(PerfData data) {
        boolean hwIndex = false;
        for (Evsel e : data.evlist().evsels()) {
            long b = e.attr().branchSampleType();
            hwIndex |= (e.attr().sampleType() & SampleFormat.CALLCHAIN) != 0
                    && (b & io.perfj.session.ChainWalk.BRANCH_CALL_STACK) != 0 && (b & RecordDecoder.BRANCH_HW_INDEX) != 0;
        }
        return hwIndex && maxLbr(data) > 0;
    }

    /** The cpu PMU's "branches" capability (the LBR's depth), 0 when not recorded. */
    static int maxLbr(PerfData data) {
        var raw = data.features().get(FeatureId.CPU_PMU_CAPS);
        if (raw == null) {
            return 0;
        }
        if (!(Features.decode(FeatureId.CPU_PMU_CAPS, raw, data) instanceof Feature.CpuPmuCaps caps)) {
            return 0;
        }
        for (Feature.Cap c : caps.caps()) {
            if (c.name().equals("branches")) {
                try {
                    return Integer.parseInt(c.value().strip());
                } catch (NumberFormatException e) {
                    return 0;
                }
            }
        }
        return 0;
    }
}
