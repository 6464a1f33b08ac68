package io.perfj.print;

import io.perfj.io.TextOut;

import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.RawRecord;
import io.perfj.perfdata.RecordInput;
import io.perfj.perfdata.RecordType;

import java.io.OutputStream;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;

/**
 * What {@code perf report --stats} prints (perf 6.1): a blank line, "Aggregated stats:", the
 * total and every record type seen with its count and share, then for each event its sample
 * count. The same block ends {@code perf report -D}.
 */
public final class StatsPrinter {
    private StatsPrinter() {
    }

    /** Reads every record of {@code data} and prints the stats in {@code layout}. Returns the warnings met. */
    public static List<String> print(PerfData data, OutputStream w, HeaderLayout layout) {
        EventStats stats = new EventStats();
        RecordInput in = data.records();
        for (RawRecord r = in.next(); r != null; r = in.next()) {
            stats.countRead(r);
            if (r.type() == RecordType.SAMPLE) {
                stats.countSample(r, data.evlist(), null);
            } else if (r.type() == RecordType.LOST_SAMPLES // per event in this mode only, not in -D
                    && io.perfj.perfdata.record.RecordDecoder.decode(r, data.evlist())
                            instanceof io.perfj.perfdata.record.KernelRecord.LostSamples l) {
                stats.countLostSamples(r, data.evlist(), l.lost());
            }
        }
        TextOut out = new TextOut(w, 4096);
        print(stats, names(data), hasAuxtrace(data), out, layout.statsNameWidth());
        out.flush();
        return in.warnings();
    }

    /**
     * The event names perf report --stats prints. For a pipe, perf 6.1 names each event when
     * its HEADER_ATTR arrives, from the attr alone ({@code cycles:uH} for a perf 6.8+ {@code
     * cycles:u}), and keeps that name: the recorded names that come later (EVENT_DESC in a
     * HEADER_FEATURE, EVENT_UPDATE) do not replace it in this mode.
     */
    static List<String> names(PerfData data) {
        if (!data.isPipe()) {
            return io.perfj.perfdata.feature.EventNames.names(data, null);
        }
        List<String> recorded = io.perfj.perfdata.feature.EventNames.names(data, null);
        List<io.perfj.perfdata.Evsel> evsels = data.evlist().evsels();
        List<String> names = new java.util.ArrayList<>(evsels.size());
        for (int i = 0; i < evsels.size(); i++) {
            var attr = evsels.get(i).attr();
            // perf 6.1 cannot print stats of a pipe with tracing data at all (it reads the blob
            // after HEADER_TRACING_DATA as records and stops): perfj names the tracepoint as
            // the recording does rather than as "unknown tracepoint".
            boolean tracepoint = attr.type() == io.perfj.trace.TraceEvents.PERF_TYPE_TRACEPOINT;
            names.add(tracepoint && i < recorded.size() ? recorded.get(i)
                    : io.perfj.perfdata.feature.EventNames.defaultName(attr));
        }
        return names;
    }

    /** Whether the recording has AUX area data (the AUXTRACE feature), which perf's stats title mentions. */
    static boolean hasAuxtrace(PerfData data) {
        return data.features().containsKey(io.perfj.perfdata.FeatureId.AUXTRACE);
    }

    static void print(EventStats stats, List<String> names, boolean auxtrace, TextOut out, int width) {
        out.nl().str("Aggregated stats:");
        if (auxtrace) {
            // the trace is not decoded, so what it would give is not in the counts
            out.str(" (excludes AUX area (e.g. instruction trace) decoded / synthesized events)");
        }
        out.nl();
        long total = stats.total();
        if (total != 0) {
            line(out, "TOTAL", total, -1, width);
        }
        int max = stats.maxType();
        for (int t = 1; t <= max; t++) {
            long n = stats.count(t);
            if (n == 0 || !EventStats.named(t)) {
                continue;
            }
            line(out, RecordType.name(t), n, total, width);
        }
        for (int i = 0; i < names.size(); i++) {
            long n = stats.samplesOf(i);
            long lost = stats.lostSamplesOf(i);
            if (n != 0 || lost != 0) {
                // events without samples are left out, as perf skips empty stats
                out.str(names.get(i)).str(" stats:\n");
                if (n != 0) {
                    line(out, "SAMPLE", n, -1, width);
                }
                if (lost != 0) {
                    line(out, "LOST_SAMPLES", lost, -1, width);
                }
            }
        }
    }

    /** {@code "%WIDTHs events: %10d"} and, when {@code total > 0}, {@code "  (%4.1f%%)"}. */
    private static void line(TextOut out, String name, long n, long total, int width) {
        for (int i = name.length(); i < width; i++) {
            out.ch(' ');
        }
        out.str(name).str(" events: ").decPad(n, 10);
        if (total > 0) {
            String pct = new BigDecimal(100.0 * n / total).setScale(1, RoundingMode.HALF_EVEN).toPlainString();
            out.str("  (");
            for (int i = pct.length(); i < 4; i++) {
                out.ch(' ');
            }
            out.str(pct).str("%)");
        }
        out.nl();
    }
}
