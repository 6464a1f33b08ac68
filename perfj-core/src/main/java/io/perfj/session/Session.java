package io.perfj.session;

import io.perfj.perfdata.RecordType;

import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.RecordScan;
import io.perfj.perfdata.feature.EventNames;
import io.perfj.perfdata.record.PerfRecord;
import io.perfj.perfdata.record.RecordDecoder;
import io.perfj.perfdata.record.Sample;
import io.perfj.symbols.Location;
import io.perfj.symbols.Machine;

import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A recording being read: the one pipeline from perf.data records to resolved samples that every
 * perfj command uses. It delivers the records in perf's order (time-sorted within
 * FINISHED_ROUND windows, as perf's ordered-events queue does), keeps the process model
 * ({@link Machine}: threads, maps, DSOs, kernel and BPF symbols) current as records arrive, and
 * resolves a sample's addresses, callchain, DWARF-unwound user stack and inlined frames against
 * the model of the sample's moment.
 *
 * <pre>{@code
 * try (Session s = Session.open(Path.of("perf.data"), SessionOptions.defaults())) {
 *     s.forEachSample(r -> System.out.println(r.comm() + " " + r.leaf().symbol()));
 * }
 * }</pre>
 *
 * <p>{@link #forEachSample} hands out {@link ResolvedSample}s; {@link #run} is the lower-level
 * loop the commands use (a handler sees each sample's fixed fields in place and decodes or
 * resolves only what it needs, with {@link #resolver()}). A session is read once, and its
 * handler is called on the caller's thread only.
 *
 * <p>Threads: when the handler decodes samples, a second thread reads, orders and decodes the
 * records ahead of the caller, and, for recordings with copied user stacks
 * ({@code --call-graph dwarf}), unwinds them there too, against a process model of its own fed
 * the same records; the caller's thread keeps the process model the handler sees, resolves
 * symbols and runs the handler. A third, daemon thread loads symbol tables ahead. What is
 * delivered, in which order, with which warnings, does not depend on the threads: with the system
 * property {@value #THREADS_PROPERTY}{@code =1} everything runs on the caller's thread, with the
 * same output. Bad input ends the loop with an {@link io.perfj.io.FormatException} (or whatever
 * the second thread met, as itself) after every record before the damage was delivered.
 *
 * <p>Subprocesses: naming the functions inlined at callchain addresses (unwound
 * {@code --call-graph dwarf} frames, and recorded ones under {@link RecordedInlines#NAMED}) may
 * run binutils' {@code addr2line}, asked ahead on the second thread; nothing else in a session
 * starts a process.
 */
public final class Session implements AutoCloseable {
    /** The callchain limit perf uses when none is given ({@code sysctl kernel.perf_event_max_stack}). */
    public static final int DEFAULT_MAX_STACK = 127;
    /** The system property that limits a run to the caller's thread ({@code 1}); see {@link #threads()}. */
    public static final String THREADS_PROPERTY = "perfj.threads";

    private final PerfData data;
    private final boolean ownsData;
    private final SessionOptions options;
    private final MachineResolver resolver;
    /** The code loads of the processes' jitdumps, delivered as MMAP2 records at their times. */
    private final JitInjection jit;
    private final List<String> recordWarnings = new ArrayList<>();
    /** What the run read and what was lost, for perf's warnings at the end. */
    private final LossCounts loss = new LossCounts();
    /** Whether the handler printed the LOST records itself (perf script --show-lost-events). */
    private boolean lostShown;
    private boolean ran;
    /** What to synthesize from Intel PT trace (null: nothing), and the decoding under way. */
    private io.perfj.intelpt.PtSynthOptions itraceOptions;
    private ItraceInjection itrace;
    /** Threads for this session alone (tests), 0 for {@link #threads()}. */
    private int threadsOverride;

    private Session(PerfData data, boolean ownsData, SessionOptions options) {
        this.data = data;
        this.ownsData = ownsData;
        this.options = options;
        this.resolver = new MachineResolver(data, options.symbols(), options.quirks(), options.names());
        this.jit = new JitInjection(data, options.symbols());
        this.recordedInlines = RecordedInlines.of(options.compat(), true);
        this.unwoundInlines = UnwoundInlines.of(options.compat(), true);
    }

    /** Opens a perf.data file (mapped, never written). */
    public static Session open(Path file, SessionOptions options) {
        PerfData d = PerfData.open(file);
        try {
            return new Session(d, true, options);
        } catch (RuntimeException | Error e) {
            d.close();
            throw e;
        }
    }

    /** Reads a pipe-mode recording ({@code perf record -o -}) from a stream; {@code name} names it in messages. */
    public static Session open(InputStream in, String name, SessionOptions options) {
        PerfData d = PerfData.openStream(in, name);
        try {
            return new Session(d, true, options);
        } catch (RuntimeException | Error e) {
            d.close();
            throw e;
        }
    }

    /** A session over a recording opened by the caller, who keeps closing it. */
    public static Session of(PerfData data, SessionOptions options) {
        return new Session(data, false, options);
    }

    /** The recording: header, events, features. */
    public PerfData data() {
        return data;
    }

    public SessionOptions options() {
        return options;
    }

    /** The strategies this session was opened with ({@link SessionOptions#quirks()}). */
    public Quirks quirks() {
        return options.quirks();
    }

    public Compat compat() {
        return options.compat();
    }

    /** How this session names symbols. */
    public io.perfj.symbols.Demangling names() {
        return options.names();
    }

    /** The process model, as of the record being delivered. */
    public Machine machine() {
        return resolver.machine();
    }

    /** Address, thread-name, unwinding and inline lookups against the current model. */
    public MachineResolver resolver() {
        return resolver;
    }

    /**
     * The events' names as perf prints them, by index. In pipe mode events arrive with the
     * records, so ask again once samples have come.
     */
    public List<String> eventNames() {
        List<String> names = EventNames.names(data);
        if (itrace == null || itrace.names().isEmpty()) {
            return names;
        }
        List<String> out = new ArrayList<>(names);
        itrace.names().forEach((i, n) -> {
            if (i < out.size()) {
                out.set(i, n);
            }
        });
        return out;
    }

    /**
     * Whether {@code data} holds Intel PT trace (an AUXTRACE_INFO of Intel PT type before its
     * first sample), which perf decodes by default.
     */
    public static boolean hasIntelPt(PerfData data) {
        if (data.isPipe() || !data.header().hasFeature(io.perfj.perfdata.FeatureId.AUXTRACE)) {
            return false;
        }
        io.perfj.perfdata.RecordInput in = data.records();
        for (io.perfj.perfdata.RawRecord r = in.next(); r != null; r = in.next()) {
            if (r.type() == io.perfj.perfdata.RecordType.AUXTRACE_INFO) {
                return r.bytes().size() >= 12 && r.bytes().u32(8) == io.perfj.intelpt.IntelPtInfo.AUX_TYPE;
            }
            if (r.type() == io.perfj.perfdata.RecordType.SAMPLE) {
                return false;
            }
        }
        return false;
    }

    /** Whether {@code e} is an event synthesized from instruction trace (see {@link #itrace}). */
    public boolean synthesized(io.perfj.perfdata.Evsel e) {
        return itrace != null && itrace.names().containsKey(e.index());
    }

    /**
     * Decodes the recording's Intel PT trace as it runs, and delivers the samples (and errors, as
     * PERF_RECORD_AUXTRACE_ERROR records to {@link RecordHandler#record}) that {@code o} asks for
     * among the recorded ones, as perf's {@code --itrace} does. Set before {@link #run}; the
     * synthesized events join the event list when the run starts.
     */
    public Session itrace(io.perfj.intelpt.PtSynthOptions o) {
        itraceOptions = o;
        return this;
    }

    /**
     * Delivers every record in perf's order: samples to {@link RecordHandler#sample}, other
     * records to the process model (with the handler's hooks around it). A session runs once.
     */
    public void run(RecordHandler h) {
        if (ran) {
            throw new IllegalStateException(data.name() + ": a session is read once");
        }
        ran = true;
        itrace = ItraceInjection.of(data, resolver.machine(), itraceOptions);
        SampleRef ref = new SampleRef(data.evlist());
        lostShown = h.showsLostRecords();
        RecordHandler handler = h.preloadsSymbols() && runThreads() > 1 ? new Preloading(h) : h;
        try {
            read(handler, ref);
        } finally {
            if (handler instanceof Preloading p) {
                p.stop();
            }
        }
    }

    /**
     * Starts loading the symbol tables of the objects the recording lists as hit when the first
     * sample comes (the records describing the processes that existed at the start of the
     * recording are in by then), on one daemon thread: loading kallsyms and ELF symbol tables is
     * a good part of a report's work, and the main thread is busy with the records meanwhile.
     */
    private final class Preloading implements RecordHandler {
        private final RecordHandler h;
        private java.util.concurrent.ExecutorService pool;

        private boolean started;

        Preloading(RecordHandler h) {
            this.h = h;
            // kallsyms needs no record: read while the first records are decoded and unwound
            machine().preloadKernel(pool());
        }

        private java.util.concurrent.ExecutorService pool() {
            if (pool == null) {
                pool = java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
                    java.lang.Thread t = new java.lang.Thread(r, "perfj-symbols");
                    t.setDaemon(true);
                    return t;
                });
            }
            return pool;
        }

        @Override
        public void sample(SampleRef s) {
            if (!started) {
                started = true;
                machine().preloadSymbols(pool());
            }
            h.sample(s);
        }

        @Override
        public void beforeModel(PerfRecord r) {
            h.beforeModel(r);
        }

        @Override
        public void record(PerfRecord r) {
            h.record(r);
        }

        @Override
        public boolean decodesSamples() {
            return h.decodesSamples();
        }

        @Override
        public boolean unwindsUserStacks() {
            return h.unwindsUserStacks();
        }

        @Override
        public boolean namesInlinedFrames() {
            return h.namesInlinedFrames();
        }

        @Override
        public boolean inFileOrder() {
            return h.inFileOrder();
        }

        void stop() {
            if (pool != null) {
                pool.shutdown(); // a load under way finishes: interrupting it would leave its table empty
            }
        }
    }

    private void read(RecordHandler h, SampleRef ref) {
        RecordScan scan = h.decodesSamples() || h.inFileOrder() ? null : data.scan();
        if (scan != null) {
            try (scan) {
                while (scan.next()) {
                    if (scan.isSample()) {
                        loss.record(RecordType.SAMPLE, 1);
                        if (jit.any()) {
                            injectDue(scan.time(), h);
                        }
                        if (itrace != null) {
                            itrace.beforeSample(scan.time(), h, ref);
                        }
                        ref.at(scan);
                        h.sample(ref);
                    } else {
                        deliver(RecordDecoder.decode(scan.record(), data.evlist()), ref, h);
                    }
                }
                flushItrace(h, ref);
                recordWarnings.addAll(scan.warnings());
            }
        } else if (runThreads() < 2) {
            try (DecodedRecords in = DecodedRecords.inline(data, null, h.inFileOrder())) {
                for (PerfRecord r; (r = in.next()) != null; ) {
                    deliver(r, ref, h);
                }
                flushItrace(h, ref);
                recordWarnings.addAll(in.warnings());
            }
        } else {
            UnwindAhead stage = h.unwindsUserStacks() ? UnwindAhead.forRecording(data, options, resolver::inlineNames,
                    h.namesInlinedFrames(), recordedInlines) : null;
            DecodedRecords in = DecodedRecords.threaded(data, stage, DecodedRecords.Bounds.DEFAULT, h.inFileOrder());
            try {
                for (PerfRecord r; (r = in.next()) != null; ) {
                    if (stage != null && r instanceof Sample s) {
                        resolver.unwoundAhead(s, in.ahead());
                    }
                    deliver(r, ref, h);
                }
                flushItrace(h, ref);
                recordWarnings.addAll(in.warnings());
            } finally {
                in.close();
                resolver.unwoundAhead(null, null);
                if (stage != null && in.producerDone()) {
                    stage.close();
                }
            }
        }
    }

    /** Limits this session to {@code n} threads (1: the caller's alone), whatever the system property says. */
    Session threads(int n) {
        threadsOverride = n;
        return this;
    }

    private int runThreads() {
        return threadsOverride > 0 ? threadsOverride : threads();
    }

    /**
     * How many threads this session and its handler may keep busy (1: the caller's alone; see
     * {@link #threads()}): handlers that split their own work use it, so that one switch makes
     * a whole run single-threaded.
     */
    public int threadCount() {
        return runThreads();
    }

    /**
     * How many threads a run may keep busy: 1 with the system property
     * {@value #THREADS_PROPERTY}{@code =1} (or on one processor), which reads, decodes, unwinds
     * and hands over every record on the caller's thread; the output is the same either way.
     */
    static int threads() {
        String p = System.getProperty(THREADS_PROPERTY);
        if (p != null) {
            try {
                return Math.max(1, Integer.parseInt(p.trim()));
            } catch (NumberFormatException e) {
                // not a number: the default
            }
        }
        return Runtime.getRuntime().availableProcessors();
    }

    private void flushItrace(RecordHandler h, SampleRef ref) {
        if (itrace != null) {
            itrace.flush(h, ref);
        }
    }

    private void deliver(PerfRecord r, SampleRef ref, RecordHandler h) {
        loss.record(r.type(), r.raw().count());
        if (r instanceof io.perfj.perfdata.record.KernelRecord.LostSamples l) {
            loss.lostSamples(l.lost());
        }
        if (itrace != null) {
            long t = r instanceof Sample s ? s.time()
                    : r instanceof io.perfj.perfdata.record.KernelRecord k ? k.sampleId().time() : 0;
            itrace.before(r, t, h, ref);
            if (r instanceof Sample s) {
                r = itrace.withCallchain(s);
            }
        }
        if (r instanceof Sample s) {
            if (jit.any()) {
                injectDue(s.time(), h);
            }
            ref.at(s);
            h.sample(ref);
            return;
        }
        if (jit.any() && r instanceof io.perfj.perfdata.record.KernelRecord k && k.sampleId().time() != -1) {
            injectDue(k.sampleId().time(), h);
        }
        if (jit.drops(r)) {
            return;
        }
        h.beforeModel(r);
        resolver.process(r);
        h.record(r);
        jit.mapped(r, resolver.machine());
    }

    /** Delivers the jitdump code loads due by {@code time} (-1: all), as the records they stand for. */
    private void injectDue(long time, RecordHandler h) {
        for (PerfRecord r; (r = jit.due(time)) != null; ) {
            h.beforeModel(r);
            resolver.process(r);
            h.record(r);
        }
    }

    /**
     * Delivers every record as stored, compressed records and their contents included, to
     * {@code h}, and the non-sample records it decodes to the process model after it: in perf's
     * order, or in file order when {@code inFileOrder} (perf without {@code sample_id_all}).
     * Returns nothing itself: {@link #warnings()} has what was cut short. A session runs once.
     */
    public void runRecords(RawRecordHandler h, boolean inFileOrder) {
        if (ran) {
            throw new IllegalStateException(data.name() + ": a session is read once");
        }
        ran = true;
        io.perfj.perfdata.RecordInput in = inFileOrder ? data.records() : data.orderedRecords();
        for (io.perfj.perfdata.RawRecord r = in.next(); r != null; r = in.next()) {
            loss.record(r.type(), r.count());
            PerfRecord rec = h.record(r);
            if (rec instanceof io.perfj.perfdata.record.KernelRecord.LostSamples l) {
                loss.lostSamples(l.lost());
            }
            if (rec != null && !(rec instanceof Sample)) {
                resolver.process(rec);
            }
        }
        recordWarnings.addAll(in.warnings());
    }

    /**
     * Every sample, resolved: its thread's name, and its stack as {@link #resolveStack} gives it
     * with perf's default limit of {@value #DEFAULT_MAX_STACK} frames.
     */
    public void forEachSample(Consumer<? super ResolvedSample> consumer) {
        forEachSample(ref -> true, consumer);
    }

    /**
     * As {@link #forEachSample(Consumer)}, for the samples {@code keep} accepts: it sees each
     * sample's fixed fields (pid, tid, time, cpu) before anything is decoded or resolved, and
     * the process model of the sample's moment ({@link #resolver()}), so a rejected sample costs
     * no symbol lookup.
     */
    public void forEachSample(java.util.function.Predicate<? super SampleRef> keep,
                              Consumer<? super ResolvedSample> consumer) {
        forEachSample(keep, true, consumer);
    }

    /**
     * As {@link #forEachSample(java.util.function.Predicate, Consumer)}; {@code stacks} false
     * resolves the sampled address alone (the one frame of each sample, {@link
     * ResolvedSample#sampled()}) from the sample's fixed fields, so that a mapped recording is
     * read in place and no callchain is decoded, walked or unwound.
     */
    public void forEachSample(java.util.function.Predicate<? super SampleRef> keep, boolean stacks,
                              Consumer<? super ResolvedSample> consumer) {
        ChainWalk walk = ChainWalk.of(this);
        List<Location> frames = new ArrayList<>();
        run(new RecordHandler() {
            private List<String> names = List.of();

            @Override
            public void sample(SampleRef ref) {
                if (!keep.test(ref)) {
                    return;
                }
                if (!stacks) {
                    int ev = ref.event();
                    if (ev >= names.size()) {
                        names = eventNames();
                    }
                    Location own = resolver.resolveCached(ref.pid(), ref.tid(), ref.cpumode(), ref.ip());
                    consumer.accept(new ResolvedSample(ev, names.get(ev), ref.pid(), ref.tid(), ref.cpu(), ref.time(),
                            ref.period(), ref.cpumode(), resolver.comm(ref.pid(), ref.tid()), List.of(own), own, false));
                    return;
                }
                Sample s = ref.sample();
                int ev = s.evsel().index();
                if (ev >= names.size()) {
                    names = eventNames();
                }
                frames.clear();
                boolean chain = resolveStack(s, DEFAULT_MAX_STACK, walk, frames);
                Location own = chain || frames.isEmpty()
                        ? resolver.resolveCached(s.pid(), s.tid(), s.cpumode(), s.ip()) : frames.getFirst();
                consumer.accept(new ResolvedSample(ev, names.get(ev), s.pid(), s.tid(), s.cpu(), s.time(),
                        s.period(), s.cpumode(), resolver.comm(s.pid(), s.tid()), frames, own, chain));
            }

            @Override
            public boolean decodesSamples() {
                return stacks;
            }
        });
    }

    /**
     * A sample's stack, innermost first, into {@code out}: the recorded callchain as perf walks
     * it (context markers switch the cpumode; an invalid marker drops the chain), the user part
     * unwound from the stack copy for {@code --call-graph dwarf} samples, functions inlined at an
     * unwound address and at a recorded one as frames of their own as the compat mode says
     * ({@link UnwoundInlines}, {@link RecordedInlines}); the sampled address alone when there is no chain.
     * At most {@code maxStack} recorded and {@code maxStack} unwound addresses, as perf limits them.
     *
     * @return whether the frames came from a callchain (false: the sampled address alone)
     */
    public boolean resolveStack(Sample s, int maxStack, ChainWalk walk, List<Location> out) {
        return resolveStack(s, maxStack, walk, out, true);
    }

    /**
     * As {@link #resolveStack(Sample, int, ChainWalk, List)}; {@code inlines} false leaves the
     * functions inlined at any address out (perf's --no-inline): one frame per address.
     */
    public boolean resolveStack(Sample s, int maxStack, ChainWalk walk, List<Location> out, boolean inlines) {
        long[] user = resolver.unwindUser(s);
        boolean chain = s.callchain() != null && s.callchain().size() > 0 || user != null;
        if (!chain) {
            out.add(resolver.resolveCached(s.pid(), s.tid(), s.cpumode(), s.ip()));
            return false;
        }
        if (walk.walk(s, user, maxStack)) {
            RecordedInlines recorded = recordedInlines(inlines);
            UnwoundInlines unwound = unwoundInlines(inlines);
            recorded.prefetch(resolver, walk, s.pid(), s.tid());
            for (int i = 0; i < walk.size(); i++) {
                Location loc = resolver.resolveCached(s.pid(), s.tid(), walk.mode(i), walk.ip(i));
                if (loc.dso() == null) {
                    out.add(loc);
                } else if (walk.unwound(i)) {
                    out.addAll(unwound.frames(resolver, loc));
                } else {
                    out.addAll(recorded.frames(resolver, loc));
                }
            }
        }
        return true;
    }

    /** What a recorded callchain address becomes when inlined functions are named ({@link RecordedInlines}). */
    private final RecordedInlines recordedInlines;

    /** The rule for recorded callchain addresses of this session's compat mode, with inlined functions named or not. */
    public RecordedInlines recordedInlines(boolean inlines) {
        return inlines ? recordedInlines : RecordedInlines.NONE;
    }

    /** What an unwound user frame becomes ({@link UnwoundInlines}). */
    private final UnwoundInlines unwoundInlines;

    /** The rule for unwound user frames of this session's compat mode, with inlined functions named or not. */
    public UnwoundInlines unwoundInlines(boolean inlines) {
        return inlines ? unwoundInlines : UnwoundInlines.NONE;
    }

    /**
     * Warnings about the recording (cut short, records that could not be unpacked) and about
     * resolving it (objects not found, build-id mismatches), once the records have been read.
     */
    public List<String> warnings() {
        List<String> all = new ArrayList<>(data.warnings());
        all.addAll(recordWarnings);
        all.addAll(resolver.warnings());
        all.addAll(jit.warnings());
        all.addAll(lossWarnings());
        if (itrace != null) {
            all.addAll(itrace.warnings());
        }
        return all;
    }

    /**
     * perf's warnings at the end of a run over a recording that lost events: LOST records (the
     * chunks the kernel could not write; not when the handler printed them itself) and more than
     * 5% of the samples dropped (LOST_SAMPLES), each a few lines starting "Warning:".
     */
    public List<String> lossWarnings() {
        return loss.warnings(lostShown);
    }

    /** Warnings about the record stream alone (a recording cut short, records not unpacked). */
    public List<String> recordWarnings() {
        return List.copyOf(recordWarnings);
    }

    /**
     * Ends what the session started (addr2line processes, objects mapped for unwinding) and,
     * when the session opened the recording, closes it.
     */
    @Override
    public void close() {
        resolver.close();
        if (ownsData) {
            data.close();
        }
    }
}
