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
 * perf report on tracepoint recordings: when perf sorts by {@code trace} by default
 * (sort.c, get_default_sort_order), and the reading and printing that {@link TraceFieldsReport}
 * shares. The trace sort key itself is one of report's histogram keys ({@link SortKey#TRACE},
 * values from {@link TraceTexts}), so call graphs, --children and the limits apply to it.
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

    /** Whether an event of {@code data} records callchains (trace_fields rows have no graph in perfj). */
    public static boolean hasCallchains(PerfData data) {
        for (Evsel e : data.evlist().evsels()) {
            if ((e.attr().sampleType() & SampleFormat.CALLCHAIN) != 0) {
                return true;
            }
        }
        return false;
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
}
