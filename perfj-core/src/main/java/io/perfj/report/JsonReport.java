package io.perfj.report;

import io.perfj.profile.Frame;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * A report as JSON for programs: one object per event with its totals and entries (the sort-key
 * values, self and accumulated periods and percentages, and the callchain tree when callchains
 * are on). Field names are stable; percentages are of the event's total period.
 */
public final class JsonReport {
    private final Report report;
    private final PrintWriter out;

    public JsonReport(Report report, PrintWriter out) {
        this.report = report;
        this.out = out;
    }

    public void print() {
        ReportOptions o = report.options();
        out.print("{\"lost_samples\":" + report.lostSamples() + ",\"events\":[");
        boolean firstH = true;
        for (Hists h : report.hists()) {
            if (h.totalSamples() == 0) {
                continue;
            }
            if (!firstH) {
                out.print(',');
            }
            firstH = false;
            out.print("{\"event\":" + str(h.name()) + ",\"samples\":" + h.totalSamples()
                    + ",\"period\":" + Long.toUnsignedString(h.totalPeriod()) + ",\"entries\":[");
            boolean first = true;
            for (HistEntry e : h.entries()) {
                double p = StdioReport.percent(o.children() ? e.accPeriod() : e.selfPeriod(), h.totalPeriod());
                if (o.percentLimit() > 0 && p < o.percentLimit()) {
                    continue;
                }
                if (!first) {
                    out.print(',');
                }
                first = false;
                entry(h, e, o);
            }
            out.print("]}");
        }
        out.print("]}\n");
        out.flush();
    }

    private void entry(Hists h, HistEntry e, ReportOptions o) {
        out.print("{\"self_period\":" + e.selfPeriod() + ",\"self_samples\":" + e.selfSamples()
                + ",\"self_percent\":" + num(StdioReport.percent(e.selfPeriod(), h.totalPeriod())));
        if (o.children()) {
            out.print(",\"children_period\":" + e.accPeriod() + ",\"children_percent\":"
                    + num(StdioReport.percent(e.accPeriod(), h.totalPeriod())));
        }
        for (SortKey k : o.sortKeys()) {
            switch (k) {
                case COMM -> out.print(",\"comm\":" + str(e.comm()));
                case PID -> out.print(",\"pid\":" + e.pid() + ",\"comm\":" + str(e.comm()));
                case TID -> out.print(",\"tid\":" + e.tid());
                case CPU -> out.print(",\"cpu\":" + e.cpu());
                case DSO -> out.print(",\"dso\":" + str(frame(h, e) == null ? "" : frame(h, e).dsoName()));
                case SYM -> {
                    Frame f = frame(h, e);
                    if (f != null) {
                        out.print(",\"symbol\":" + str(f.symName()) + ",\"level\":" + str(String.valueOf(f.level())));
                    }
                }
                case TRACE -> {
                    if (e.trace() != null) {
                        out.print(",\"trace\":" + str(h.column(e, k)));
                    }
                }
                case SRCLINE -> out.print(",\"srcline\":" + str(e.srcline()));
                case SRCFILE -> out.print(",\"srcfile\":" + str(e.srcfile()));
                case TRACE_FIELDS -> {
                    java.util.List<io.perfj.trace.FormatField> fs = h.traceFields();
                    out.print(",\"trace_fields\":{");
                    for (int i = 0; i < fs.size(); i++) {
                        out.print((i > 0 ? "," : "") + str(fs.get(i).name()) + ":" + str(h.traceField(e, i)));
                    }
                    out.print('}');
                }
                case PARENT -> out.print(",\"parent\":" + (e.parent() == null ? "null" : str(e.parent())));
            }
        }
        if (o.mode() != CallchainMode.NONE && e.chains() != null) {
            out.print(",\"callchain\":");
            tree(h, e.chains());
        }
        out.print('}');
    }

    private static Frame frame(Hists h, HistEntry e) {
        return e.frame() >= 0 ? h.frames().get(e.frame()) : null;
    }

    private void tree(Hists h, CallchainNode n) {
        out.print('[');
        boolean first = true;
        for (CallchainNode c : n.sortedChildren(1)) {
            if (!first) {
                out.print(',');
            }
            first = false;
            Frame f = h.frames().get(c.frame());
            out.print("{\"name\":" + str(h.frames().chainName(c.frame())) + ",\"dso\":" + str(f.dsoName()) + ",\"period\":" + c.cumul()
                    + ",\"self_period\":" + c.hit + ",\"children\":");
            tree(h, c);
            out.print('}');
        }
        out.print(']');
    }

    private static String num(double d) {
        return String.format(Locale.ROOT, "%.4f", d);
    }

    static String str(String s) {
        return io.perfj.io.Json.quote(s);
    }
}
