package io.perfj.report;

import io.perfj.perfdata.EventAttr;
import io.perfj.perfdata.Evsel;
import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.SampleFormat;
import io.perfj.perfdata.record.KernelRecord;
import io.perfj.perfdata.record.PerfRecord;
import io.perfj.perfdata.record.Sample;
import io.perfj.perfdata.record.SampleId;
import io.perfj.perfdata.record.UserRecord;
import io.perfj.print.EventLine;
import io.perfj.profile.SampleFilter;
import io.perfj.symbols.Location;
import io.perfj.session.ChainWalk;
import io.perfj.session.RecordHandler;
import io.perfj.session.SampleRef;
import io.perfj.session.Session;
import io.perfj.trace.TraceEvents;

import io.perfj.io.TextOut;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code perf script}'s default output (perf 6.1): per sample the command, tid, [cpu] (when the
 * recording has CPU), time, period and event name, then either one {@code ip sym+off (dso)} line
 * per callchain frame and a blank line, or the ip, symbol and DSO on the same line. {@code -F}
 * picks fields.
 */
public final class ScriptPrinter {
    /** Fields of {@code -F}. */
    public enum Field {
        COMM, TID, PID, CPU, TIME, PERIOD, EVENT, IP, SYM, SYMOFF, DSO, SRCLINE, SRCCODE, ADDR, TRACE, BRSTACK, BRSTACKSYM;

        public static Set<Field> parse(String spec) {
            Set<Field> out = EnumSet.noneOf(Field.class);
            for (String s : spec.split(",")) {
                String f = s.trim().toLowerCase(Locale.ROOT);
                if (f.isEmpty()) {
                    continue;
                }
                out.add(of(f));
            }
            return out;
        }

        /** One field by its perf name. */
        static Field of(String name) {
            try {
                return Field.valueOf(name.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("unknown field '" + name
                        + "' (supported: comm, tid, pid, cpu, time, period, event, ip, sym, symoff, dso, srcline, srccode, addr, trace,"
                        + " brstack, brstacksym)");
            }
        }

        /**
         * perf's -F text as options: a plain list replaces the default fields; every entry
         * starting with '+' or '-' adds it to them or takes it away instead (the two kinds do not
         * mix, as in perf).
         */
        public static ScriptOptions choice(String spec, int maxStack) {
            Set<Field> set = EnumSet.noneOf(Field.class);
            Set<Field> add = EnumSet.noneOf(Field.class);
            Set<Field> remove = EnumSet.noneOf(Field.class);
            for (String s : spec.split(",")) {
                String f = s.trim().toLowerCase(Locale.ROOT);
                if (f.isEmpty()) {
                    continue;
                }
                if (f.startsWith("+")) {
                    add.add(of(f.substring(1)));
                } else if (f.startsWith("-")) {
                    remove.add(of(f.substring(1)));
                } else {
                    set.add(of(f));
                }
            }
            if (!set.isEmpty() && !(add.isEmpty() && remove.isEmpty())) {
                throw new IllegalArgumentException("cannot mix +-field with overridden fields");
            }
            return new ScriptOptions(add.isEmpty() && remove.isEmpty() ? set : null, add, remove, maxStack,
                    SampleSelection.ALL, SampleFilter.ALL, false, false, false, false, Set.of(), false);
        }
    }

    private final Session session;
    private final PerfData data;
    private final io.perfj.session.MachineResolver resolver;
    private final TextOut out;
    private final Set<Field> requested;
    private final int maxStack;
    private final ScriptOptions opts;
    private final ChainWalk walk;
    /**
     * --reltime: the time of the first printed event with a time, 0 before it (as in perf, an
     * event at time 0, a synthesized one, does not set it).
     */
    private long initialTime;
    /** perf 7.2's layout, or perf 6.1's under {@code --compat perf-6.1}. */
    private final ScriptLayout scriptLayout;
    private final int idWidth;
    /** --deltatime: the time of the event printed last, 0 before the first (as in perf). */
    private long previousTime;

    /** Prints to {@code out} (bytes: names from the recording are written as UTF-8). */
    public ScriptPrinter(Session session, java.io.OutputStream out, Set<Field> fields, int maxStack) {
        this(session, out, ScriptOptions.of(fields, maxStack));
    }

    /** Prints to {@code out} what {@code opts} asks for. */
    public ScriptPrinter(Session session, java.io.OutputStream out, ScriptOptions opts) {
        this.session = session;
        this.walk = ChainWalk.of(session);
        this.data = session.data();
        this.resolver = session.resolver();
        this.out = new TextOut(out, 1 << 16);
        this.requested = opts.fields();
        this.maxStack = opts.maxStack();
        this.opts = opts;
        this.scriptLayout = ReportQuirks.of(session).scriptLayout();
        this.idWidth = scriptLayout.idWidth();
    }

    /**
     * Fails as perf does when a field asked for by name was not recorded by an event: cpu
     * without PERF_SAMPLE_CPU, addr without PERF_SAMPLE_ADDR.
     *
     * @throws IllegalArgumentException with perf's message
     */
    public void check() {
        Set<Field> asked = EnumSet.noneOf(Field.class);
        if (requested != null) {
            asked.addAll(requested);
        }
        asked.addAll(opts.add());
        for (Evsel e : data.evlist().evsels()) {
            long st = e.attr().sampleType();
            String name = io.perfj.perfdata.feature.EventNames.names(data).get(e.index());
            if (asked.contains(Field.CPU) && (st & SampleFormat.CPU) == 0) {
                throw new IllegalArgumentException(notRecorded(name, "CPU", "cpu"));
            }
            if (asked.contains(Field.ADDR) && (st & SampleFormat.ADDR) == 0) {
                throw new IllegalArgumentException(notRecorded(name, "ADDR", "addr"));
            }
        }
    }

    private static String notRecorded(String event, String attr, String field) {
        return "Samples for '" + event + "' event do not have " + attr + " attribute set. Cannot print '" + field + "' field.";
    }

    /** The fields of each event's lines and its frame-line cache, by event index. */
    private Layout[] layouts = new Layout[0];

    /**
     * What one event's samples print, decided once per event (not a set looked up per field and
     * sample), and the frame lines printed so far.
     */
    private static final class Layout {
        final boolean comm, pid, tid, cpu, time, period, event, addr, ip, trace, brstack, brstacksym, srccode;
        /** An Intel PT event of PERF_TYPE_SYNTH: its fields (config) before the ip; -1 for none. */
        long synth = -1;
        /** A branch event perf prints as "ip => addr" (is_bts_event). */
        boolean bts;
        final FrameLines frames;
        /** What a recorded callchain address becomes (its inlined functions asked for ahead, a chain at a time). */
        final io.perfj.session.RecordedInlines inlines;

        Layout(Set<Field> f, ScriptLayout layout, io.perfj.session.RecordedInlines inlines,
                java.util.function.Function<Location, String> srcline) {
            comm = f.contains(Field.COMM);
            pid = f.contains(Field.PID);
            tid = f.contains(Field.TID);
            cpu = f.contains(Field.CPU);
            time = f.contains(Field.TIME);
            period = f.contains(Field.PERIOD);
            event = f.contains(Field.EVENT);
            addr = f.contains(Field.ADDR);
            ip = f.contains(Field.IP);
            trace = f.contains(Field.TRACE);
            brstack = f.contains(Field.BRSTACK);
            brstacksym = f.contains(Field.BRSTACKSYM);
            srccode = f.contains(Field.SRCCODE);
            this.inlines = inlines;
            frames = new FrameLines(f.contains(Field.SYM), f.contains(Field.SYMOFF), f.contains(Field.DSO), layout,
                    inlines, f.contains(Field.SRCLINE) ? srcline : null);
        }
    }

    /** The source lines of {@code -F srcline}, made for the first event that prints them. */
    private SourceLines sources;

    /**
     * The source line perf script prints after a frame: that of its level of an inline chain
     * ({@link Location#srcline}, printed even where it is {@code ??:0}), else its object's line at
     * the address, or the object and the address without a line table; null where it prints none.
     */
    private String srcline(Location loc) {
        if (sources == null) {
            ReportQuirks quirks = ReportQuirks.of(session);
            sources = new SourceLines(new io.perfj.annotate.SourceLocator(session.machine().finder(),
                    () -> io.perfj.bpf.RecordedBpf.read(data)), true,
                    quirks.srclineNoRowFile(), null, quirks.srclineWithoutTable());
            shows = quirks::scriptPrintsSrcline;
        }
        if (loc.srcline() != null) {
            return loc.srcline(); // addr2line's, printed as it is
        }
        String t = sources.value(loc.dso(), null, loc.mapIp()).line();
        return shows.test(t) ? t : null;
    }

    private io.perfj.annotate.SourceLocator codeLocator;
    /** Source files read for {@code -F srccode}, by path: their lines, or none when unreadable. */
    private final java.util.Map<String, java.util.List<String>> sourceFiles = new java.util.HashMap<>();
    /** By thread: the file and line {@code -F srccode} printed last. */
    private final java.util.Map<Integer, String> lastSource = new java.util.HashMap<>();

    /**
     * {@code -F srccode}: after a sample, the source text of its own address's line, as
     * {@code |LINE     text} (the line number left-aligned in 8), when the line table names a
     * line and its file can be read at the path it gives (a relative path from the working
     * directory); not again while a thread's samples stay on the line it printed last.
     */
    private void srccode(Sample s) {
        if (codeLocator == null) {
            codeLocator = new io.perfj.annotate.SourceLocator(session.machine().finder(),
                    () -> io.perfj.bpf.RecordedBpf.read(data));
        }
        Location loc = resolver.resolve(s.pid(), s.tid(), s.cpumode(), s.ip());
        io.perfj.annotate.SourceLocator.Place p = codeLocator.at(loc.dso(), loc.mapIp());
        if (p == null || p == io.perfj.annotate.SourceLocator.NO_ROW || p.line() <= 0) {
            return;
        }
        String key = p.line() + ":" + p.file();
        if (key.equals(lastSource.get(s.tid()))) {
            return;
        }
        java.util.List<String> lines = sourceFiles.computeIfAbsent(p.file(), ScriptPrinter::sourceLines);
        if (p.line() > lines.size()) {
            return;
        }
        lastSource.put(s.tid(), key);
        String n = Long.toString(p.line());
        out.ch('|').str(n).spaces(8 - n.length()).ch(' ').str(lines.get((int) p.line() - 1)).nl();
    }

    private static java.util.List<String> sourceLines(String path) {
        try {
            String text = new String(java.nio.file.Files.readAllBytes(java.nio.file.Path.of(path)),
                    java.nio.charset.StandardCharsets.UTF_8);
            return java.util.List.of(text.split("\n", -1));
        } catch (java.io.IOException | RuntimeException e) {
            return java.util.List.of();
        }
    }

    /** Whether a source line is printed ({@link #srcline}): all are, but perf 6.1's {@code ??:0}. */
    private java.util.function.Predicate<String> shows;

    private Layout layout(Evsel e) {
        int i = e.index();
        if (i >= layouts.length) {
            layouts = java.util.Arrays.copyOf(layouts, i + 1);
        }
        Layout l = layouts[i];
        if (l == null) {
            l = new Layout(fieldsFor(e), scriptLayout, session.recordedInlines(!opts.noInline()), this::srcline);
            if (session.synthesized(e)) {
                EventAttr a = e.attr();
                l.synth = a.type() == ItraceLines.TYPE_SYNTH ? a.config() : -1;
                l.bts = a.type() == 0 && a.config() == 4 && a.samplePeriod() == 1 && requested == null;
            }
            layouts[i] = l;
        }
        return l;
    }

    private Set<Field> fieldsFor(Evsel e) {
        if (requested != null) {
            return requested;
        }
        long st = e.attr().sampleType();
        Set<Field> f;
        if (session.synthesized(e)) {
            return synthesizedFields(e);
        }
        if (e.attr().type() == TraceEvents.PERF_TYPE_TRACEPOINT) {
            f = EnumSet.copyOf(TracepointLines.defaultFields(st));
            f.addAll(opts.add());
            f.removeAll(opts.remove());
            return f;
        }
        // the symbol's offset is a default field with or without callchains: a sample line
        // without one prints sym+0x.. too (perf's default fields of hardware and software events)
        f = EnumSet.of(Field.COMM, Field.TID, Field.TIME, Field.EVENT, Field.IP, Field.SYM, Field.SYMOFF, Field.DSO);
        // perf drops a default field the samples do not have: the CPU without PERF_SAMPLE_CPU.
        // The period it always has (the attr's fixed period when not sampled).
        if ((st & SampleFormat.CPU) != 0) {
            f.add(Field.CPU);
        }
        f.add(Field.PERIOD);
        f.addAll(opts.add());
        f.removeAll(opts.remove());
        return f;
    }

    /**
     * The default fields of an event synthesized from instruction trace: perf's defaults for its
     * type (PERF_TYPE_SYNTH: no period), the CPU only when the first event of the type has it
     * (perf checks the fields against that event alone).
     */
    private Set<Field> synthesizedFields(Evsel e) {
        Set<Field> f = e.attr().type() == ItraceLines.TYPE_SYNTH
                ? EnumSet.of(Field.COMM, Field.TID, Field.TIME, Field.EVENT, Field.IP, Field.SYM, Field.DSO)
                : EnumSet.of(Field.COMM, Field.TID, Field.TIME, Field.PERIOD, Field.EVENT, Field.IP, Field.SYM, Field.DSO);
        for (Evsel first : data.evlist().evsels()) {
            if (first.attr().type() == e.attr().type()) {
                if ((first.attr().sampleType() & SampleFormat.CPU) != 0) {
                    f.add(Field.CPU);
                }
                break;
            }
        }
        f.addAll(opts.add());
        f.removeAll(opts.remove());
        return f;
    }

    /** Prints every sample; returns the record stream's warnings. */
    public List<String> print() {
        session.run(new RecordHandler() {
            private List<String> names = List.of();
            private int nameWidth;

            @Override
            public boolean namesInlinedFrames() {
                return !opts.noInline() && !opts.hideCallGraph();
            }

            @Override
            public void sample(SampleRef ref) {
                Sample s = ref.sample();
                if (nameWidth == 0) {
                    // in pipe mode the events are known once samples come
                    names = session.eventNames();
                    for (String n : names) {
                        nameWidth = Math.max(nameWidth, n.length());
                    }
                }
                if (selects(ref)) {
                    ScriptPrinter.this.sample(s, names.get(s.evsel().index()), nameWidth);
                    if (layout(s.evsel()).srccode) {
                        srccode(s);
                    }
                }
            }

            @Override
            public void beforeModel(io.perfj.perfdata.record.PerfRecord r) {
                // perf prints an EXIT before the model forgets the thread, the others after
                if (r instanceof KernelRecord.Exit && shown(r)) {
                    sideBand(r);
                }
            }

            @Override
            public void record(io.perfj.perfdata.record.PerfRecord r) {
                if (r instanceof io.perfj.perfdata.record.UserRecord.AuxtraceError e) {
                    ItraceLines.error(e, out);
                    return;
                }
                for (Layout l : layouts) {
                    if (l != null) {
                        l.frames.invalidate(r);
                    }
                }
                if (!(r instanceof KernelRecord.Exit) && shown(r)) {
                    sideBand(r);
                }
            }

            @Override
            public boolean inFileOrder() {
                return opts.sideBand().contains(ScriptOptions.SideBand.ROUND);
            }

            @Override
            public boolean showsLostRecords() {
                return opts.sideBand().contains(ScriptOptions.SideBand.LOST);
            }
        });
        out.flush();
        return session.recordWarnings();
    }

    private TracepointLines tracepoints;

    /** What reading the tracing data and formatting tracepoint samples met (after {@link #print()}). */
    public List<String> traceWarnings() {
        return tracepoints == null ? List.of() : tracepoints.warnings();
    }

    private TracepointLines tracepoints() {
        if (tracepoints == null) {
            tracepoints = new TracepointLines(data, resolver);
        }
        return tracepoints;
    }

    private final List<Location> stack = new java.util.ArrayList<>();

    /** Whether the sample passes -C, --time and the thread and symbol filters. */
    private boolean selects(SampleRef s) {
        if (!opts.select().keeps(s.cpu(), s.time())) {
            return false;
        }
        SampleFilter f = opts.filter();
        if (!f.filters()) {
            return true;
        }
        String comm = f.comms() == null ? null : resolver.comm(s.pid(), s.tid());
        if (f.comms() != null && !f.comms().contains(comm)
                || f.pids() != null && !f.pids().contains(s.pid())
                || f.tids() != null && !f.tids().contains(s.tid())) {
            return false;
        }
        if (f.symbols() != null) {
            io.perfj.symbols.Location l = resolver.resolve(s.pid(), s.tid(), s.cpumode(), s.ip());
            return l.symbol() != null && session.names().isAsked(f.symbols(), l.symbol().name());
        }
        return true;
    }

    private void sample(Sample s, String event, int nameWidth) {
        Layout f = layout(s.evsel());
        stack.clear();
        // A recorded callchain without a user stack to unwind (frame pointers, or the kernel
        // part alone): its lines come by address from the frame cache, each address resolved
        // once until the model changes. Otherwise the session resolves the whole stack
        // (unwinding, inlined frames).
        boolean byAddress = f.ip && (s.userStack() == null || opts.hideCallGraph());
        boolean chain;
        if (byAddress) {
            chain = !opts.hideCallGraph() && s.callchain() != null && s.callchain().size() > 0;
            resolver.seen(s.pid(), s.tid()); // the thread exists from its first sample on, as resolving makes it
            if (chain) {
                walk.walk(s, null, maxStack); // an invalid context marker leaves no frames
                f.inlines.prefetch(resolver, walk, s.pid(), s.tid());
            }
        } else {
            chain = f.ip && session.resolveStack(s, maxStack, walk, stack, !opts.noInline());
        }
        if (f.comm) {
            String comm = resolver.comm(s.pid(), s.tid());
            if (chain) {
                out.str(comm);
            } else {
                out.strPad(comm, 16);
            }
            out.ch(' ');
        }
        pidTid(f, s.pid(), s.tid());
        if (f.cpu) {
            out.ch('[').decZero(s.cpu(), 3).str("] ");
        }
        if (f.time) {
            time(s.time());
        }
        if (f.period) {
            long p = s.period();
            out.spaces(10 - TextOut.udecWidth(p)).udec(p).ch(' ');
        }
        if (f.event) {
            out.strPad(event, nameWidth).str(": ");
        }
        if (f.synth >= 0) {
            ItraceLines.synth(s, f.synth, out);
        }
        if (f.addr) {
            out.hexSpaces(s.addr(), 16).ch(' ');
        }
        if (f.trace) {
            tracepoints().print(s, out);
        }
        if (!f.ip) {
            branches(s, f);
            out.nl();
            return;
        }
        if (byAddress) {
            int gen = f.frames.generation(s.pid());
            if (chain) {
                out.nl();
                for (int i = 0; i < walk.size(); i++) {
                    out.ch('\t');
                    f.frames.print(s.pid(), s.tid(), walk.mode(i), walk.ip(i), gen, resolver, out);
                    out.nl();
                }
                branches(s, f);
                out.nl();
            } else if (opts.hideCallGraph() || (s.evsel().attr().sampleType() & SampleFormat.CALLCHAIN) == 0) {
                out.ch(' ');
                f.frames.printRaw(resolver.resolve(s.pid(), s.tid(), s.cpumode(), s.ip()), out);
                if (f.bts) {
                    // the branch's target, in the mode of its address (perf's thread__resolve)
                    int mode = s.addr() < 0 ? io.perfj.symbols.Machine.CPUMODE_KERNEL : io.perfj.symbols.Machine.CPUMODE_USER;
                    out.str(" => ");
                    f.frames.printRaw(resolver.resolve(s.pid(), s.tid(), mode, s.addr()), out);
                }
                branches(s, f);
                out.nl();
            } else {
                out.ch(' ');
                f.frames.printSampleIp(resolver.resolve(s.pid(), s.tid(), s.cpumode(), s.ip()), out);
                branches(s, f);
                out.nl();
            }
        } else if (chain) {
            out.nl();
            for (Location l : stack) {
                out.ch('\t');
                f.frames.print(l, out);
                out.nl();
            }
            branches(s, f);
            out.nl();
        } else {
            out.ch(' ');
            f.frames.printSampleIp(stack.getFirst(), out);
            branches(s, f);
            out.nl();
        }
    }

    /** Whether {@code --show-*-events} asked for this record. */
    private boolean shown(PerfRecord r) {
        Set<ScriptOptions.SideBand> show = opts.sideBand();
        if (show.isEmpty()) {
            return false;
        }
        return switch (r) {
            case KernelRecord.Comm c -> show.contains(ScriptOptions.SideBand.TASK);
            case KernelRecord.Fork f -> show.contains(ScriptOptions.SideBand.TASK);
            case KernelRecord.Exit x -> show.contains(ScriptOptions.SideBand.TASK);
            case KernelRecord.Mmap m -> show.contains(ScriptOptions.SideBand.MMAP);
            case KernelRecord.Mmap2 m -> show.contains(ScriptOptions.SideBand.MMAP);
            case KernelRecord.Switch w -> show.contains(ScriptOptions.SideBand.SWITCH);
            case KernelRecord.SwitchCpuWide w -> show.contains(ScriptOptions.SideBand.SWITCH);
            case KernelRecord.Namespaces n -> show.contains(ScriptOptions.SideBand.NAMESPACE);
            case KernelRecord.Cgroup c -> show.contains(ScriptOptions.SideBand.CGROUP);
            case KernelRecord.Lost l -> show.contains(ScriptOptions.SideBand.LOST);
            case UserRecord.FinishedRound f -> show.contains(ScriptOptions.SideBand.ROUND);
            case KernelRecord.Ksymbol k -> show.contains(ScriptOptions.SideBand.BPF)
                    || show.contains(ScriptOptions.SideBand.TEXT_POKE);
            case KernelRecord.BpfEvent b -> show.contains(ScriptOptions.SideBand.BPF);
            case KernelRecord.TextPoke t -> show.contains(ScriptOptions.SideBand.TEXT_POKE);
            default -> false;
        };
    }

    /**
     * One record of {@code --show-*-events} as perf script prints it: the sample fields its
     * event's lines start with (command, tid, cpu, time, from the record's sample_id; without
     * sample_id_all cpu 0, the record's own pid/tid, time 0 or a fork's or exit's time), then
     * {@code PERF_RECORD_NAME} and its fields. FINISHED_ROUND has no start. The command is
     * that of the thread the record is about (COMM, FORK, EXIT, MMAP, NAMESPACES), else of
     * the sample_id's thread, {@code :-1} for none.
     */
    private void sideBand(PerfRecord r) {
        if (r instanceof UserRecord.FinishedRound) {
            for (int i = 0; i < r.raw().count(); i++) {
                EventLine.print(r, out); // each of a run of rounds
            }
            return;
        }
        if (!(r instanceof KernelRecord k)) {
            return;
        }
        Evsel e = data.evlist().evselOf(r.raw());
        if (e == null) {
            EventLine.print(r, out);
            return;
        }
        SampleId id = k.sampleId();
        int pid = id.pid();
        int tid = id.tid();
        int cpu = id.cpu();
        long time = id.time();
        int threadPid;
        int threadTid;
        switch (r) {
            case KernelRecord.Comm c -> { threadPid = c.pid(); threadTid = c.tid(); }
            case KernelRecord.Fork f -> { threadPid = f.pid(); threadTid = f.tid(); }
            case KernelRecord.Exit x -> { threadPid = x.pid(); threadTid = x.tid(); }
            case KernelRecord.Mmap m -> { threadPid = m.pid(); threadTid = m.tid(); }
            case KernelRecord.Mmap2 m -> { threadPid = m.pid(); threadTid = m.tid(); }
            case KernelRecord.Namespaces n -> { threadPid = n.pid(); threadTid = n.tid(); }
            default -> { threadPid = pid; threadTid = tid; }
        }
        if (!e.attr().sampleIdAll()) {
            cpu = 0;
            pid = threadPid;
            tid = threadTid;
            time = switch (r) {
                case KernelRecord.Fork f -> f.time();
                case KernelRecord.Exit x -> x.time();
                default -> 0;
            };
        }
        if (!opts.select().keepsCpu(cpu)) {
            return;
        }
        Layout f = layout(e);
        if (f.comm) {
            String comm = threadTid == -1 ? ":-1" : resolver.comm(threadPid, threadTid);
            if (f.ip && !opts.hideCallGraph() && (e.attr().sampleType() & SampleFormat.CALLCHAIN) != 0) {
                out.str(comm);
            } else {
                out.strPad(comm, 16);
            }
            out.ch(' ');
        }
        pidTid(f, pid, tid);
        if (f.cpu) {
            out.ch('[').decZero(cpu, 3).str("] ");
        }
        if (f.time) {
            time(time);
        }
        EventLine.print(r, out);
    }

    private void pidTid(Layout f, int pid, int tid) {
        if (f.pid && f.tid) {
            out.decPad(pid, idWidth).ch('/').decLeft(tid, idWidth).ch(' ');
        } else if (f.pid) {
            out.decPad(pid, idWidth).ch(' ');
        } else if (f.tid) {
            out.decPad(tid, idWidth).ch(' ');
        }
    }

    /** perf's time column: {@code %12s: } of sec.usec, or {@code %5lu.%09llu: } with --ns. */
    private void time(long t) {
        if (opts.relativeTime()) {
            if (initialTime == 0) {
                initialTime = t;
            }
            t -= initialTime;
        } else if (opts.deltaTime()) {
            long d = previousTime == 0 ? 0 : t - previousTime;
            previousTime = t;
            t = d;
        }
        long sec = Long.divideUnsigned(t, 1_000_000_000L);
        if (opts.nanoseconds()) {
            out.spaces(5 - TextOut.udecWidth(sec)).udec(sec).ch('.')
                    .decZero(Long.remainderUnsigned(t, 1_000_000_000L), 9).str(": ");
        } else {
            long usec = Long.remainderUnsigned(t, 1_000_000_000L) / 1000;
            // %12s of "sec.usec": the seconds' digits, a dot and six digits
            out.spaces(12 - TextOut.udecWidth(sec) - 7).udec(sec).ch('.').decZero(usec, 6).str(": ");
        }
    }

    /** -F brstack / brstacksym: perf prints the branch stack last on the sample's line. */
    private void branches(Sample s, Layout f) {
        if (f.brstack) {
            BranchStackLines.addresses(s, out);
        } else if (f.brstacksym) {
            BranchStackLines.symbols(s, resolver, out);
        }
    }
}
