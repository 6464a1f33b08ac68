package io.perfj.report;

import io.perfj.perfdata.Evsel;
import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.SampleFormat;
import io.perfj.perfdata.record.KernelRecord;
import io.perfj.perfdata.record.PerfRecord;
import io.perfj.session.RecordHandler;
import io.perfj.session.SampleRef;
import io.perfj.session.Session;
import io.perfj.trace.TraceEvents;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * perf report on a recording of tracepoints only: perf's default sort order is then
 * {@code trace} (sort.c, get_default_sort_order), one row per distinct trace text, whose column
 * perf sizes before it has formatted an event's only sample (it formats lazily, on the first
 * comparison): a single-sample event's text is cut to the header's width.
 */
public final class TraceReport {
    private static final String HEADER = "Trace output";

    private final Session session;
    private final PrintWriter out;

    public TraceReport(Session session, PrintWriter out) {
        this.session = session;
        this.out = out;
    }

    /**
     * Whether perf would sort {@code data} by trace: every event a tracepoint (a system-wide
     * recording adds a dummy event, and then perf sorts as usual), none with callchains.
     */
    public static boolean applies(PerfData data) {
        List<Evsel> evs = data.evlist().evsels();
        if (evs.isEmpty()) {
            return false;
        }
        for (Evsel e : evs) {
            if (e.attr().type() != TraceEvents.PERF_TYPE_TRACEPOINT
                    || (e.attr().sampleType() & SampleFormat.CALLCHAIN) != 0) {
                return false;
            }
        }
        return true;
    }

    /** Whether an event of {@code data} records callchains (its trace report has a graph perfj does not print). */
    public static boolean hasCallchains(PerfData data) {
        for (Evsel e : data.evlist().evsels()) {
            if ((e.attr().sampleType() & SampleFormat.CALLCHAIN) != 0) {
                return true;
            }
        }
        return false;
    }

    private static final class Row {
        final byte[] text;
        long period;

        Row(byte[] text) {
            this.text = text;
        }
    }

    /** One event's rows by their key, and its totals. */
    static final class Event<R> {
        final Map<String, R> rows = new HashMap<>();
        long samples;
        long period;

        /** Event {@code i} of {@code events}, made (with those before it) when first met. */
        static <R> Event<R> at(List<Event<R>> events, int i) {
            while (events.size() <= i) {
                events.add(new Event<>());
            }
            return events.get(i);
        }

        void add(long period) {
            samples++;
            this.period += period;
        }
    }

    /** Reads the recording and prints the report; returns what reading the tracing data met. */
    public List<String> print() {
        TracepointLines lines = new TracepointLines(session.data(), session.resolver());
        List<Event<Row>> events = new ArrayList<>();
        long lost = collect(session, s -> {
            Event<Row> ev = Event.at(events, s.evsel().index());
            byte[] text = lines.text(s);
            Row r = ev.rows.computeIfAbsent(new String(text, StandardCharsets.ISO_8859_1), k -> new Row(text));
            r.period += s.period();
            ev.add(s.period());
        });
        printAll(out, lost, session.eventNames(), events.size(), i -> events.get(i).samples > 0,
                (name, i) -> printEvent(name, events.get(i)));
        return lines.warnings();
    }

    /** Reads the recording, handing every sample over; returns the samples lost (LOST_SAMPLES records). */
    static long collect(Session session, java.util.function.Consumer<io.perfj.perfdata.record.Sample> sample) {
        long[] lost = {0};
        session.run(new RecordHandler() {
            @Override
            public void sample(SampleRef ref) {
                sample.accept(ref.sample());
            }

            @Override
            public void record(PerfRecord rec) {
                if (rec instanceof KernelRecord.LostSamples ls) {
                    lost[0] += ls.lost();
                }
            }
        });
        return lost[0];
    }

    /** perf's head of a report, then each event that has samples, with two empty lines after it. */
    static void printAll(PrintWriter out, long lost, List<String> names, int events,
                         java.util.function.IntPredicate hasSamples,
                         java.util.function.ObjIntConsumer<String> printEvent) {
        out.print("# To display the perf.data header info, please use --header/--header-only options.\n");
        out.print("#\n#\n");
        out.print("# Total Lost Samples: " + lost + "\n");
        out.print("#\n");
        for (int i = 0; i < events; i++) {
            if (hasSamples.test(i)) {
                printEvent.accept(names.get(i), i);
                out.print("\n\n");
            }
        }
        out.flush();
    }

    /** An event's three head lines. */
    static void eventHead(PrintWriter out, String name, long samples, long period) {
        out.print("# Samples: " + StdioReport.unitNumber(samples) + " of event '" + name + "'\n");
        out.print("# Event count (approx.): " + Long.toUnsignedString(period) + "\n");
        out.print("#\n");
    }

    private void printEvent(String name, Event<Row> ev) {
        eventHead(out, name, ev.samples, ev.period);
        List<Row> rows = new ArrayList<>(ev.rows.values());
        rows.sort((a, b) -> {
            int c = Long.compareUnsigned(b.period, a.period);
            return c != 0 ? c : Arrays.compareUnsigned(a.text, b.text);
        });
        int width = HEADER.length();
        if (ev.samples > 1) {
            for (Row r : rows) {
                width = Math.max(width, r.text.length);
            }
        }
        out.print("# Overhead  " + HEADER + " ".repeat(width - HEADER.length()) + "\n");
        out.print("# ........  " + ".".repeat(width) + "\n");
        out.print("#\n");
        for (Row r : rows) {
            String p = StdioReport.pct(r.period, ev.period);
            byte[] t = r.text.length > width ? Arrays.copyOf(r.text, width) : r.text;
            out.print("  " + " ".repeat(Math.max(0, 8 - p.length())) + p + "  " + new String(t, StandardCharsets.UTF_8) + "\n");
        }
    }
}
