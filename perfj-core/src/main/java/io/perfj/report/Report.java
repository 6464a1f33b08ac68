package io.perfj.report;

import io.perfj.perfdata.Evsel;
import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.RecordType;
import io.perfj.perfdata.feature.EventGroups;
import io.perfj.perfdata.feature.EventNames;
import io.perfj.perfdata.record.Callchain;
import io.perfj.perfdata.record.KernelRecord;
import io.perfj.perfdata.record.PerfRecord;
import io.perfj.perfdata.record.Sample;
import io.perfj.profile.CallchainKey;
import io.perfj.profile.FrameTable;
import io.perfj.profile.StackTable;
import io.perfj.session.FrameResolver;
import io.perfj.session.ChainWalk;
import io.perfj.session.RecordHandler;
import io.perfj.session.SampleRef;
import io.perfj.session.Session;
import io.perfj.util.LongIntMap;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a recording once and aggregates its samples per event into {@link Hists}: every sample
 * is resolved through the {@link FrameResolver} (which sees the other records in delivery order),
 * its frames interned, its stack interned, and identical (thread, cpu, stack) samples merged
 * before entries and callchain trees are built.
 */
public final class Report {
    private final PerfData data;
    private final ReportOptions opts;
    private final FrameTable frames;
    private final StackTable stacks = new StackTable();
    private final List<Hists> hists = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();
    /** {@link #frameOf}'s caches, by process, cpumode, sample cpumode and chain flag. */
    private final io.perfj.util.KeyedTables<LongIntMap> frameCache = new io.perfj.util.KeyedTables<>(() -> new LongIntMap(64));
    /** {@link #frameOf} for a callchain address in no map: the level comes from its neighbour. */
    private static final int UNMAPPED = -2;
    private static final int UNMAPPED_CACHED = Integer.MAX_VALUE;
    private long lostSamples;
    private long totalSamples;

    /** Command names by id, for {@link AggTable} rows. */
    private final List<String> comms = new ArrayList<>();
    private final Map<String, Integer> commIds = new HashMap<>();
    private String lastComm;
    private int lastCommId;

    private int commId(String comm) {
        if (comm == lastComm) {
            return lastCommId;
        }
        Integer id = commIds.get(comm);
        if (id == null) {
            id = comms.size();
            comms.add(comm);
            commIds.put(comm, id);
        }
        lastComm = comm;
        lastCommId = id;
        return id;
    }

    /**
     * One sample as it came, for reports that follow perf's hist tree sample by sample
     * ({@link #perfOrderedEntries}); {@code maps} numbers the map of each callchain frame.
     */
    private record OrderedSample(int ev, String comm, int pid, int tid, int cpu, int self, int stack, int[] maps,
                                 int trace, long period) {
    }

    /** Samples in recording order, or null when they are merged before aggregation. */
    private List<OrderedSample> inOrder;
    private final java.util.IdentityHashMap<Object, Integer> mapIds = new java.util.IdentityHashMap<>();
    private int[] chainMaps = new int[256];

    /** The compatibility mode's strategies. */
    private final ReportQuirks quirks;

    /** The strategies of the compatibility mode this report was made in. */
    ReportQuirks quirks() {
        return quirks;
    }

    /**
     * Whether entries must be built the way perf builds them, sample by sample through its
     * tree: under {@code --compat perf-6.1} with --children, a symbol sort key and
     * --call-graph dwarf stacks, whose inlined frames perf compares by name (no total order; see
     * {@link io.perfj.compat.PerfHistTree}). Everything else merges identical samples first and
     * keys entries exactly, which is faster.
     */
    private boolean perfOrderedEntries() {
        if (!quirks.insertsSampleBySample(opts.children(), opts.has(SortKey.SYM))) {
            return false;
        }
        for (Evsel e : data.evlist().evsels()) {
            if ((e.attr().sampleType() & io.perfj.perfdata.SampleFormat.STACK_USER) != 0) {
                return true;
            }
        }
        return false;
    }



    /** @param chainLines the source lines of callchain addresses ({@link FrameTable}), null without a session */
    private Report(PerfData data, ReportOptions opts, io.perfj.session.Quirks quirks,
                   java.util.function.Function<io.perfj.symbols.Location, String> chainLines) {
        io.perfj.session.Quirks.Lbr lbrQuirks = quirks.lbr();
        this.quirks = ReportQuirks.of(quirks);
        this.data = data;
        this.opts = opts;
        this.frames = new FrameTable(opts.view() != null && opts.view().verbose(),
                opts.view() == null ? CallchainKey.FUNCTION : opts.view().chainKey(), chainLines);
        this.walk = data == null ? null : ChainWalk.of(lbrQuirks, data.fileBytes());
    }

    /**
     * One row aggregated elsewhere (over many recordings: perfj-fleet): {@code samples} samples
     * of event {@code event} whose own address resolved to {@code self}, with these sort-key
     * values, weighing {@code period} together. {@code chain}: the samples' callchain as
     * {@link io.perfj.session.Session#resolveStack} gives it (innermost first, the sampled address
     * first when the chain holds it), each frame as a report keys it (a frame with a symbol
     * without its addresses), empty without callchains.
     */
    public record MergedRow(int event, String comm, int pid, int tid, int cpu, io.perfj.symbols.Location self,
                            List<io.perfj.symbols.Location> chain, long period, long samples) {
        /** A row without a callchain. */
        public MergedRow(int event, String comm, int pid, int tid, int cpu, io.perfj.symbols.Location self,
                         long period, long samples) {
            this(event, comm, pid, tid, cpu, self, List.of(), period, samples);
        }
    }

    /** Names a thread by its last command name (what the pid column shows), or null when unknown. */
    public interface ThreadNames {
        String comm(int pid, int tid);
    }

    /**
     * A report of rows merged elsewhere, as {@link #build} makes it from one recording's samples
     * without callchains: each row's frame interned as a sample's own address is, the rows added
     * to each event's {@link Hists} in the order given, then ordered as every report's rows are.
     * Equal {@link io.perfj.symbols.Dso} objects must be the same object (a frame's object is
     * compared by identity). Callchains and --children as {@link #build} makes them from each
     * row's {@link MergedRow#chain()} (--max-stack: the frames nearest the leaf, in either order;
     * --hide-unresolved drops frames without a symbol); no trace keys.
     *
     * @param events the events' names, by {@link MergedRow#event()}
     * @param lost   the lost samples of all the recordings
     * @param names  the threads' last names for the pid column (a row's command when it has none)
     */
    public static Report ofRows(ReportOptions opts, List<String> events, Iterable<MergedRow> rows, long lost,
                                ThreadNames names) {
        if (opts.has(SortKey.TRACE) || opts.has(SortKey.TRACE_FIELDS)) {
            throw new IllegalArgumentException("merged rows carry no trace fields");
        }
        if (opts.has(SortKey.SRCLINE) || opts.has(SortKey.SRCFILE)) {
            throw new IllegalArgumentException("merged rows carry no sample addresses for source lines");
        }
        boolean chains = opts.children() || opts.mode() != CallchainMode.NONE;
        Report r = new Report(null, opts, io.perfj.session.Quirks.NONE, null);
        r.hideUnresolved = opts.view() != null && opts.view().hideUnresolved();
        r.lostSamples = lost;
        for (String name : events) {
            r.hists.add(new Hists(null, name, opts, r.frames, r.stacks, ReportQuirks.NONE, io.perfj.symbols.Demangling.CURRENT, 1, null, null));
        }
        for (MergedRow m : rows) {
            r.totalSamples += m.samples();
            int comm = r.commId(m.comm());
            int self = r.frames.intern(m.self());
            int stack = chains ? r.mergedChain(m.chain(), r.frames.get(self).level()) : StackTable.EMPTY;
            r.hists.get(m.event()).add(comm, m.comm(), m.pid(), m.tid(), m.cpu(), self,
                    stack, -1, m.period(), m.samples(), false);
        }
        for (Hists h : r.hists) {
            h.finish(names == null ? null : names::comm);
            h.sortOutput();
        }
        return r;
    }

    /**
     * A merged row's chain as {@link #chainOf} makes a sample's: its frames interned as
     * callchain frames, an address in no map at the level perf gives it in the chosen order.
     */
    private int mergedChain(List<io.perfj.symbols.Location> chain, char sampleLevel) {
        int n = 0;
        for (io.perfj.symbols.Location l : chain) {
            if (n == opts.maxStack()) {
                break;
            }
            int f = l.dso() == null ? UNMAPPED : frames.internChain(l, sampleLevel);
            n = addChainFrame(n, f, l.ip(), l.dso() == null ? modeOf(l.level()) : 0);
        }
        levelUnmapped(n, sampleLevel);
        if (hideUnresolved) {
            n = resolvedOnly(n);
        }
        int stack = StackTable.EMPTY;
        for (int i = 0; i < n; i++) {
            stack = stacks.push(stack, chainFrames[i]);
        }
        return stack;
    }

    /** The cpumode whose level is {@code level} (the inverse of {@link #levelOf}). */
    private static int modeOf(char level) {
        return switch (level) {
            case 'k' -> io.perfj.symbols.Machine.CPUMODE_KERNEL;
            case '.' -> io.perfj.symbols.Machine.CPUMODE_USER;
            case 'g' -> io.perfj.symbols.Machine.CPUMODE_GUEST_KERNEL;
            case 'u' -> io.perfj.symbols.Machine.CPUMODE_GUEST_USER;
            default -> io.perfj.symbols.Machine.CPUMODE_HYPERVISOR;
        };
    }

    /**
     * Reads the session's records once and aggregates them; entries are merged and ordered as
     * {@link Hists} describes, or as perf 6.1 does when the session's compat mode asks for it.
     */
    public static Report build(Session session, ReportOptions opts) {
        return build(session, opts, false);
    }

    /**
     * Like {@link #build(Session, ReportOptions)}; {@code printedOnly}: the entries' callchain
     * trees need to hold only what {@link StdioReport} prints (the graph, flat and folded modes
     * leave out entries below the threshold, whose trees are then not built).
     */
    public static Report build(Session session, ReportOptions opts, boolean printedOnly) {
        Report r = new Report(session.data(), opts, session.quirks(), chainLines(session, opts));
        r.printedOnly = printedOnly;
        r.read(session);
        return r;
    }

    private boolean printedOnly;

    /**
     * The source line the graph prints after a callchain frame's symbol with the address and
     * srcline keys ({@code -g address}, {@code -g srcline}): the line table's {@code file:line}
     * at the address, {@code ??:0} where the table has no row; without a line table the offset
     * into the symbol ({@code +81}, decimal) with the address key, {@code ??:0} with the srcline
     * key. Null with the function key.
     */
    private static java.util.function.Function<io.perfj.symbols.Location, String> chainLines(Session session,
            ReportOptions opts) {
        CallchainKey key = opts.view() == null ? CallchainKey.FUNCTION : opts.view().chainKey();
        if (key == CallchainKey.FUNCTION) {
            return null;
        }
        io.perfj.annotate.SourceLocator locator = new io.perfj.annotate.SourceLocator(session.machine().finder(),
                () -> io.perfj.bpf.RecordedBpf.read(session.data()));
        boolean offsets = key == CallchainKey.ADDRESS;
        return loc -> SourceLines.chainLine(locator, loc, offsets);
    }

    private void read(Session session) {
        FrameResolver resolver = session.resolver();
        // Insertion-ordered, so entries are created in the order perf first meets them.
        List<AggTable> agg = new ArrayList<>();
        boolean keepComm = opts.has(SortKey.COMM) || opts.comms() != null;
        // With --children and callchains perf's output order looks at each entry's thread (the
        // thread of the sample that created it): keep it then. The default order does not.
        boolean byThread = quirks.ordersByCreatingThread(opts.children(), opts.mode() != CallchainMode.NONE);
        boolean keepPid = opts.has(SortKey.PID) || opts.has(SortKey.TID) || opts.pids() != null || byThread;
        boolean keepTid = opts.has(SortKey.PID) || opts.has(SortKey.TID) || opts.tids() != null || byThread;
        boolean keepCpu = opts.has(SortKey.CPU) || opts.cpus() != null;
        boolean wantStacks = opts.mode() != CallchainMode.NONE || opts.children() || opts.parents();
        TraceTexts traces = opts.has(SortKey.TRACE) || opts.has(SortKey.TRACE_FIELDS)
                ? new TraceTexts(session.data(), session.resolver(), opts.has(SortKey.TRACE),
                        opts.has(SortKey.TRACE_FIELDS), quirks.rawTraceFields())
                : null;
        hideUnresolved = opts.view() != null && opts.view().hideUnresolved();
        noInline = opts.view() != null && opts.view().noInline();
        recordedInlines = session.recordedInlines(!noInline);
        unwoundInlines = session.unwoundInlines(!noInline);
        recordedFrames = recordedInlines == io.perfj.session.RecordedInlines.NAMED ? WITH_INLINES : FRAME_ALONE;
        sources = opts.has(SortKey.SRCLINE) || opts.has(SortKey.SRCFILE)
                ? new SourceLines(new io.perfj.annotate.SourceLocator(session.machine().finder(),
                () -> io.perfj.bpf.RecordedBpf.read(session.data())), opts.has(SortKey.SRCLINE),
                quirks.srclineNoRowFile(), quirks.srclineOfChain(), quirks.srclineWithoutTable())
                : null;
        ignoreCallees = opts.view() == null ? null : opts.view().ignoreCallees();
        SampleSelection select = opts.select() == null || opts.select().all() ? null : opts.select();
        inOrder = perfOrderedEntries() ? new ArrayList<>() : null;
        // stacks and rows are made on a second thread when there are callchains to intern;
        // perf's sample-by-sample order (inOrder) needs each stack at once
        SampleAggregator sink = new SampleAggregator(stacks, agg,
                wantStacks && inOrder == null ? session.threadCount() : 1, keepPid, keepTid);
        try {
            session.run(new RecordHandler() {
                @Override
                public boolean namesInlinedFrames() {
                    // callchains only: a report without them asks nothing of addr2line
                    return !noInline && (opts.mode() != CallchainMode.NONE || opts.children() || opts.parents());
                }

                @Override
                public void sample(SampleRef s) {
                    if (select != null && !select.keeps(s.cpu(), s.time())) {
                        return;
                    }
                    int ev = s.event();
                    String comm = resolver.comm(s.pid(), s.tid());
                    int self = frameOf(resolver, s.pid(), s.tid(), s.cpumode(), s.cpumode(), s.ip(), false);
                    // --hide-unresolved: perf drops a sample whose own address has no symbol
                    // before counting it
                    if (hideUnresolved && frames.get(self).sym() == null) {
                        return;
                    }
                    totalSamples++;
                    rootSelf = -1;
                    int n = wantStacks ? chainOf(s.sample(), resolver, frames.get(self).level()) : 0;
                    if (rootSelf >= 0) {
                        self = rootSelf;
                    }
                    int trace = traces == null ? -1 : traces.id(s.sample());
                    if (sources != null) {
                        trace = sourceKey(resolver, s, trace, n);
                    }
                    if (inOrder != null) {
                        int stack = StackTable.EMPTY;
                        for (int i = 0; i < n; i++) {
                            stack = stacks.push(stack, chainFrames[i]);
                        }
                        inOrder.add(new OrderedSample(ev, comm, s.pid(), s.tid(), s.cpu(), self, stack,
                                java.util.Arrays.copyOf(chainMaps, n), trace, s.period()));
                        return;
                    }
                    // Only what the sort keys and filters look at separates samples.
                    sink.add(ev, keepComm ? commId(comm) : -1, s.pid(), s.tid(),
                            keepCpu ? s.cpu() : -1, self, trace, chainFrames, n, s.period());
                }

                @Override
                public void record(PerfRecord rec) {
                    if (rec instanceof KernelRecord.LostSamples ls) {
                        lostSamples += ls.lost();
                    }
                    invalidate(rec);
                }

                @Override
                public boolean decodesSamples() {
                    return wantStacks || traces != null;
                }
            });
        } catch (RuntimeException | Error e) {
            sink.stop();
            throw e;
        }
        sink.finish();
        warnings.addAll(session.recordWarnings());
        if (traces != null) {
            traceWarnings.addAll(traces.warnings());
        }
        List<Evsel> evsels = data.evlist().evsels();
        List<String> names = session.eventNames();
        for (int i = 0; i < evsels.size(); i++) {
            Hists h = new Hists(evsels.get(i), names.get(i), opts, frames, stacks, quirks, session.names(), session.threadCount(),
                    traces, sources);
            if (inOrder != null) {
                h.perfOrdered();
                for (OrderedSample o : inOrder) {
                    if (o.ev() == i) {
                        h.addOrdered(o.comm(), o.pid(), o.tid(), o.cpu(), o.self(), o.stack(), o.maps(), o.trace(),
                                o.period());
                    }
                }
            } else if (i < agg.size()) {
                AggTable t = agg.get(i);
                boolean defer = h.deferChains(printedOnly);
                for (int r = 0; r < t.rows(); r++) {
                    // the entry keeps its first sample's thread whether or not it is a key
                    h.add(t.comm(r), t.comm(r) < 0 ? null : comms.get(t.comm(r)), t.firstPid(r), t.firstTid(r),
                            t.cpu(r), t.self(r), t.stack(r), t.trace(r), t.period(r), t.count(r), defer);
                }
                if (defer) {
                    h.addChains(t, comms);
                    h.finishChains();
                }
            }
            h.finish(resolver);
            hists.add(h);
        }
        group(names);
        for (Hists h : hists) {
            h.sortOutput();
        }
    }

    /**
     * The group view: each group member linked to its leader, whose report then shows the
     * group's description and a column per member (perf's {@code report__collapse_hists} with
     * {@code symbol_conf.event_group}). A group's leader is still counted as one with the view
     * off (perf says "events" above its report).
     */
    private void group(List<String> names) {
        EventGroups recorded = EventGroups.recorded(data);
        EventGroups.Mode mode = opts.view() == null ? EventGroups.Mode.RECORDED : opts.view().groups();
        // --group and --no-group alike make a recording without groups one group (perf's
        // evlist__force_leader when either is given), which --no-group then does not show; perf
        // does it before reading any record, so a pipe's events, which arrive later, stay apart
        EventGroups g = mode == EventGroups.Mode.RECORDED || data.isPipe() ? recorded : recorded.forced();
        for (int i = 0; i < hists.size(); i++) {
            hists.get(i).label(g.isGroupEvent(i) && mode != EventGroups.Mode.NONE ? g.describe(i, names) : null,
                    g.nrMembers(i));
            if (mode != EventGroups.Mode.NONE && !g.isLeader(i)) {
                int leader = g.leader(i);
                hists.get(leader).link(hists.get(i), g.groupIndex(i), g.nrMembers(leader));
            }
        }
    }

    /**
     * The reports to print in the group view: every event but group members, which their
     * leader's report shows. All events when the view is off.
     */
    public List<Hists> shownHists() {
        List<Hists> out = new ArrayList<>();
        java.util.Set<Hists> members = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (Hists h : hists) {
            members.addAll(h.members());
        }
        for (Hists h : hists) {
            if (!members.contains(h)) {
                out.add(h);
            }
        }
        return out;
    }

    /** {@code --hide-unresolved}: samples and callchain frames without a symbol are left out. */
    private boolean hideUnresolved;
    /** {@code --no-inline}: unwound addresses are not expanded into the functions inlined there. */
    private boolean noInline;

    private int[] chainFrames = new int[256];
    private long[] chainIps = new long[256];
    /** By chain frame: its line as a level of an inline chain ({@link io.perfj.symbols.Location#srcline}), or null. */
    private String[] chainSrclines = new String[256];
    private final ChainWalk walk;

    /** The cpumode of each chain frame (from the chain's context markers; user for unwound frames). */
    private int[] chainModes = new int[256];
    /** Whether each chain frame was found by DWARF unwinding. */
    private boolean[] chainUnwound = new boolean[256];

    private int addChainFrame(int n, int frame, long ip, int mode) {
        return addChainFrame(n, frame, ip, mode, null);
    }

    /** @param srcline the frame's line as a level of its address's inline chain, or null */
    private int addChainFrame(int n, int frame, long ip, int mode, String srcline) {
        if (n == chainFrames.length) {
            chainSrclines = java.util.Arrays.copyOf(chainSrclines, n * 2);
            chainFrames = java.util.Arrays.copyOf(chainFrames, n * 2);
            chainIps = java.util.Arrays.copyOf(chainIps, n * 2);
            chainMaps = java.util.Arrays.copyOf(chainMaps, n * 2);
            chainModes = java.util.Arrays.copyOf(chainModes, n * 2);
            chainUnwound = java.util.Arrays.copyOf(chainUnwound, n * 2);
        }
        chainFrames[n] = frame;
        chainIps[n] = ip;
        chainSrclines[n] = srcline;
        chainModes[n] = mode;
        chainUnwound[n] = false;
        return n + 1;
    }

    /**
     * The sample's callchain frames (leaf first) into {@code chainFrames}; returns how many
     * (0 without a callchain).
     */
    private int chainOf(Sample s, FrameResolver resolver, char sampleLevel) {
        Callchain cc = s.callchain();
        if (opts.mode() == CallchainMode.NONE && !opts.children() && !opts.parents()) {
            return 0;
        }
        // --call-graph dwarf: the kernel part comes from the callchain, the user part from
        // unwinding the copied stack.
        long[] user = resolver.unwindUser(s);
        if ((cc == null || cc.size() == 0) && user == null) {
            return 0;
        }
        if (!walk.walk(s, user, opts.maxStack(), opts.callerOrder())) {
            return 0;
        }
        recordedInlines.prefetch(resolver, walk, s.pid(), s.tid());
        int n = 0;
        if (inOrder != null) {
            // only unwound frames name their map; the others keep 0
            java.util.Arrays.fill(chainMaps, 0);
        }
        for (int i = 0; i < walk.size(); i++) {
            long ip = walk.ip(i);
            if (walk.unwound(i)) {
                // an unwound user frame, with what was inlined at it
                io.perfj.symbols.Location loc = resolver.resolve(s.pid(), s.tid(), 2, ip);
                int map = inOrder == null || loc.map() == null ? 0
                        : mapIds.computeIfAbsent(loc.map(), m -> mapIds.size() + 1);
                for (io.perfj.symbols.Location l : loc.dso() == null ? java.util.List.of(loc)
                        : unwoundInlines.frames(resolver, loc)) {
                    int f = l.dso() == null ? UNMAPPED : frames.internChain(l, levelOf(s.cpumode()));
                    if (inOrder != null && l != loc && l.symbol() != null && l.symbol().inlined()) {
                        frames.setBase(f, frames.internChain(loc, levelOf(s.cpumode())));
                    }
                    n = addChainFrame(n, f, ip, 2);
                    chainMaps[n - 1] = map;
                    chainUnwound[n - 1] = true;
                }
            } else {
                n = recordedFrames.add(this, n, resolver, s, walk.mode(i), ip);
            }
        }
        levelUnmapped(n, sampleLevel);
        if (ignoreCallees != null) {
            n = ignoreCallees(n, s, resolver);
        }
        return hideUnresolved ? resolvedOnly(n) : n;
    }

    /** How a recorded callchain address becomes chain frames ({@link io.perfj.session.RecordedInlines}), chosen once. */
    private interface RecordedFrames {
        int add(Report r, int n, FrameResolver resolver, Sample s, int mode, long ip);
    }

    /** The address's frame alone. */
    private static final RecordedFrames FRAME_ALONE = (r, n, resolver, s, mode, ip) ->
            r.addChainFrame(n, r.frameOf(resolver, s.pid(), s.tid(), mode, s.cpumode(), ip, true), ip, mode);

    /**
     * The functions inlined at the address, then its frame (met as the outer level of the chain,
     * with that level's line where callchain nodes print lines).
     */
    private static final RecordedFrames WITH_INLINES = (r, n, resolver, s, mode, ip) -> {
        int f = r.frameOf(resolver, s.pid(), s.tid(), mode, s.cpumode(), ip, true);
        if (f != UNMAPPED) {
            InlineLevels levels = r.inlinedAt(resolver, s.pid(), s.tid(), mode, s.cpumode(), ip);
            if (levels.ids().length > 0) {
                for (int i = 0; i < levels.ids().length; i++) {
                    n = r.addChainFrame(n, levels.ids()[i], ip, mode, levels.srclines()[i]);
                }
                return n;
            }
        }
        return r.addChainFrame(n, f, ip, mode);
    };

    private RecordedFrames recordedFrames = FRAME_ALONE;
    private io.perfj.session.RecordedInlines recordedInlines = io.perfj.session.RecordedInlines.NONE;
    /** What an unwound user frame becomes ({@link io.perfj.session.UnwoundInlines}), chosen once. */
    private io.perfj.session.UnwoundInlines unwoundInlines = io.perfj.session.UnwoundInlines.NONE;
    /** {@link #inlinedAt}'s caches (an index into {@link #inlinedLists}), keyed and emptied as {@link #frameCache}. */
    private final io.perfj.util.KeyedTables<LongIntMap> inlinedCache = new io.perfj.util.KeyedTables<>(() -> new LongIntMap(64));
    /** The chain frames of an address's inline chain and their lines ({@link io.perfj.symbols.Location#srcline}). */
    private record InlineLevels(int[] ids, String[] srclines) {
    }

    private static final InlineLevels NO_FRAMES = new InlineLevels(new int[0], new String[0]);
    private final List<InlineLevels> inlinedLists = new ArrayList<>(List.of(NO_FRAMES));

    /**
     * The chain frames of the functions inlined at a recorded callchain address, innermost
     * first, then the address's own frame as the chain's outer level; none where nothing is
     * inlined. Cached as {@link #frameOf} caches frames.
     */
    private InlineLevels inlinedAt(FrameResolver resolver, int pid, int tid, int mode, int sampleMode, long ip) {
        LongIntMap m = inlinedCache.get(((long) ((mode << 4) | (sampleMode << 1)) << 32) | ((mode == 1 ? -1 : pid) & 0xffff_ffffL));
        int at = m.get(ip);
        if (at < 0) {
            io.perfj.symbols.Location loc = resolver.resolve(pid, tid, mode, ip);
            List<io.perfj.symbols.Location> all = loc.dso() == null ? List.of(loc)
                    : resolver.withRecordedInlines(loc);
            at = 0;
            if (all.size() > 1) {
                int[] ids = new int[all.size()];
                String[] lines = new String[ids.length];
                for (int i = 0; i < ids.length; i++) {
                    ids[i] = frames.internChain(all.get(i), levelOf(sampleMode));
                    lines[i] = all.get(i).srcline();
                }
                at = inlinedLists.size();
                inlinedLists.add(new InlineLevels(ids, lines));
            }
            m.put(ip, at);
        }
        return inlinedLists.get(at);
    }

    /** {@code --ignore-callees}, or null. */
    private java.util.regex.Pattern ignoreCallees;
    /** Per frame id, whether {@link #ignoreCallees} finds its symbol: 0 not asked yet, 1 yes, 2 no. */
    private byte[] ignoredAt = new byte[256];
    /** The sample's own frame as {@link #ignoreCallees} made it for the last chain, or -1. */
    private int rootSelf = -1;

    /**
     * perf's --ignore-callees: walking the chain in the chosen order (from the root in caller
     * order), a frame whose symbol matches forgets the frames walked before it and becomes the
     * sample's own frame (perf's {@code root_al}), so the last match in walk order wins. Keeps
     * that frame and those walked after it (the chain is leaf first here); sets {@link #rootSelf}.
     */
    private int ignoreCallees(int n, Sample s, FrameResolver resolver) {
        int from = -1;
        boolean fromRoot = opts.callerOrder();
        for (int i = 0; i < n; i++) {
            int f = chainFrames[i];
            if (f >= ignoredAt.length) {
                ignoredAt = java.util.Arrays.copyOf(ignoredAt, Math.max(f + 1, ignoredAt.length * 2));
            }
            if (ignoredAt[f] == 0) {
                io.perfj.symbols.Symbol sym = frames.get(f).sym();
                ignoredAt[f] = (byte) (sym != null && ignoreCallees.matcher(sym.name()).find() ? 1 : 2);
            }
            if (ignoredAt[f] == 1 && quirks.ignoresCallees(chainUnwound[i])) {
                from = i;
                if (fromRoot) {
                    break;
                }
            }
        }
        if (from < 0) {
            return n;
        }
        rootSelf = frameOf(resolver, s.pid(), s.tid(), chainModes[from], s.cpumode(), chainIps[from], false);
        if (fromRoot) {
            return from + 1;
        }
        System.arraycopy(chainFrames, from, chainFrames, 0, n - from);
        System.arraycopy(chainIps, from, chainIps, 0, n - from);
        System.arraycopy(chainSrclines, from, chainSrclines, 0, n - from);
        System.arraycopy(chainMaps, from, chainMaps, 0, n - from);
        System.arraycopy(chainModes, from, chainModes, 0, n - from);
        System.arraycopy(chainUnwound, from, chainUnwound, 0, n - from);
        return n - from;
    }

    /** The first {@code n} chain frames' addresses in no map, given the level perf gives them. */
    private void levelUnmapped(int n, char sampleLevel) {
        if (opts.callerOrder()) {
            // In caller order perf walks the chain from the root and gives an address in no map
            // the level of the last mapped frame before it (or the sample's own level when
            // there is none yet).
            char level = sampleLevel;
            for (int i = n - 1; i >= 0; i--) {
                if (chainFrames[i] == UNMAPPED) {
                    chainFrames[i] = frames.internUnmapped(chainIps[i], level);
                } else {
                    level = frames.get(chainFrames[i]).level();
                }
            }
        } else {
            // In callee order it walks from the leaf, past the chain's context markers first:
            // an address in no map has the level of the part of the chain it is in.
            for (int i = 0; i < n; i++) {
                if (chainFrames[i] == UNMAPPED) {
                    chainFrames[i] = frames.internUnmapped(chainIps[i], levelOf(chainModes[i]));
                }
            }
        }
    }

    /** Keeps the first {@code n} chain frames that have a symbol, in order; returns how many. */
    private int resolvedOnly(int n) {
        int k = 0;
        for (int i = 0; i < n; i++) {
            if (frames.get(chainFrames[i]).sym() != null) {
                chainFrames[k] = chainFrames[i];
                chainIps[k] = chainIps[i];
                chainSrclines[k] = chainSrclines[i];
                chainMaps[k] = chainMaps[i];
                chainModes[k] = chainModes[i];
                chainUnwound[k] = chainUnwound[i];
                k++;
            }
        }
        return k;
    }

    /**
     * The frame an address resolves to, cached per process, cpumode and sample cpumode (kernel
     * addresses are shared by all processes) until a record changes some address space.
     */
    private int frameOf(FrameResolver resolver, int pid, int tid, int mode, int sampleMode, long ip, boolean chain) {
        // the process in the low half (kernel addresses: -1, shared), so that Long.hashCode spreads
        // the caches of many processes over the table's buckets
        long key = ((long) ((mode << 4) | (sampleMode << 1) | (chain ? 1 : 0)) << 32) | ((mode == 1 ? -1 : pid) & 0xffff_ffffL);
        LongIntMap m = null;
        if (ip != Long.MIN_VALUE) {
            m = frameCache.get(key);
        }
        int f = m == null ? -1 : m.get(ip);
        if (f == UNMAPPED_CACHED) {
            return UNMAPPED;
        }
        if (f < 0) {
            io.perfj.symbols.Location loc = resolver.resolve(pid, tid, mode, ip);
            if (chain && loc.dso() == null) {
                if (m != null) {
                    m.put(ip, UNMAPPED_CACHED);
                }
                return UNMAPPED;
            }
            f = chain ? frames.internChain(loc, levelOf(sampleMode)) : frames.intern(loc);
            if (m != null) {
                m.put(ip, f);
            }
        }
        return f;
    }

    /** The srcline and srcfile keys' values, or null when neither is a key. */
    private SourceLines sources;
    /** {@link #sourceOf}'s caches, by process and cpumode, emptied with {@link #frameCache}'s. */
    private final io.perfj.util.KeyedTables<LongIntMap> sourceCache = new io.perfj.util.KeyedTables<>(() -> new LongIntMap(64));

    private int[] chainSources = new int[256];

    /**
     * The row key of a sample's source-line values and trace text id ({@link SourceLines#key}):
     * its own address's value and, with --children, those of its first {@code n} callchain
     * frames (in {@link #chainIps}), each frame's entry having its own address's, or a level of
     * a recorded address's inline chain its level's line ({@link SourceLines#levelId}; perf 7.2
     * gives the levels of unwound frames their address's).
     */
    private int sourceKey(FrameResolver resolver, SampleRef s, int trace, int n) {
        int self = sourceOf(resolver, s.pid(), s.tid(), s.cpumode(), s.ip(), false);
        int m = opts.children() ? n : 0;
        if (chainSources.length < m) {
            chainSources = new int[m * 2];
        }
        for (int i = 0; i < m; i++) {
            int level = chainSrclines[i] == null ? -1 : sources.levelId(chainSrclines[i]);
            chainSources[i] = level >= 0 ? level : sourceOf(resolver, s.pid(), s.tid(), chainModes[i], chainIps[i], true);
        }
        return sources.key(trace, self, chainSources, m);
    }

    /** The source-line value number of an address (see {@link SourceLines}), cached as {@link #frameOf} is. */
    private int sourceOf(FrameResolver resolver, int pid, int tid, int mode, long ip, boolean chain) {
        LongIntMap m = sourceCache.get(((long) ((mode << 1) | (chain ? 1 : 0)) << 32)
                | ((mode == 1 ? -1 : pid) & 0xffff_ffffL));
        int id = m.get(ip);
        if (id < 0) {
            io.perfj.symbols.Location loc = resolver.resolve(pid, tid, mode, ip);
            id = chain ? sources.chainId(loc) : sources.id(loc);
            m.put(ip, id);
        }
        return id;
    }

    private static char levelOf(int cpumode) {
        return io.perfj.symbols.Machine.level(cpumode);
    }

    /**
     * Forgets cached frames a record may change: those of the process whose maps or name it
     * changes (a FORK reusing a pid, an EXIT, a COMM, a user MMAP), all of them when the kernel's
     * maps change (kernel MMAP, KSYMBOL, BPF_EVENT). A system-wide recording has a record of this
     * kind every few hundred samples, mostly for short-lived processes: clearing every cache
     * each time made most kernel addresses resolve again.
     */
    private void invalidate(PerfRecord rec) {
        int pid = invalidates(rec);
        if (pid == NONE) {
            return;
        }
        // emptied, not dropped: the process's next samples refill the same tables
        if (pid == ALL) {
            frameCache.forEach(LongIntMap::clear);
            sourceCache.forEach(LongIntMap::clear);
            inlinedCache.forEach(LongIntMap::clear);
        } else {
            frameCache.forEachOfLow(pid, LongIntMap::clear);
            sourceCache.forEachOfLow(pid, LongIntMap::clear);
            inlinedCache.forEachOfLow(pid, LongIntMap::clear);
        }
    }

    /**
     * Whose cached frames a record makes stale (see {@link #invalidate}): a pid, {@link #ALL}
     * or {@link #NONE}. Also the rule of script's frame lines ({@link FrameLines}).
     */
    static int invalidates(PerfRecord rec) {
        return io.perfj.session.LocationCache.staleProcess(rec);
    }

    /** {@link #invalidates}: every process's frames. */
    static final int ALL = io.perfj.session.LocationCache.ALL;
    /** {@link #invalidates}: nobody's. */
    static final int NONE = io.perfj.session.LocationCache.NONE;

    public List<Hists> hists() {
        return hists;
    }

    public FrameTable frames() {
        return frames;
    }

    public StackTable stacks() {
        return stacks;
    }

    public ReportOptions options() {
        return opts;
    }

    public long lostSamples() {
        return lostSamples;
    }

    public long totalSamples() {
        return totalSamples;
    }

    public List<String> warnings() {
        return warnings;
    }

    /** What formatting the trace sort key's texts met (the tracing data's damage, fields it could not print). */
    public List<String> traceWarnings() {
        return traceWarnings;
    }

    private final List<String> traceWarnings = new ArrayList<>();
}
