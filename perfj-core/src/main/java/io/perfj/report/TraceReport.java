package io.perfj.report;

import io.perfj.perfdata.Evsel;
import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.SampleFormat;
import io.perfj.trace.TraceEvents;

import java.util.List;

/**
 * perf report on tracepoint recordings: when perf sorts by {@code trace} by default
 * (sort.c, get_default_sort_order), and whether a recording has callchains.
 * The trace sort keys themselves are keys of report's histogram ({@link SortKey#TRACE},
 * {@link SortKey#TRACE_FIELDS}, values from {@link TraceTexts}), so call graphs, --children and
 * the limits apply to them.
 */
public final class TraceReport {
    private TraceReport() {
    }

    /**
     * Whether perf would sort {@code data} by trace: every event a tracepoint (a system-wide
     * recording adds a dummy event, and then perf sorts as usual), with or without callchains.
     */
    public static boolean applies(PerfData data) {
        List<Evsel> evs = data.evlist().evsels();
        if (evs.isEmpty()) {
            return false;
        }
        for (Evsel e : evs) {
            if (e.attr().type() != TraceEvents.PERF_TYPE_TRACEPOINT) {
                return false;
            }
        }
        return true;
    }

    /** Whether an event of {@code data} records callchains. */
    public static boolean hasCallchains(PerfData data) {
        for (Evsel e : data.evlist().evsels()) {
            if ((e.attr().sampleType() & SampleFormat.CALLCHAIN) != 0) {
                return true;
            }
        }
        return false;
    }
}
