package io.perfj.report;

import io.perfj.perfdata.Evsel;
import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.record.Sample;
import io.perfj.session.MachineResolver;
import io.perfj.trace.EventFormat;
import io.perfj.trace.FormatField;
import io.perfj.trace.TraceEvents;
import io.perfj.trace.TraceFormatter;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The values of the trace sort keys, interned so that a report's rows carry an int: a
 * tracepoint sample's formatted fields ({@code trace}, from {@link TracepointLines}) and its
 * fields one by one ({@code trace_fields}, perf's dynamic sort keys: the field's bytes, and the
 * text the column prints). Samples of other events have none (perf's {@code sort__trace_cmp}
 * finds them all equal and prints "N/A").
 */
final class TraceTexts {
    /**
     * One sample's values: {@code text} when trace is a key, {@code keys} (each field's bytes,
     * what rows are told apart and ordered by), {@code columns} and whether each was cut out of
     * the formatted trace (or printed raw) when trace_fields is one.
     */
    record Value(byte[] text, byte[][] keys, String[] columns, boolean[] fromText) {
    }

    /** A field's column text when the formatted trace has no word for it. */
    private interface Uncut {
        String of(Sample s, EventFormat ev, FormatField f);
    }

    private final TracepointLines lines;
    private final Uncut uncut;
    private final boolean text;
    private final boolean fields;
    private final Map<String, Integer> ids = new HashMap<>();
    private final List<Value> values = new ArrayList<>();

    /**
     * A field the formatted trace has no word for prints as its print format prints it (perf
     * 7.2), or with {@code rawFields} by its type alone (perf 6.1's libtraceevent: {@code ret} of
     * {@code "0x%lx", REC->ret} as {@code 3}).
     */
    TraceTexts(PerfData data, MachineResolver resolver, boolean text, boolean fields, boolean rawFields) {
        this.lines = new TracepointLines(data, resolver);
        this.uncut = rawFields ? lines::rawField : lines::fieldAsPrinted;
        this.text = text;
        this.fields = fields;
    }

    /** The id of the sample's values, or -1 when its event is no tracepoint. */
    int id(Sample s) {
        if (s.evsel().attr().type() != TraceEvents.PERF_TYPE_TRACEPOINT) {
            return -1;
        }
        byte[] t = text || fields ? lines.text(s) : null;
        EventFormat ev = fields ? lines.eventFormat(s) : null;
        byte[][] keys = null;
        StringBuilder id = new StringBuilder().append(s.evsel().index()).append('|');
        if (text) {
            id.append(new String(t, StandardCharsets.ISO_8859_1)).append('\u0000');
        }
        if (ev != null) {
            byte[] raw = s.rawData().bytes(0, s.rawData().size());
            List<FormatField> fs = ev.fields();
            keys = new byte[fs.size()][];
            for (int k = 0; k < keys.length; k++) {
                keys[k] = TraceFormatter.fieldBytes(raw, fs.get(k));
                id.append(new String(keys[k], StandardCharsets.ISO_8859_1)).append('\u0000').append(keys[k].length)
                        .append('|');
            }
        }
        Integer known = ids.get(id.toString());
        if (known != null) {
            return known;
        }
        String[] columns = null;
        boolean[] fromText = null;
        if (ev != null) {
            String formatted = new String(t, StandardCharsets.ISO_8859_1);
            List<FormatField> fs = ev.fields();
            columns = new String[keys.length];
            fromText = new boolean[keys.length];
            for (int k = 0; k < keys.length; k++) {
                String v = TraceFieldsColumns.fromText(formatted, fs.get(k).name());
                fromText[k] = v != null;
                // the bytes of the text as one string each, measured and printed as UTF-8
                columns[k] = new String((v != null ? v : uncut.of(s, ev, fs.get(k)))
                        .getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
            }
        }
        values.add(new Value(text ? t : null, keys, columns, fromText));
        ids.put(id.toString(), values.size() - 1);
        return values.size() - 1;
    }

    /** The values of an id from {@link #id}; null for -1. */
    Value value(int id) {
        return id < 0 ? null : values.get(id);
    }

    /** The fields of an event's format (its trace_fields columns), empty when it has none. */
    List<FormatField> fields(Evsel e) {
        EventFormat f = lines.eventFormat(e);
        return f == null ? List.of() : f.fields();
    }

    List<String> warnings() {
        return lines.warnings();
    }
}
