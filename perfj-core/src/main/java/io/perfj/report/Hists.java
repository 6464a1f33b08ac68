package io.perfj.report;

import io.perfj.io.TextOut;
import io.perfj.perfdata.Evsel;
import io.perfj.perfdata.SampleFormat;
import io.perfj.profile.Frame;
import io.perfj.profile.FrameTable;
import io.perfj.profile.SampleFilter;
import io.perfj.profile.StackTable;
import io.perfj.session.FrameResolver;
import io.perfj.symbols.Demangling;
import io.perfj.util.LongIntMap;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The entries of one event's report (perf's {@code struct hists}): built from merged samples,
 * with self and accumulated (--children) periods and, when callchains are printed, one
 * callchain tree per entry built the way perf builds them.
 *
 * <p>By default entries are keyed exactly (the values of the sort keys: command, thread, cpu,
 * and the object, or the object and symbol, or the object and address without a symbol), so two
 * samples share a row exactly when their keys are equal, and rows are printed in this total
 * order:
 * <ol>
 * <li>with --children, larger Children first; when callchains are shown, equal Children put
 *     the entry with the deeper callchain tree first in caller order (the caller), the shallower
 *     one first in callee order;</li>
 * <li>larger Self first;</li>
 * <li>the sort keys in --sort order, each by its natural value ascending: command name, thread
 *     id then process id, cpu, the object's short name (no object last) then its long name, the
 *     symbol's name (no symbol last; an unresolved address by its value, unsigned), then, without
 *     a dso key, its object as above, then the symbol's start address;</li>
 * <li>rows still equal (two objects or symbols that print the same) in the order the recording
 *     first hit their frames.</li>
 * </ol>
 *
 * <p>Under {@code --compat perf-6.1} entries are instead found, merged and ordered through
 * replays of perf's red-black trees ({@link PerfHistTree}, {@link PerfHistSort},
 * {@link PerfHistCmp}), whose comparisons are no total order.
 */
public final class Hists {
    private final Evsel evsel;
    private final String name;
    private final ReportOptions opts;
    private final SampleFilter filter;
    private final FrameTable frames;
    private final StackTable stacks;
    /** In the order entries were created, which is the order perf inserts them into its tree. */
    private final List<HistEntry> created = new ArrayList<>();
    /** Entries by key, when a key is more than a command id and a frame or object. */
    private final Map<EntryKey, HistEntry> entries = new HashMap<>();
    /** Entries by (command id + 1, frame or object key), when the sort keys are only those. */
    private final LongIntMap byCommAndKey;
    /** Stamps the entries one sample row reached (its number), so each is counted once. */
    private int row;
    /**
     * Entries whose period (Children with --children, else Self) stays below this get no
     * callchain tree, as nothing of it would be printed (see {@link #deferChains}); 0 for all.
     */
    private long chainFloor;
    /** The deferred chains in caller order ({@link ChainPairs}), between the second pass and {@link #finishChains}. */
    private ChainPairs pairs;
    private final Map<Object, Integer> dsoKeys = new HashMap<>();
    private List<HistEntry> sorted = List.of();
    private long totalPeriod;
    private long totalSamples;
    /** The period and number of the samples the filters keep (--percentage relative). */
    private long keptPeriod;
    private long keptSamples;
    private long callchainPeriod;

    /** The compatibility mode's strategies. */
    private final ReportQuirks quirks;
    /** The order entries are built and sorted in when it is not perfj's (perf 6.1's trees), else null. */
    private final ReportQuirks.EntryOrder order;
    /** {@code opts.has(SYM)}, {@code has(DSO)}, {@code has(COMM)}: asked for every frame of every row. */
    private final boolean bySym;
    private final boolean byDso;
    private final boolean byComm;

    /** An entry's key: the values of the sort keys (the others -1 or null). */
    private static final class EntryKey {
        final String comm;
        final int pid;
        final int tid;
        final int cpu;
        final int key;
        final int trace;
        /** The source-line value number (-1 when srcline and srcfile are no keys). */
        final int source;
        final String parent;
        private final int hash;

        EntryKey(String comm, int pid, int tid, int cpu, int key, int trace, int source, String parent) {
            this.parent = parent;
            this.comm = comm;
            this.pid = pid;
            this.tid = tid;
            this.cpu = cpu;
            this.key = key;
            this.trace = trace;
            this.source = source;
            int h = ((key * 31 + trace) * 31 + source) * 31 + tid;
            h = h * 31 + pid;
            h = h * 31 + cpu;
            this.hash = h * 31 + (comm == null ? 0 : comm.hashCode());
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof EntryKey k && k.key == key && k.trace == trace && k.source == source && k.tid == tid
                    && k.pid == pid
                    && k.cpu == cpu && java.util.Objects.equals(k.comm, comm) && java.util.Objects.equals(k.parent, parent);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    /** The trace sort key's texts by id, or null when trace is no key. */
    private final TraceTexts traces;
    /** See {@link #traceCompared()}. */
    private boolean traceCompared;

    /** How many threads {@link #addChains} and {@link #finishChains} may use. */
    private final int threads;

    /** The srcline and srcfile keys' values, or null when neither is a key (row ids are then trace ids). */
    private final SourceLines sources;

    Hists(Evsel evsel, String name, ReportOptions opts, FrameTable frames, StackTable stacks,
          ReportQuirks quirks, Demangling names, int threads, TraceTexts traces, SourceLines sources) {
        this.threads = threads;
        this.traces = traces;
        this.sources = sources;
        this.evsel = evsel;
        this.name = name;
        this.opts = opts;
        this.filter = opts.filter().withNames(names);
        this.frames = frames;
        this.stacks = stacks;
        this.quirks = quirks;
        this.order = quirks.entryOrder(frames, opts);
        this.addsFailing = quirks.addsFailingSamples(opts.children());
        this.bySym = opts.has(SortKey.SYM);
        this.verbose = opts.view() != null && opts.view().verbose();
        this.byDso = opts.has(SortKey.DSO);
        this.byComm = opts.has(SortKey.COMM);
        this.byCommAndKey = opts.has(SortKey.PID) || opts.has(SortKey.TID) || opts.has(SortKey.CPU)
                || opts.has(SortKey.TRACE) || opts.has(SortKey.TRACE_FIELDS) || sources != null
                || opts.has(SortKey.PARENT) ? null
                : new LongIntMap(1 << 12);
        this.parentPattern = opts.parents() ? opts.view().parent() : null;
    }

    /**
     * Whether callchain trees are left to a second pass over the same rows ({@link #addChains}),
     * made only for entries that can print a callchain line: in the graph, flat and folded modes
     * a line needs at least the threshold's share of all callchain periods, which an entry below
     * it cannot reach. Not under --compat perf-6.1, whose merges may still grow an entry.
     *
     * @param printedOnly whether only what the stdio report prints is needed (JSON has all)
     */
    boolean deferChains(boolean printedOnly) {
        return printedOnly && order == null && opts.threshold() > 0
                && (opts.mode() == CallchainMode.GRAPH || opts.mode() == CallchainMode.FLAT
                || opts.mode() == CallchainMode.FOLDED);
    }

    /** The part of a frame the sort keys look at: the frame, its DSO, or nothing. */
    private int keyOf(int frame) {
        if (bySym) {
            return frames.canonical(frame);
        }
        if (byDso) {
            Frame f = frames.get(frame);
            Object dso = f.dso() == null ? "[unknown]" : f.dso();
            return dsoKeys.computeIfAbsent(dso, d -> dsoKeys.size());
        }
        return -1;
    }

    /** Whether the sample being added failed the filters (the entries it creates are hidden). */
    private boolean creatingFiltered;

    /** Whether samples that fail the filters are added all the same ({@link ReportQuirks#addsFailingSamples}). */
    private final boolean addsFailing;

    /** The parent pattern, when the rows' parent symbols are needed ({@link ReportOptions#parents}). */
    private final java.util.regex.Pattern parentPattern;

    /**
     * The parent symbol of a stack (perf's {@code iter->parent}): the name of its first frame,
     * in the order callchains are printed, whose symbol matches the pattern; null for none, or
     * when no parent is needed.
     */
    private String parentOf(int stack) {
        if (parentPattern == null) {
            return null;
        }
        int[] chain = stacks.frames(stack);
        for (int n = 0; n < chain.length; n++) {
            Frame f = frames.get(chain[opts.callerOrder() ? chain.length - 1 - n : n]);
            if (f.sym() != null && parentPattern.matcher(f.sym().name()).find()) {
                return f.sym().name();
            }
        }
        return null;
    }

    /**
     * The entry of a frame of a sample row: its own ({@code at} -1) or its callchain frame
     * {@code at}'s (whose source-line value is that address's); {@code trace} is the row's id
     * of its trace text and source-line values ({@link SourceLines#key}); {@code parent} its
     * parent symbol ({@link #parentOf}).
     */
    private HistEntry entry(int commId, String comm, int pid, int tid, int cpu, int frame, int trace, int at,
                            String parent) {
        if (byCommAndKey != null) {
            long k = ((long) (byComm ? commId + 1 : 0) << 32) | (keyOf(frame) & 0xffffffffL);
            int id = byCommAndKey.get(k);
            if (id >= 0) {
                return created.get(id);
            }
            HistEntry e = new HistEntry(comm, pid, tid, cpu, frame);
            e.filtered = creatingFiltered;
            e.id = created.size();
            byCommAndKey.put(k, created.size());
            created.add(e);
            return e;
        }
        // perf's "pid" key is the thread: its tid, shown with the thread's last command name.
        EntryKey k = new EntryKey(opts.has(SortKey.COMM) ? comm : null,
                opts.has(SortKey.PID) || opts.has(SortKey.TID) ? pid : -1,
                opts.has(SortKey.PID) || opts.has(SortKey.TID) ? tid : -1,
                opts.has(SortKey.CPU) ? cpu : -1, keyOf(frame), sources == null ? trace : sources.trace(trace),
                sources == null ? -1 : sources.id(trace, at), parent);
        HistEntry e = entries.get(k);
        if (e == null) {
            e = new HistEntry(k.comm == null ? comm : k.comm, pid, tid, cpu, frame, traceValue(trace));
            e.source = k.source < 0 ? null : sources.text(k.source);
            e.filtered = creatingFiltered;
            e.parent = parent;
            e.id = created.size();
            entries.put(k, e);
            created.add(e);
        }
        return e;
    }

    /** The trace sort keys' values of a row id (see {@link SourceLines#key}), or null when they are no key. */
    private TraceTexts.Value traceValue(int id) {
        return traces == null ? null : traces.value(sources == null ? id : sources.trace(id));
    }

    /**
     * perf matches callchain nodes by symbol (inlined functions by name), or by address without
     * one: not by level.
     */
    private int[] chainNodes(int[] chain) {
        int[] nodes = new int[chain.length];
        for (int i = 0; i < chain.length; i++) {
            nodes[i] = frames.chainNode(chain[i]);
        }
        return nodes;
    }

    /**
     * The frames a chain's new tree nodes print: the chain's own where a node prints the first
     * frame that reached it ({@link FrameTable#nodesShowFirstFrame}), else the nodes' frames.
     */
    private int[] shownFrames(int[] chain, int[] nodes) {
        return frames.nodesShowFirstFrame() ? chain : nodes;
    }

    /**
     * Adds merged samples: {@code samples} samples with this thread, cpu and stack; their
     * callchains too unless they are deferred ({@link #deferChains}).
     *
     * @param commId the command's id (the same for the same name), -1 when the command is no key
     */
    void add(int commId, String comm, int pid, int tid, int cpu, int selfFrame, int stack, int trace, long period,
             long samples, boolean deferChains) {
        row(commId, comm, pid, tid, cpu, selfFrame, stack, trace, period, samples, !deferChains);
    }

    /**
     * The second pass of deferred callchains: the same rows again, in the same order, each
     * chain added to the trees of the entries that can print it (see {@link #deferChains}).
     * Every entry has its trees (or its deferred pairs) made by one thread, the entries being
     * split by id between the threads; each thread walks every row in order, so each entry
     * gets its chains in the order one thread gives.
     *
     * @param comms command names by id
     */
    void addChains(AggTable t, List<String> comms) {
        if (chainFloor == 0) {
            // the printed threshold is a share of all or of the kept samples' period, never below this
            chainFloor = Math.max(1, (long) (Math.min(callchainPeriod, keptPeriod) * (opts.threshold() / 100.0)));
        }
        int base = row;
        int parts = Math.max(1, Math.min(threads, 4));
        ChainPairs[] tables = new ChainPairs[parts];
        io.perfj.util.SharedWork.run(parts, parts, "perfj-chains", () -> part -> {
            ChainPass c = new ChainPass(part, parts);
            for (int r = 0; r < t.rows(); r++) {
                c.row(base + r + 1, t.comm(r), t.comm(r) < 0 ? null : comms.get(t.comm(r)), t.pid(r), t.tid(r),
                        t.cpu(r), t.self(r), t.stack(r), t.trace(r), t.period(r), t.count(r));
            }
            tables[part] = c.table;
        });
        row = base + t.rows();
        pairs = ChainPairs.concat(tables);
    }

    /** One thread's share of {@link #addChains}: the entries whose id is {@code part} modulo {@code parts}. */
    private final class ChainPass {
        private final int part;
        private final int parts;
        private final ChainPairs table = new ChainPairs();
        /** The current row's stack prefixes: {@code prefixes[i]} holds its frames 0..i. */
        private int[] prefixes = new int[64];

        ChainPass(int part, int parts) {
            this.part = part;
            this.parts = parts;
        }

        private boolean owns(HistEntry e) {
            return e.id % parts == part;
        }

        /**
         * One row of the second pass, for the entries this pass owns (the first pass's walk,
         * without counting: the entries exist and their periods are final); {@code mark} stamps them.
         */
        void row(int mark, int commId, String comm, int pid, int tid, int cpu, int selfFrame, int stack, int trace,
                 long period, long samples) {
            String parent = parentOf(stack);
            if (!accepted(comm, pid, tid, cpu, selfFrame, parent) && !addsFailing) {
                return;
            }
            int[] chain = stacks.frames(stack);
            if (opts.mode() == CallchainMode.NONE || chain.length == 0) {
                return;
            }
            boolean byPrefix = opts.callerOrder();
            if (byPrefix) {
                if (prefixes.length < chain.length) {
                    prefixes = new int[chain.length * 2];
                }
                stacks.prefixes(stack, prefixes);
            }
            int[] nodes = byPrefix ? chain : chainNodes(chain);
            int[] shown = shownFrames(chain, nodes);
            HistEntry self = entry(commId, comm, pid, tid, cpu, selfFrame, trace, -1, parent);
            if (!opts.children()) {
                if (owns(self)) {
                    chain(self, nodes, shown, chain.length - 1, period, samples, true);
                }
                return;
            }
            if (owns(self)) {
                self.row = mark;
                chain(self, nodes, shown, chain.length - 1, period, samples, true);
            }
            for (int n = 0; n < chain.length; n++) {
                int i = byPrefix ? chain.length - 1 - n : n;
                HistEntry e = entry(commId, comm, pid, tid, cpu, chain[i], trace, i, parent);
                if (!owns(e) || e.row == mark) {
                    continue;
                }
                e.row = mark;
                chain(e, nodes, shown, i, period, samples, false);
            }
        }

        /** The tree (above the floor) of one chain: summed for later in caller order, else added now. */
        private void chain(HistEntry e, int[] nodes, int[] shown, int at, long period, long samples, boolean whole) {
            if (chainFloor == 0 || (opts.children() ? e.accPeriod : e.selfPeriod) >= chainFloor) {
                if (opts.callerOrder()) {
                    table.add(e.id, prefixes[at], period, samples);
                } else {
                    addChain(e, nodes, shown, at, period, samples, whole);
                }
            }
        }
    }

    private void row(int commId, String comm, int pid, int tid, int cpu, int selfFrame, int stack, int trace,
                     long period, long samples, boolean chains) {
        String parent = parentOf(stack);
        boolean pass = accepted(comm, pid, tid, cpu, selfFrame, parent);
        totalPeriod += period;
        totalSamples += samples;
        if (pass) {
            keptPeriod += period;
            keptSamples += samples;
        }
        if (!pass && !addsFailing) {
            return;
        }
        int[] chain = stacks.frames(stack);
        creatingFiltered = !pass;
        boolean withChains = opts.mode() != CallchainMode.NONE && chain.length > 0;
        int[] nodes = withChains && chains ? chainNodes(chain) : chain;
        int[] shown = shownFrames(chain, nodes);
        callchainPeriod += period;
        // perf formats an entry's trace text when it first compares it: from the second
        // sample on, or at once when --children compares the sample's entry with its callers'
        traceCompared |= totalSamples > 1 || opts.children() && chain.length > 0;
        HistEntry self = entry(commId, comm, pid, tid, cpu, selfFrame, trace, -1, parent);
        self.selfPeriod += period;
        self.selfSamples += samples;
        addByMode(self, selfFrame, period);
        if (opts.children()) {
            int mark = ++row;
            self.row = mark;
            self.accPeriod += period;
            self.accSamples += samples;
            if (withChains) {
                chain(self, nodes, shown, chain.length - 1, period, samples, true, chains);
            }
            // perf walks the callchain in print order and adds each frame's entry once.
            for (int n = 0; n < chain.length; n++) {
                int i = opts.callerOrder() ? chain.length - 1 - n : n;
                HistEntry e = entry(commId, comm, pid, tid, cpu, chain[i], trace, i, parent);
                if (e.row == mark) {
                    continue;
                }
                e.row = mark;
                e.accPeriod += period;
                e.accSamples += samples;
                if (withChains) {
                    chain(e, nodes, shown, i, period, samples, false, chains);
                }
            }
        } else if (withChains) {
            chain(self, nodes, shown, chain.length - 1, period, samples, true, chains);
        }
    }

    /** The sample's period as sampled in the kernel or in user space, by the level of its own address. */
    private void addByMode(HistEntry e, int selfFrame, long period) {
        char level = selfFrame < 0 ? 0 : frames.get(selfFrame).level();
        if (level == 'k') {
            e.sysPeriod += period;
        } else if (level == '.') {
            e.usPeriod += period;
        }
    }

    /** The depth and, unless deferred, the tree of one chain. */
    private void chain(HistEntry e, int[] nodes, int[] shown, int at, long period, long samples, boolean whole,
                       boolean chains) {
        e.maxDepth = Math.max(e.maxDepth, depth(nodes, at, whole));
        if (chains) {
            addChain(e, nodes, shown, at, period, samples, whole);
        }
    }

    /** After the second pass ({@link #addChains}): the summed chains into their entries' trees. */
    void finishChains() {
        ChainPairs cp = pairs == null ? new ChainPairs() : pairs;
        int npairs = cp.size;
        int[] pairEntry = cp.entry;
        int[] pairStack = cp.stack;
        long[] pairPeriod = cp.period;
        int[] pairCount = cp.count;
        // entry by entry (each tree is independent; within one the order is kept), so that one
        // tree's nodes stay in the cache while its chains are added
        int[] start = new int[created.size() + 1];
        for (int k = 0; k < npairs; k++) {
            start[pairEntry[k] + 1]++;
        }
        for (int i = 0; i < created.size(); i++) {
            start[i + 1] += start[i];
        }
        int[] order = new int[npairs];
        for (int k = 0; k < npairs; k++) {
            order[start[pairEntry[k]]++] = k;
        }
        // start[i] is now where entry i's chains end. Trees are independent and the tables they
        // read no longer change: build them on every core, each tree by one thread, in its order,
        // the entries with the most chains first so that the threads end together.
        int n = created.size();
        int[] from = new int[n];
        long[] bySize = new long[n];
        for (int i = 0; i < n; i++) {
            from[i] = i == 0 ? 0 : start[i - 1];
            bySize[i] = ((long) (start[i] - from[i]) << 32) | (n - 1 - i);
        }
        java.util.Arrays.sort(bySize);
        io.perfj.util.SharedWork.run(n, threads, "perfj-chains", () -> {
            int[][] nodes = {new int[64], frames.nodesShowFirstFrame() ? new int[64] : null};
            return j -> {
                int i = n - 1 - (int) bySize[n - 1 - j];
                HistEntry e = created.get(i);
                for (int p = from[i]; p < start[i]; p++) {
                    int k = order[p];
                    int depth = stacks.depth(pairStack[k]);
                    if (nodes[0].length < depth) {
                        nodes[0] = new int[depth * 2];
                        nodes[1] = nodes[1] == null ? null : new int[depth * 2];
                    }
                    stacks.canonicalFrames(pairStack[k], frames, nodes[0], nodes[1]);
                    addChain(e, nodes[0], nodes[1] == null ? nodes[0] : nodes[1], depth - 1, pairPeriod[k],
                            pairCount[k], false);
                }
            };
        });
        pairs = null;
    }

    private int depth(int[] chain, int at, boolean whole) {
        return whole ? chain.length : opts.callerOrder() ? at + 1 : chain.length - at;
    }

    /** The entry tree, when entries are built as perf builds them ({@link ReportQuirks.EntryOrder}). */
    private ReportQuirks.EntryTree tree;

    /**
     * Builds entries sample by sample through perf's tree ({@link #addOrdered}) instead of
     * {@link #add}; under {@code --compat perf-6.1} only.
     */
    void perfOrdered() {
        tree = order.tree();
    }

    /**
     * Adds one sample the way perf's cumulative hist iterator does: the entry of the sample
     * itself, then one for each callchain frame in print order unless the sample already added
     * an entry that compares equal; each found (or inserted) by a search of perf's tree with
     * perf's comparison. {@code maps} numbers the map each callchain frame was found through.
     */
    void addOrdered(String comm, int pid, int tid, int cpu, int selfFrame, int stack, int[] maps, int traceId,
                    long period) {
        TraceTexts.Value trace = traceValue(traceId);
        int[] chain = stacks.frames(stack);
        totalPeriod += period;
        totalSamples++;
        String parent = parentOf(stack);
        boolean pass = accepted(comm, pid, tid, cpu, selfFrame, parent);
        if (pass) {
            keptPeriod += period;
            keptSamples++;
        }
        if (!pass && !addsFailing) {
            return;
        }
        creatingFiltered = !pass;
        boolean withChains = opts.mode() != CallchainMode.NONE && chain.length > 0;
        int[] nodes = withChains ? chainNodes(chain) : chain;
        int[] shown = shownFrames(chain, nodes);
        callchainPeriod += period;
        List<HistEntry> added = new ArrayList<>();
        traceCompared |= totalSamples > 1 || opts.children() && chain.length > 0;
        HistEntry selfProbe = new HistEntry(comm, pid, tid, cpu, selfFrame, trace);
        selfProbe.source = sources == null ? null : sources.text(sources.id(traceId, -1));
        selfProbe.filtered = creatingFiltered;
        selfProbe.parent = parent;
        HistEntry self = findnew(selfProbe, 0);
        self.selfPeriod += period;
        self.selfSamples++;
        addByMode(self, selfFrame, period);
        self.accPeriod += period;
        self.accSamples++;
        added.add(self);
        if (withChains) {
            addChain(self, nodes, shown, chain.length - 1, period, 1, true);
        }
        next:
        for (int n = 0; n < chain.length; n++) {
            int i = opts.callerOrder() ? chain.length - 1 - n : n;
            HistEntry probe = new HistEntry(comm, pid, tid, cpu, chain[i], trace);
            probe.source = sources == null ? null : sources.text(sources.id(traceId, i));
            probe.filtered = creatingFiltered;
            probe.parent = parent;
            for (HistEntry a : added) {
                if (order.compare(a, probe) == 0) {
                    continue next;
                }
            }
            HistEntry e = findnew(probe, maps[i]);
            e.accPeriod += period;
            e.accSamples++;
            added.add(e);
            if (withChains) {
                addChain(e, nodes, shown, i, period, 1, false);
            }
        }
    }

    /**
     * perf's {@code hists__findnew_entry}: the entry equal to {@code probe}, or probe inserted.
     * When the entry found was last resolved through another map, perf looks its symbol up
     * again in the new map at the symbol's start: an inlined frame's entry then becomes the
     * entry of the function it was inlined into, named by that function's ELF symbol.
     */
    private HistEntry findnew(HistEntry probe, int map) {
        probe.map = map;
        HistEntry e = tree.findOrInsert(probe);
        if (e != probe) {
            if (opts.has(SortKey.SYM) && e.map != map) {
                e.frame = frames.base(e.frame);
                e.map = map;
            }
        } else {
            created.add(e);
        }
        return e;
    }

    /**
     * perf's entry tree as it is when sorting the output: the input tree (built sample by
     * sample, or, for merged samples, the entries inserted again in the order they were created,
     * which is the order of their first samples), then collapsed again when a sort key has a
     * collapse function of its own (comm). See {@link PerfHistSort}.
     */
    private ReportQuirks.EntryTree perfCollapsedTree() {
        ReportQuirks.EntryTree in = tree != null ? tree
                : order.collapse(new ArrayList<>(created), (m, e) -> merge(m, e, true));
        if (opts.view() != null && opts.view().hierarchy() && opts.view().symbolFilter() != null) {
            perfInput = in.inOrder();
        }
        return opts.has(SortKey.COMM) ? order.collapse(in.inOrder(), (m, e) -> merge(m, e, false))
                : in;
    }

    /**
     * Adds {@code e}'s counts and callchains to {@code m}. {@code adding}: as samples are added,
     * where an entry's callchain depth is the largest of its samples'; otherwise as perf
     * collapses, whose callchain_merge keeps the depth of the entry merged into.
     */
    private static void merge(HistEntry m, HistEntry e, boolean adding) {
        m.selfPeriod += e.selfPeriod;
        m.selfSamples += e.selfSamples;
        m.sysPeriod += e.sysPeriod;
        m.usPeriod += e.usPeriod;
        m.accPeriod += e.accPeriod;
        m.accSamples += e.accSamples;
        if (adding) {
            m.maxDepth = Math.max(m.maxDepth, e.maxDepth);
        }
        if (e.chains != null) {
            if (m.chains == null) {
                m.chains = CallchainNode.root();
            }
            m.chains.merge(e.chains);
        }
    }

    /**
     * Adds the chain to an entry's tree: for the self entry the whole chain, for an accumulated
     * entry the part from its frame on (toward the leaf in caller order, toward the root in
     * callee order). {@code shown}: the frames new nodes print ({@link #shownFrames}).
     */
    private void addChain(HistEntry e, int[] chain, int[] shown, int at, long period, long samples, boolean whole) {
        if (e.chains == null) {
            e.chains = CallchainNode.root();
        }
        e.maxDepth = Math.max(e.maxDepth, depth(chain, at, whole));
        if (opts.callerOrder()) {
            int from = whole ? chain.length - 1 : at;
            e.chains.add(chain, shown, from, -1, -1, period, samples);
        } else {
            int from = whole ? 0 : at;
            e.chains.add(chain, shown, from, chain.length, 1, period, samples);
        }
    }

    /**
     * Whether a sample passes the filters (its thread, cpu, and the object and symbol it landed
     * in). A sample that does not is left out, with or without --children: a caller's row counts
     * the samples that passed (see {@link ReportQuirks#addsFailingSamples} for perf 6.1's way).
     */
    private boolean accepted(String comm, int pid, int tid, int cpu, int leaf, String parent) {
        return !opts.filters() || filter.accepts(comm, pid, tid, cpu, leaf < 0 ? null : frames.get(leaf))
                && (parent != null || !opts.excludeOther());
    }

    /** perf's collapsed entry tree, between {@link #finish} and {@link #sortOutput} (compat mode). */
    private ReportQuirks.EntryTree collapsed;

    /**
     * Ends the input: names the threads and collapses the entries (perf's
     * {@code hists__collapse_resort}); without a resolver (rows merged from many recordings)
     * a thread is named by its entry's command. An event group's members are then linked to their leader
     * ({@link #link}) before every event's rows are sorted ({@link #sortOutput}).
     */
    void finish(FrameResolver resolver) {
        finish(resolver == null ? null : resolver::comm);
    }

    /** As {@link #finish(FrameResolver)}, the threads' last names from {@code threadNames}. */
    void finish(java.util.function.BiFunction<Integer, Integer, String> threadNames) {
        FrameResolverNames resolver = threadNames == null ? null : threadNames::apply;
        // the pid column names the entry's thread by its last name, and the command column is
        // as wide as the longest such name (perf's thread__comm_len, taken when rows are sorted)
        if (resolver != null && (opts.has(SortKey.PID) || opts.has(SortKey.COMM))) {
            for (HistEntry e : created) {
                e.threadComm = resolver.comm(e.pid, e.tid);
            }
        }
        if (order != null) {
            collapsed = perfCollapsedTree();
        }
    }

    /** The one thing {@link #finish} asks of a resolver. */
    private interface FrameResolverNames {
        String comm(int pid, int tid);
    }

    /** The output order of the rows (after {@link #finish} and any {@link #link}). */
    void sortOutput() {
        List<HistEntry> shown;
        if (order != null) {
            boolean chains = (evsel.attr().sampleType() & SampleFormat.CALLCHAIN) != 0;
            // Hidden entries are in perf's output tree too (they shape it); they are not printed.
            ReportFields fields = opts.view() == null ? null : opts.view().fields();
            shown = order.outputOrder(collapsed.inOrder(), fields != null ? fields.order() : null,
                    StdioReport.shownKeys(opts), chains, members.size() + 1);
            collapsed = null;
        } else {
            shown = new ArrayList<>(created);
            shown.sort(order());
        }
        if (addsFailing && opts.filters()) {
            shown.removeIf(e -> e.filtered);
        }
        beforeSymbolFilter = shown;
        String symbolFilter = opts.view() == null ? null : opts.view().symbolFilter();
        // --symbol-filter: a row stays when its symbol's name contains the text (the rows are
        // rows of symbols only with a symbol key; perf filters only where PerfSymbolFilter says)
        List<SortKey> keys = symbolFilter != null && opts.view().hierarchy() ? StdioReport.shownKeys(opts) : null;
        ReportQuirks.LevelFilter levels = keys == null ? null : quirks.hierarchyFilter(perfInput, keys.size(),
                (e, d) -> keyValue(e, keys.get(d)), e -> symbolContains(e, symbolFilter));
        if (levels != null) {
            // perf 6.1 tests the entry that made each level's row
            perfInput = null;
            rowFilter = levels::hides;
            sized = levels.sizing();
            rowsPeriod = 0;
            for (HistEntry e : shown) {
                rowsPeriod += levels.hides(e, 0) ? 0 : e.selfPeriod;
            }
            // the rows: those of the last level perf prints
            shown = new ArrayList<>(shown);
            shown.removeIf(e -> levels.hides(e, keys.size() - 1));
        } else if (symbolFilter != null && quirks.filtersSymbols(byComm, bySym, opts.view().hierarchy())) {
            shown = new ArrayList<>(shown);
            shown.removeIf(e -> !symbolContains(e, symbolFilter));
            java.util.Set<HistEntry> kept = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
            kept.addAll(shown);
            rowFilter = (e, depth) -> !kept.contains(e);
            // what --percentage relative makes the rows' percentages of: the rows left (perf's
            // non-filtered period, recounted after the filter; its callchains keep the other)
            rowsPeriod = 0;
            for (HistEntry e : shown) {
                rowsPeriod += e.selfPeriod;
            }
        }
        sorted = shown;
    }

    /** Whether the entry's symbol's name contains {@code text} (an entry without a symbol: no). */
    private boolean symbolContains(HistEntry e, String text) {
        return e.frame >= 0 && frames.get(e.frame).sym() != null && frames.get(e.frame).sym().name().contains(text);
    }

    /** perf 6.1's input tree in order, kept for {@link ReportQuirks#hierarchyFilter} until the rows are sorted. */
    private List<HistEntry> perfInput;

    /**
     * Whether --symbol-filter hides the hierarchy's row of a level that an entry is counted in
     * ({@code (entry, level)}): by default the rows over no entry the filter keeps, under
     * {@code --compat perf-6.1} as {@link ReportQuirks#hierarchyFilter} says.
     */
    private java.util.function.BiPredicate<HistEntry, Integer> rowFilter = (e, depth) -> false;

    /** The entries whose values size the columns, when not the rows ({@link ReportQuirks.LevelFilter#sizing}). */
    private List<HistEntry> sized;

    /** Whether the hierarchy's row of level {@code depth} that holds {@code entries} is hidden by --symbol-filter. */
    boolean hidesLevel(List<HistEntry> entries, int depth) {
        for (HistEntry e : entries) {
            if (!rowFilter.test(e, depth)) {
                return false;
            }
        }
        return true;
    }

    /** The entries the text columns are as wide as: the rows, or what perf 6.1's hierarchy filter sizes them by. */
    List<HistEntry> sizingEntries() {
        return sized != null ? sized : sorted;
    }

    /** The group's other events, in group order, when this is a group leader's report; else empty. */
    private List<Hists> members = List.of();
    /** perf's description of the event or group ({@code anon group { a, b }}). */
    private String label;
    /** How many events the recording groups under this one (1 when it leads no group). */
    private int recordedMembers = 1;

    /**
     * Makes {@code member} the next event of the group this event leads (perf's
     * {@code hists__match} then {@code hists__link}): each of this event's rows gets the
     * member's row of the same sort keys as its pair; a member row without one becomes a row
     * here with nothing counted (a dummy), so that the group's report shows it.
     *
     * @param idx       the member's position in the group (1 for the first after the leader)
     * @param nrMembers the group's size, the leader included
     */
    void link(Hists member, int idx, int nrMembers) {
        if (members.isEmpty()) {
            members = new ArrayList<>();
        }
        members.add(member);
        if (order != null) {
            // perf searches the member's collapsed tree for each leader row in tree order, then
            // adds each member row still unpaired to the leader's tree (where it may meet a row
            // its comparison finds equal after all)
            for (HistEntry e : collapsed.inOrder()) {
                HistEntry p = member.collapsed.find(e);
                if (p != null) {
                    e.pair(idx, p, nrMembers);
                }
            }
            for (HistEntry m : member.collapsed.inOrder()) {
                if (!m.paired) {
                    HistEntry d = HistEntry.dummyOf(m);
                    HistEntry found = collapsed.findOrInsert(d);
                    if (found == d) {
                        d.id = created.size();
                        created.add(d);
                    }
                    found.pair(idx, m, nrMembers);
                }
            }
            return;
        }
        Map<Object, HistEntry> byKey = new HashMap<>();
        for (HistEntry e : created) {
            byKey.putIfAbsent(groupKey(e), e);
        }
        for (HistEntry m : member.created) {
            Object k = groupKey(m);
            HistEntry e = byKey.get(k);
            if (e == null) {
                e = HistEntry.dummyOf(m);
                e.id = created.size();
                created.add(e);
                byKey.put(k, e);
            }
            e.pair(idx, m, nrMembers);
        }
    }

    /** What makes two events' entries one row of a group: the values of the sort keys. */
    private Object groupKey(HistEntry e) {
        Object obj = null;
        if (bySym) {
            obj = frames.canonical(e.frame);
        } else if (byDso) {
            Frame f = frames.get(e.frame);
            obj = f.dso() == null ? "[unknown]" : f.dso();
        }
        return java.util.Arrays.asList(byComm ? e.comm : null, opts.has(SortKey.PID) || opts.has(SortKey.TID) ? e.tid : -1,
                opts.has(SortKey.PID) || opts.has(SortKey.TID) ? e.pid : -1, opts.has(SortKey.CPU) ? e.cpu : -1, obj,
                e.trace == null ? null : java.util.Arrays.deepToString(new Object[]{e.trace(), e.traceFields()}),
                e.source, e.parent);
    }

    /** Names this event's report: its name, or its group's description with the group's size. */
    void label(String label, int recordedMembers) {
        this.label = label;
        this.recordedMembers = recordedMembers;
    }

    /** The default output order, a total order (see the class comment), or -F's. */
    private Comparator<HistEntry> order() {
        ReportFields fields = opts.view() == null ? null : opts.view().fields();
        if (fields != null && fields.order() != null) {
            return fieldOrder(fields.order());
        }
        boolean children = opts.children();
        boolean byDepth = children && opts.mode() != CallchainMode.NONE;
        boolean callerOrder = opts.callerOrder();
        // a key whose column is left out (a filter of one value) orders nothing, as in perf
        List<SortKey> keys = StdioReport.shownKeys(opts);
        return (a, b) -> {
            int c;
            if (children && (c = Long.compare(b.accPeriod, a.accPeriod)) != 0) {
                return c;
            }
            if (byDepth && (c = callerOrder ? Integer.compare(b.maxDepth, a.maxDepth)
                    : Integer.compare(a.maxDepth, b.maxDepth)) != 0) {
                return c;
            }
            if ((c = Long.compare(b.selfPeriod, a.selfPeriod)) != 0) {
                return c;
            }
            // a group's rows of equal Self: by the members' Self in group order
            for (int i = 1; i <= members.size(); i++) {
                if ((c = Long.compare(b.pairSelf(i), a.pairSelf(i))) != 0) {
                    return c;
                }
            }
            return keyOrder(a, b, keys);
        };
    }

    /** {@link #keyOrder(HistEntry, HistEntry, List)} over all the sort keys. */
    int keyOrder(HistEntry a, HistEntry b) {
        return keyOrder(a, b, opts.sortKeys());
    }

    /** What makes two entries' values of sort key {@code k} the same (perf's hierarchy levels). */
    Object keyValue(HistEntry e, SortKey k) {
        Frame f = e.frame >= 0 ? frames.get(e.frame) : null;
        return switch (k) {
            case COMM -> e.comm;
            case PID, TID -> List.of(e.tid, e.pid);
            case CPU -> e.cpu;
            case DSO -> f == null || f.dso() == null ? "[unknown]" : f.dso();
            case SYM -> e.frame < 0 ? -1 : frames.canonical(e.frame);
            case TRACE, TRACE_FIELDS -> column(e, k);
            case SRCLINE -> e.srcline();
            case SRCFILE -> e.srcfile();
            case PARENT -> e.parent == null ? "[other]" : e.parent;
        };
    }

    /**
     * -F's order (a strict list): by each field in turn, a value larger first (Children then
     * the caller first, as by default), a key as {@link #keyOrder} orders it; then the frames'
     * first appearance.
     */
    private Comparator<HistEntry> fieldOrder(List<ReportFields.Field> order) {
        boolean byDepth = opts.children() && opts.mode() != CallchainMode.NONE;
        return (a, b) -> {
            for (ReportFields.Field f : order) {
                int c = f.key() != null ? keyCompare(a, b, f.key()) : switch (f.value()) {
                    case OVERHEAD, PERIOD -> Long.compare(b.selfPeriod, a.selfPeriod);
                    case OVERHEAD_SYS -> Long.compare(b.sysPeriod, a.sysPeriod);
                    case OVERHEAD_US -> Long.compare(b.usPeriod, a.usPeriod);
                    case SAMPLE -> Long.compare(b.selfSamples, a.selfSamples);
                    case OVERHEAD_CHILDREN -> a.accPeriod != b.accPeriod || !byDepth
                            ? Long.compare(b.accPeriod, a.accPeriod)
                            : opts.callerOrder() ? Integer.compare(b.maxDepth, a.maxDepth)
                            : Integer.compare(a.maxDepth, b.maxDepth);
                };
                if (c == 0 && f.value() == ReportFields.Value.OVERHEAD) {
                    // a group's rows of equal Overhead: by the members' in group order
                    for (int i = 1; i <= members.size() && c == 0; i++) {
                        c = Long.compare(b.pairSelf(i), a.pairSelf(i));
                    }
                }
                if (c != 0) {
                    return c;
                }
            }
            return Integer.compare(a.frame, b.frame);
        };
    }

    /** The sort keys' natural values in --sort order, then the frames' first appearance. */
    private int keyOrder(HistEntry a, HistEntry b, List<SortKey> keys) {
        for (SortKey k : keys) {
            int c = keyCompare(a, b, k);
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a.frame, b.frame);
    }

    /** One sort key's natural values (see the class comment). */
    private int keyCompare(HistEntry a, HistEntry b, SortKey k) {
        Frame fa = a.frame >= 0 ? frames.get(a.frame) : null;
        Frame fb = b.frame >= 0 ? frames.get(b.frame) : null;
        return switch (k) {
            case COMM -> a.comm.compareTo(b.comm);
            case PID, TID -> a.tid != b.tid ? Integer.compare(a.tid, b.tid) : Integer.compare(a.pid, b.pid);
            case CPU -> Integer.compare(a.cpu, b.cpu);
            case DSO -> dsoOrder(fa, fb, verbose);
            case SYM -> symOrder(fa, fb);
            case TRACE -> traceOrder(a.trace(), b.trace());
            case TRACE_FIELDS -> TraceFieldsColumns.order(a.traceFields(), b.traceFields());
            case SRCLINE -> a.srcline().compareTo(b.srcline());
            case SRCFILE -> a.srcfile().compareTo(b.srcfile());
            case PARENT -> parentOrder(a.parent, b.parent);
        };
    }

    /** Parent symbols by name, none ("[other]") last. */
    public static int parentOrder(String a, String b) {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : 1) : -1;
        }
        return a.compareTo(b);
    }

    /** Trace texts by their bytes; rows of another event (no text) are all equal. */
    public static int traceOrder(byte[] a, byte[] b) {
        return a == null || b == null ? 0 : java.util.Arrays.compareUnsigned(a, b);
    }

    /** Objects by short name then long name; with -v by long name, as perf names them then. */
    private static int dsoOrder(Frame a, Frame b, boolean verbose) {
        io.perfj.symbols.Dso da = a == null ? null : a.dso();
        io.perfj.symbols.Dso db = b == null ? null : b.dso();
        if (da == db) {
            return 0;
        }
        if (da == null || db == null) {
            return da == null ? 1 : -1;
        }
        int c = verbose ? 0 : da.shortName().compareTo(db.shortName());
        return c != 0 ? c : da.longName().compareTo(db.longName());
    }

    private int symOrder(Frame a, Frame b) {
        if (a == b) {
            return 0;
        }
        io.perfj.symbols.Symbol sa = a == null ? null : a.sym();
        io.perfj.symbols.Symbol sb = b == null ? null : b.sym();
        int c;
        if (sa == null || sb == null) {
            if (sa != sb) {
                return sa == null ? 1 : -1;
            }
            c = Long.compareUnsigned(a == null ? 0 : a.addr(), b == null ? 0 : b.addr());
        } else {
            c = sa.name().compareTo(sb.name());
        }
        if (c == 0 && !opts.has(SortKey.DSO)) {
            c = dsoOrder(a, b, verbose);
        }
        return c != 0 || sa == null ? c : Long.compareUnsigned(sa.start(), sb.start());
    }

    /** The text of a sort-key column for an entry. */
    public String column(HistEntry e, SortKey k) {
        Frame f = e.frame >= 0 ? frames.get(e.frame) : null;
        return switch (k) {
            case COMM -> e.comm;
            case PID -> TextOut.padLeft(Integer.toString(e.tid), 7) + ":" + threadComm(e);
            case TID -> TextOut.padLeft(Integer.toString(e.tid), 7);
            // perf's %*.*d: at least three digits after a minus sign (-1 is "-001")
            case CPU -> TextOut.zeroPad(e.cpu, 3);
            case DSO -> f == null ? "" : verbose && f.dso() != null ? f.dso().longName() : f.dsoName();
            case SYM -> f == null ? "" : (verbose ? verbosePrefix(e, f) : "") + "[" + f.level() + "] " + f.symName();
            case TRACE -> e.trace() == null ? "N/A" : new String(e.trace(), java.nio.charset.StandardCharsets.UTF_8);
            case TRACE_FIELDS -> throw new IllegalArgumentException("trace_fields is a column per field: see traceField");
            case SRCLINE -> e.srcline();
            case SRCFILE -> e.srcfile();
            case PARENT -> e.parent == null ? "[other]" : e.parent;
        };
    }

    /** {@code -v}: objects by their full paths, symbols after their address and origin. */
    private final boolean verbose;

    /**
     * What perf's {@code -v} prints before the symbol column's level: the entry's first
     * address ({@link FrameTable#address}, perf's {@code %-#18llx}) and the letter of
     * where its object's symbols came from ({@link io.perfj.symbols.Dso#symtabOrigin()}).
     */
    private String verbosePrefix(HistEntry e, Frame f) {
        long a = frames.address(e.frame);
        return TextOut.padRight(a == 0 ? "0" : "0x" + Long.toHexString(a), VERBOSE_ADDR) + " "
                + (f.dso() == null ? '!' : f.dso().symtabOrigin()) + " ";
    }

    /** The width of perf's address before a symbol with {@code -v}, and all it prints there. */
    static final int VERBOSE_ADDR = 18;
    static final int VERBOSE_PREFIX = VERBOSE_ADDR + 3;

    /** The fields of this event's format: the trace_fields columns (empty for other events). */
    public List<io.perfj.trace.FormatField> traceFields() {
        return traces == null ? List.of() : traces.fields(evsel);
    }

    /** Whether an entry's trace_fields column {@code k} was cut out of the formatted trace (not printed raw). */
    public boolean traceFieldFromText(HistEntry e, int k) {
        return e.trace != null && e.trace.fromText() != null && k < e.trace.fromText().length && e.trace.fromText()[k];
    }

    /** The text of an entry's trace_fields column {@code k} (empty when it has none). */
    public String traceField(HistEntry e, int k) {
        String[] c = e.traceColumns();
        return c == null || k >= c.length ? "" : c[k];
    }

    /** The last name of the entry's thread (the thread of the sample that made it). */
    public String threadComm(HistEntry e) {
        return e.threadComm == null ? e.comm : e.threadComm;
    }

    public Evsel evsel() {
        return evsel;
    }

    /**
     * Whether perf had formatted the rows' trace texts when it sized the trace column: an event
     * whose single sample was never compared with anything keeps the header's width.
     */
    public boolean traceCompared() {
        return traceCompared;
    }

    public String name() {
        return name;
    }

    /**
     * The name the report prints: the event's, or for a group leader (in the group view) the
     * group's description, {@code anon group { a, b }}.
     */
    public String label() {
        return label == null ? name : label;
    }

    /**
     * How many events the recording groups under this one, the leader included (1 when it
     * leads none); perf says "events" above a leader's report even when it reports it alone.
     */
    public int recordedMembers() {
        return recordedMembers;
    }

    /** The other events of the group this one leads, in group order (empty when it leads none or groups are off). */
    public List<Hists> members() {
        return members;
    }

    public List<HistEntry> entries() {
        return sorted;
    }

    /** The rows before {@code --symbol-filter} took any out (the hierarchy's levels sum them all). */
    public List<HistEntry> entriesBeforeSymbolFilter() {
        return beforeSymbolFilter;
    }

    private List<HistEntry> beforeSymbolFilter = List.of();

    public long totalPeriod() {
        return totalPeriod;
    }

    public long totalSamples() {
        return totalSamples;
    }

    /** The period of the samples the filters keep: all of them without filters. */
    public long keptPeriod() {
        return keptPeriod;
    }

    /**
     * What relative percentages of rows are of: {@link #keptPeriod()}, or after
     * {@code --symbol-filter} the period of the rows it left.
     */
    public long rowsPeriod() {
        return rowsPeriod >= 0 ? rowsPeriod : keptPeriod;
    }

    private long rowsPeriod = -1;

    /** How many samples the filters keep. */
    public long keptSamples() {
        return keptSamples;
    }

    public long callchainPeriod() {
        return callchainPeriod;
    }

    public FrameTable frames() {
        return frames;
    }

    public ReportOptions options() {
        return opts;
    }
}
