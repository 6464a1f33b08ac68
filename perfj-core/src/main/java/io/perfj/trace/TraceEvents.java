package io.perfj.trace;

import io.perfj.io.Bytes;
import io.perfj.io.FormatException;
import io.perfj.perfdata.FeatureId;
import io.perfj.perfdata.PerfData;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The event formats of one recording, by tracepoint id (a tracepoint event's
 * {@code perf_event_attr.config}), read from its HEADER_TRACING_DATA feature. A format file that
 * does not parse is left out with a warning; a print fmt that does not parse keeps its event
 * (printed field by field) with one warning naming it.
 */
public final class TraceEvents {
    /** {@code perf_event_attr.type} of a tracepoint event. */
    public static final int PERF_TYPE_TRACEPOINT = 2;

    private final TracingData data;
    private final Map<Integer, EventFormat> byId = new HashMap<>();
    private final List<String> warnings = new ArrayList<>();

    private TraceEvents(TracingData data, String source) {
        this.data = data;
        warnings.addAll(data.warnings());
        for (TracingData.EventFile f : data.eventFiles()) {
            try {
                EventFormat ev = EventFormat.parse(f.system(), f.text(), source, f.offset());
                byId.putIfAbsent(ev.id(), ev);
                if (ev.printError() != null) {
                    warnings.add(source + ": tracing_data event format " + ev.fullName() + " at offset 0x"
                            + Long.toHexString(f.offset()) + ": cannot parse its print fmt (" + ev.printError()
                            + "); its fields are printed as name=value");
                }
            } catch (FormatException e) {
                warnings.add(e.getMessage());
            }
        }
    }

    /** The tracing data of {@code pd}, or empty when it has none (no tracepoint events). */
    public static Optional<TraceEvents> of(PerfData pd) {
        Bytes b = pd.features().get(FeatureId.TRACING_DATA);
        if (b == null) {
            return Optional.empty();
        }
        return Optional.of(parse(b.named("tracing_data"), pd.name()));
    }

    /** Reads a tracing_data blob; a blob that is not one reads as empty with a warning. */
    public static TraceEvents parse(Bytes b, String source) {
        TracingData td;
        try {
            td = TracingData.parse(b);
        } catch (FormatException e) {
            td = new TracingData("", false, 8, 4096, "", "", List.of(), List.of(), "", "", "", List.of(e.getMessage()));
        }
        return new TraceEvents(td, source);
    }

    public TracingData data() {
        return data;
    }

    /** The format of tracepoint {@code id}, or null. */
    public EventFormat byId(long id) {
        return id < 0 || id > Integer.MAX_VALUE ? null : byId.get((int) id);
    }

    /** Problems met while reading, one line each, naming the file, the structure and the offset. */
    public List<String> warnings() {
        return List.copyOf(warnings);
    }
}
