package io.perfj.report;

import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.record.Sample;
import io.perfj.session.MachineResolver;
import io.perfj.trace.TraceEvents;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The trace sort key's values: each tracepoint sample's formatted fields ({@link TracepointLines}),
 * interned so that a report's rows carry an int. Samples of other events have none (perf's
 * {@code sort__trace_cmp} finds them all equal and prints "N/A").
 */
final class TraceTexts {
    private final TracepointLines lines;
    private final Map<String, Integer> ids = new HashMap<>();
    private final List<byte[]> texts = new ArrayList<>();

    TraceTexts(PerfData data, MachineResolver resolver) {
        this.lines = new TracepointLines(data, resolver);
    }

    /** The id of the sample's text, or -1 when its event is no tracepoint. */
    int id(Sample s) {
        if (s.evsel().attr().type() != TraceEvents.PERF_TYPE_TRACEPOINT) {
            return -1;
        }
        byte[] t = lines.text(s);
        return ids.computeIfAbsent(new String(t, StandardCharsets.ISO_8859_1), k -> {
            texts.add(t);
            return texts.size() - 1;
        });
    }

    /** The text of an id from {@link #id}; null for -1. */
    byte[] text(int id) {
        return id < 0 ? null : texts.get(id);
    }

    List<String> warnings() {
        return lines.warnings();
    }
}
