package io.perfj.report;

import io.perfj.io.Bytes;
import io.perfj.io.TextOut;
import io.perfj.perfdata.record.Sample;
import io.perfj.perfdata.record.UserRecord;

/**
 * perf script's text for what perf's instruction-trace decoders synthesize (perf 6.1
 * builtin-script.c, util/auxtrace.c): the fields of the Intel PT events of type PERF_TYPE_SYNTH
 * (psb, cbr, ptwrite) before the sample's ip, and the line of a PERF_RECORD_AUXTRACE_ERROR.
 */
final class ItraceLines {
    /** perf's PERF_TYPE_SYNTH. */
    static final int TYPE_SYNTH = 0x8000_0000;
    private static final int SYNTH_PTWRITE = 0;
    private static final int SYNTH_CBR = 5;
    private static final int SYNTH_PSB = 6;
    /** perf pads the synthesized fields to this width. */
    private static final int SPACING = 34;

    private ItraceLines() {
    }

    /** The synthesized event's fields (perf_sample__fprintf_synth), padded as perf pads them. */
    static void synth(Sample s, long config, TextOut out) {
        Bytes raw = s.rawData();
        String text;
        if (config == SYNTH_PSB && raw != null && raw.size() >= 12) {
            text = " psb offs: " + hexAlt(raw.u64(4));
        } else if (config == SYNTH_CBR && raw != null && raw.size() >= 8) {
            long flags = raw.u32(0);
            long cbr = flags & 0xff;
            long maxNonTurbo = (flags >>> 16) & 0xff;
            long freq = (raw.u32(4) + 500) / 1000;
            text = String.format(" cbr: %2d freq: %4d MHz ", cbr, freq);
            if (maxNonTurbo != 0) {
                text += String.format("(%3d%%) ", (5 + (1000 * cbr) / maxNonTurbo) / 10);
            }
        } else if (config == SYNTH_PTWRITE && raw != null && raw.size() >= 12) {
            text = " IP: " + (raw.u32(0) & 1) + " payload: " + hexAlt(raw.u64(4)) + " ";
        } else {
            return;
        }
        out.str(text);
        if (text.length() < SPACING) {
            out.spaces(SPACING - text.length());
        }
    }

    private static String hexAlt(long v) {
        return v == 0 ? "0" : "0x" + Long.toHexString(v);
    }

    /** A PERF_RECORD_AUXTRACE_ERROR as perf script prints it (perf_event__fprintf_auxtrace_error). */
    static void error(UserRecord.AuxtraceError e, TextOut out) {
        out.str(" ").str(e.errType() == 1 ? "instruction trace" : "unknown").str(" error type ").udec(e.errType());
        if (e.fmt() != 0 && e.time() != 0) {
            out.str(" time ").udec(Long.divideUnsigned(e.time(), 1_000_000_000L)).ch('.')
                    .decZero(Long.remainderUnsigned(e.time(), 1_000_000_000L), 9);
        } else {
            out.str(" time 0");
        }
        if (e.fmt() >= 2 && e.machinePid() != 0) {
            out.str(" machine_pid ").dec(e.machinePid()).str(" vcpu ").dec(e.vcpu());
        }
        out.str(" cpu ").dec(e.cpu()).str(" pid ").dec(e.pid()).str(" tid ").dec(e.tid()).str(" ip ")
                .hexAlt(e.ip()).str(" code ").udec(e.code()).str(": ").str(e.msg()).nl();
    }
}
