package io.perfj.report;

import io.perfj.io.TextOut;
import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.SampleFormat;
import io.perfj.perfdata.record.KernelRecord;
import io.perfj.perfdata.record.Sample;
import io.perfj.session.MachineResolver;
import io.perfj.symbols.Location;
import io.perfj.trace.ByteSink;
import io.perfj.trace.EventFormat;
import io.perfj.trace.KernelFunctions;
import io.perfj.trace.TraceEvents;
import io.perfj.trace.TraceFormatter;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The trace column of perf script: a tracepoint sample's raw data formatted by its event's print
 * fmt from the recording's tracing data, {@code %ps} named through the kernel's symbols as perf's
 * resolver names them.
 */
final class TracepointLines {
    private final TraceEvents events;
    private final TraceFormatter formatter;
    private final List<String> warnings = new ArrayList<>();
    private final ByteSink line = new ByteSink();
    private int pid;
    private int tid;

    TracepointLines(PerfData data, MachineResolver resolver) {
        this.events = TraceEvents.of(data).orElse(null);
        KernelFunctions fns = addr -> {
            Location l = resolver.resolve(pid, tid, KernelRecord.MISC_KERNEL, addr);
            if (l == null || l.symbol() == null) {
                return null;
            }
            return new KernelFunctions.Function(l.symbol().name(), addr - l.symbolOffset());
        };
        this.formatter = events == null ? null
                : new TraceFormatter(events.data(), fns, data.name(), warnings::add);
        if (events != null) {
            warnings.addAll(events.warnings());
        }
    }

    /**
     * perf script's fields for a tracepoint event (builtin-script.c, output_defaults): command, tid,
     * CPU, time, event name and the trace; the CPU only when sampled, the ip and symbols when the
     * event has callchains.
     */
    static Set<ScriptPrinter.Field> defaultFields(long sampleType) {
        Set<ScriptPrinter.Field> f = EnumSet.of(ScriptPrinter.Field.COMM, ScriptPrinter.Field.TID,
                ScriptPrinter.Field.TIME, ScriptPrinter.Field.EVENT, ScriptPrinter.Field.TRACE);
        if ((sampleType & SampleFormat.CPU) != 0) {
            f.add(ScriptPrinter.Field.CPU);
        }
        if ((sampleType & SampleFormat.CALLCHAIN) != 0) {
            f.addAll(EnumSet.of(ScriptPrinter.Field.IP, ScriptPrinter.Field.SYM, ScriptPrinter.Field.SYMOFF,
                    ScriptPrinter.Field.DSO));
        }
        return f;
    }

    /** Prints the sample's trace text (nothing for a sample without raw data or a format). */
    void print(Sample s, TextOut out) {
        if (format(s)) {
            out.bytes(line.array(), 0, line.size());
        }
    }

    /** The sample's trace text (empty for a sample without raw data or a format). */
    byte[] text(Sample s) {
        return format(s) ? line.toByteArray() : new byte[0];
    }

    private boolean format(Sample s) {
        if (formatter == null || s.rawData() == null) {
            return false;
        }
        EventFormat ev = events.byId(s.evsel().attr().config());
        if (ev == null) {
            return false;
        }
        pid = s.pid();
        tid = s.tid();
        line.reset();
        byte[] raw = s.rawData().bytes(0, s.rawData().size());
        formatter.format(ev, raw, line);
        return true;
    }

    /** The format of a tracepoint sample's event, or null. */
    EventFormat eventFormat(Sample s) {
        return events == null || s.rawData() == null ? null : events.byId(s.evsel().attr().config());
    }

    /** The format of a tracepoint event, or null. */
    EventFormat eventFormat(io.perfj.perfdata.Evsel e) {
        return events == null ? null : events.byId(e.attr().config());
    }

    /** One field of the sample's raw data as perf 6.1's libtraceevent prints it alone: by its type. */
    String rawField(Sample s, EventFormat ev, io.perfj.trace.FormatField f) {
        ByteSink one = new ByteSink();
        formatter.field(ev, s.rawData().bytes(0, s.rawData().size()), f, one);
        return new String(one.toByteArray(), java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    /** One field of the sample's raw data as its event's print format prints it (libtraceevent 1.8's way). */
    String fieldAsPrinted(Sample s, EventFormat ev, io.perfj.trace.FormatField f) {
        ByteSink one = new ByteSink();
        formatter.fieldAsPrinted(ev, s.rawData().bytes(0, s.rawData().size()), f, one);
        return new String(one.toByteArray(), java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    List<String> warnings() {
        return List.copyOf(warnings);
    }
}
