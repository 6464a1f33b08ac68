package io.perfj.report;

import io.perfj.session.Session;
import io.perfj.trace.EventFormat;
import io.perfj.trace.FormatField;
import io.perfj.trace.TraceFormatter;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * perf report {@code -s trace_fields}: one column per field of each tracepoint event (its
 * dynamic sort keys, sort.c), one row per distinct set of field bytes. As perf does it:
 * a column's text is cut out of the formatted trace, from the first space-separated word that
 * starts with the field's name, after the name and one character, up to the next space (so
 * {@code next_comm=VM Thread} shows {@code VM}, and {@code fd: 0x1} shows nothing); without such
 * a word the field is printed raw. Rows of equal period come in descending byte order of their
 * fields, and a column is as wide as its name, its field (a number's hex digits plus 0x) and
 * its longest text.
 */
public final class TraceFieldsReport {
    private final Session session;
    private final PrintWriter out;

    public TraceFieldsReport(Session session, PrintWriter out) {
        this.session = session;
        this.out = out;
    }

    private static final class Row {
        final byte[][] keys;
        final String[] values;
        long period;

        Row(byte[][] keys, String[] values) {
            this.keys = keys;
            this.values = values;
        }
    }

    /** Reads the recording and prints the report; returns what reading the tracing data met. */
    public List<String> print() {
        TracepointLines lines = new TracepointLines(session.data(), session.resolver());
        List<TraceReport.Event<Row>> events = new ArrayList<>();
        Map<Integer, EventFormat> formats = new HashMap<>();
        long lost = TraceReport.collect(session, s -> {
            EventFormat ev = lines.eventFormat(s);
            if (ev == null) {
                return;
            }
            TraceReport.Event<Row> e = TraceReport.Event.at(events, s.evsel().index());
            formats.put(s.evsel().index(), ev);
            byte[] raw = s.rawData().bytes(0, s.rawData().size());
            List<FormatField> fields = ev.fields();
            byte[][] keys = new byte[fields.size()][];
            StringBuilder id = new StringBuilder();
            for (int k = 0; k < keys.length; k++) {
                keys[k] = TraceFormatter.fieldBytes(raw, fields.get(k));
                id.append(new String(keys[k], StandardCharsets.ISO_8859_1)).append('\u0000').append(keys[k].length).append('|');
            }
            Row r = e.rows.get(id.toString());
            if (r == null) {
                String text = new String(lines.text(s), StandardCharsets.ISO_8859_1);
                String[] values = new String[keys.length];
                for (int k = 0; k < keys.length; k++) {
                    String v = fromText(text, fields.get(k).name());
                    values[k] = v != null ? v : lines.rawField(s, ev, fields.get(k));
                }
                r = new Row(keys, values);
                e.rows.put(id.toString(), r);
            }
            r.period += s.period();
            e.add(s.period());
        });
        TraceReport.printAll(out, lost, session.eventNames(), events.size(), i -> events.get(i).samples > 0,
                (name, i) -> printEvent(name, formats.get(i), events.get(i)));
        return lines.warnings();
    }

    /** The word of {@code text} for field {@code name} (sort.c's scan of the pretty-printed trace), or null. */
    public static String fromText(String text, String name) {
        int at = 0;
        while (at <= text.length()) {
            int sp = text.indexOf(' ', at);
            int end = sp < 0 ? text.length() : sp;
            if (text.startsWith(name, at)) {
                int from = Math.min(at + name.length() + 1, end);
                return text.substring(from, end);
            }
            if (sp < 0) {
                return null;
            }
            at = sp + 1;
        }
        return null;
    }

    private void printEvent(String name, EventFormat format, TraceReport.Event<Row> ev) {
        TraceReport.eventHead(out, name, ev.samples, ev.period);
        List<FormatField> fields = format.fields();
        List<Row> rows = new ArrayList<>(ev.rows.values());
        rows.sort((a, b) -> {
            int c = Long.compareUnsigned(b.period, a.period);
            for (int k = 0; c == 0 && k < fields.size(); k++) {
                c = Arrays.compareUnsigned(b.keys[k], a.keys[k]);
            }
            return c;
        });
        int[] width = new int[fields.size()];
        StringBuilder hdr = new StringBuilder("# Overhead");
        StringBuilder dots = new StringBuilder("# ........");
        for (int k = 0; k < width.length; k++) {
            FormatField f = fields.get(k);
            int w = Math.max(f.name().length(), f.string() ? f.size() : f.size() * 2 + 2);
            for (Row r : rows) {
                w = Math.max(w, r.values[k].length());
            }
            width[k] = w;
            hdr.append("  ").append(padLeft(f.name(), w));
            dots.append("  ").append(".".repeat(w));
        }
        out.print(hdr + "\n");
        out.print(dots + "\n");
        out.print("#\n");
        for (Row r : rows) {
            String p = StdioReport.pct(r.period, ev.period);
            StringBuilder line = new StringBuilder("  ").append(" ".repeat(Math.max(0, 8 - p.length()))).append(p);
            for (int k = 0; k < width.length; k++) {
                String v = r.values[k].length() > width[k] ? r.values[k].substring(0, width[k]) : r.values[k];
                line.append("  ").append(padLeft(v, width[k]));
            }
            out.print(new String(line.toString().getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8) + "\n");
        }
    }

    private static String padLeft(String s, int w) {
        return " ".repeat(Math.max(0, w - s.length())) + s;
    }
}
