package io.perfj.report;

import io.perfj.session.FrameResolver;
import io.perfj.perfdata.Evsel;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The entries of one event's report (perf's {@code struct hists}): built from merged samples,
 * with self and accumulated (--children) periods and, when callchains are printed, one
 * callchain tree per entry built the way perf builds them.
 */
public final class Hists {
    private final Evsel evsel;
    private final String name;
    private final ReportOptions opts;
    private final FrameTable frames;
    private final StackTable stacks;
    /** In the order entries were created, which is the order perf inserts them into its tree. */
    private final Map<EntryKey, HistEntry> entries = new java.util.LinkedHashMap<>();
    private final Map<Object, Integer> dsoKeys = new HashMap<>();
    private List<HistEntry> sorted = List.of();
    private long totalPeriod;
    private long totalSamples;
    private long callchainPeriod;

    private record EntryKey(String comm, int pid, int tid, int cpu, int key) {
        // equals/hashCode written out: a record's own are bootstrapped at run time (start-up)
        @Override
        public boolean equals(Object o) {
            return o instanceof EntryKey e && key == e.key && pid == e.pid && tid == e.tid && cpu == e.cpu
                    && java.util.Objects.equals(comm, e.comm);
        }

        @Override
        public int hashCode() {
            return (((java.util.Objects.hashCode(comm) * 31 + pid) * 31 + tid) * 31 + cpu) * 31 + key;
        }
    }

    Hists(Evsel evsel, String name, ReportOptions opts, FrameTable frames, StackTable stacks) {
        this.evsel = evsel;
        this.name = name;
        this.opts = opts;
        this.frames = frames;
        this.stacks = stacks;
    }

    /** The part of a frame the sort keys look at: the frame, its DSO, or nothing. */
    private int keyOf(int frame) {
        if (opts.has(SortKey.SYM)) {
            return frames.canonical(frame);
        }
        if (opts.has(SortKey.DSO)) {
            Frame f = frames.get(frame);
            Object dso = f.dso() == null ? "[unknown]" : f.dso();
            return dsoKeys.computeIfAbsent(dso, d -> dsoKeys.size());
        }
        return -1;
    }

    /** Whether the sample being added failed the filters (the entries it creates are hidden). */
    private boolean creatingFiltered;

    private HistEntry entry(String comm, int pid, int tid, int cpu, int frame) {
        // perf's "pid" key is the thread: its tid, shown with the thread's last command name.
        EntryKey k = new EntryKey(opts.has(SortKey.COMM) ? comm : null,
                opts.has(SortKey.PID) || opts.has(SortKey.TID) ? pid : -1,
                opts.has(SortKey.PID) || opts.has(SortKey.TID) ? tid : -1,
                opts.has(SortKey.CPU) ? cpu : -1, keyOf(frame));
        HistEntry e = entries.get(k);
        if (e == null) {
            e = new HistEntry(k.comm() == null ? comm : k.comm(), pid, tid, cpu, frame);
            e.filtered = creatingFiltered;
            entries.put(k, e);
        }
        return e;
    }

    /** Adds merged samples: {@code samples} samples with this thread, cpu and stack. */
    /** perf matches callchain nodes by symbol, or by address without one: not by level. */
    private int[] canonical(int[] chain) {
        int[] nodes = new int[chain.length];
        for (int i = 0; i < chain.length; i++) {
            nodes[i] = frames.canonical(chain[i]);
        }
        return nodes;
    }

    void add(String comm, int pid, int tid, int cpu, int selfFrame, int stack, long period, long samples) {
        int[] chain = stacks.frames(stack);
        boolean pass = accepted(comm, pid, tid, cpu, selfFrame);
        totalPeriod += period;
        totalSamples += samples;
        if (!pass && !opts.children()) {
            return;
        }
        creatingFiltered = !pass;
        boolean withChains = opts.mode() != CallchainMode.NONE && chain.length > 0;
        int[] nodes = withChains ? canonical(chain) : chain;
        callchainPeriod += period;
        HistEntry self = entry(comm, pid, tid, cpu, selfFrame);
        self.selfPeriod += period;
        self.selfSamples += samples;
        if (opts.children()) {
            Set<HistEntry> seen = new HashSet<>();
            seen.add(self);
            self.accPeriod += period;
            self.accSamples += samples;
            if (withChains) {
                addChain(self, nodes, chain.length - 1, period, samples, true);
            }
            // perf walks the callchain in print order and adds each frame's entry once.
            for (int n = 0; n < chain.length; n++) {
                int i = opts.callerOrder() ? chain.length - 1 - n : n;
                HistEntry e = entry(comm, pid, tid, cpu, chain[i]);
                if (!seen.add(e)) {
                    continue;
                }
                e.accPeriod += period;
                e.accSamples += samples;
                if (withChains) {
                    addChain(e, nodes, i, period, samples, false);
                }
            }
        } else if (withChains) {
            addChain(self, nodes, chain.length - 1, period, samples, true);
        }
    }

    /** perf's entry tree, when entries are built as perf builds them (see {@link PerfHistTree}). */
    private PerfHistTree tree;

    /** Builds entries sample by sample through perf's tree ({@link #addOrdered}) instead of {@link #add}. */
    void perfOrdered() {
        tree = new PerfHistTree(this::perfCmp);
    }

    /**
     * Adds one sample the way perf's cumulative hist iterator does: the entry of the sample
     * itself, then one for each callchain frame in print order unless the sample already added
     * an entry that compares equal; each found (or inserted) by a search of perf's tree with
     * perf's comparison. {@code maps} numbers the map each callchain frame was found through.
     */
    void addOrdered(String comm, int pid, int tid, int cpu, int selfFrame, int stack, int[] maps, long period) {
        int[] chain = stacks.frames(stack);
        totalPeriod += period;
        totalSamples++;
        boolean pass = accepted(comm, pid, tid, cpu, selfFrame);
        if (!pass && !opts.children()) {
            return;
        }
        creatingFiltered = !pass;
        boolean withChains = opts.mode() != CallchainMode.NONE && chain.length > 0;
        int[] nodes = withChains ? canonical(chain) : chain;
        callchainPeriod += period;
        List<HistEntry> added = new ArrayList<>();
        HistEntry selfProbe = new HistEntry(comm, pid, tid, cpu, selfFrame);
        selfProbe.filtered = creatingFiltered;
        HistEntry self = findnew(selfProbe, 0);
        self.selfPeriod += period;
        self.selfSamples++;
        self.accPeriod += period;
        self.accSamples++;
        added.add(self);
        if (withChains) {
            addChain(self, nodes, chain.length - 1, period, 1, true);
        }
        next:
        for (int n = 0; n < chain.length; n++) {
            int i = opts.callerOrder() ? chain.length - 1 - n : n;
            HistEntry probe = new HistEntry(comm, pid, tid, cpu, chain[i]);
            probe.filtered = creatingFiltered;
            for (HistEntry a : added) {
                if (perfCmp(a, probe) == 0) {
                    continue next;
                }
            }
            HistEntry e = findnew(probe, maps[i]);
            e.accPeriod += period;
            e.accSamples++;
            added.add(e);
            if (withChains) {
                addChain(e, nodes, i, period, 1, false);
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
            entries.put(new EntryKey(null, -1, -1, -1, entries.size()), e);
        }
        return e;
    }

    /** perf's {@code hist_entry__cmp}: the sort keys' comparisons in order, the first non-zero. */
    long perfCmp(HistEntry l, HistEntry r) {
        Frame fl = frames.get(l.frame);
        Frame fr = frames.get(r.frame);
        // frames are interned: the same frame compares equal under every key (most comparisons)
        boolean same = fl == fr;
        for (SortKey k : opts.sortKeys()) {
            long c = switch (k) {
                case COMM -> l.comm == r.comm ? 0 : r.comm.compareTo(l.comm);
                case PID, TID -> r.tid - l.tid;
                case CPU -> r.cpu - l.cpu;
                case DSO -> same ? 0 : dsoCmp(fl, fr);
                case SYM -> same ? 0 : symCmp(fl, fr);
            };
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    /**
     * perf's {@code sort__dso_cmp}, which hands its entries to {@code _sort__dso_cmp} the other
     * way round: by short name, right against left; without a DSO, left's absence first.
     */
    private static long dsoCmp(Frame l, Frame r) {
        if (l.dso() == r.dso()) {
            return 0;
        }
        if (l.dso() == null || r.dso() == null) {
            return l.dso() == null ? (r.dso() == null ? 0 : -1) : 1;
        }
        return r.dso().shortName().compareTo(l.dso().shortName());
    }

    /**
     * perf's {@code sort__sym_cmp}: without symbols by address; an inlined symbol against any
     * other by name first, equal when the names are and the ranges overlap; otherwise by start,
     * then end.
     */
    private long symCmp(Frame l, Frame r) {
        io.perfj.symbols.Symbol sl = l.sym();
        io.perfj.symbols.Symbol sr = r.sym();
        if (sl == null && sr == null) {
            return r.addr() - l.addr();
        }
        if (!opts.has(SortKey.DSO)) {
            long c = dsoCmp(l, r);
            if (c != 0) {
                return c;
            }
        }
        if (sl == null || sr == null) {
            return sl == null ? -1 : 1;
        }
        if (sl == sr || sl.start() == sr.start() && sl.end() == sr.end() && sl.binding() == sr.binding()
                && sl.name().equals(sr.name())) {
            return 0; // Symbol.equals, fields compared cheapest first
        }
        if (sl.inlined() || sr.inlined()) {
            int c = sl.name().compareTo(sr.name());
            if (c != 0) {
                return c;
            }
            if (Long.compareUnsigned(sl.start(), sr.end()) <= 0 && Long.compareUnsigned(sl.end(), sr.start()) >= 0) {
                return 0;
            }
        }
        if (sl.start() != sr.start()) {
            return sr.start() - sl.start();
        }
        return sr.end() - sl.end();
    }

    /**
     * perf's trees of entries in the order it walks them when sorting the output. Its input tree
     * ({@code hists__findnew_entry}) gets each entry when the first sample creating it is added;
     * {@code hists__collapse_resort}, which runs when a sort key has a collapse function of its
     * own (comm), inserts that tree's entries in order into a new one, merging those that now
     * meet an equal one. {@code output_resort} then walks the last tree in order.
     *
     * <p>Why the trees, not a sort: rows the output sort finds equal keep this order, and for
     * rows without a symbol the trees order by {@code _sort__addr_cmp}, the difference of the
     * two ips as a signed 64-bit number, which is no order when addresses lie more than 2^63
     * apart (a user address against a garbage one from a broken frame chain): where such a row
     * lands depends on the entries the search meets, so on the tree's shape.
     */
    private List<HistEntry> perfTreeOrder() {
        List<HistEntry> in;
        if (tree != null) {
            in = tree.inOrder();
        } else {
            // Merged samples keep the order of their first sample and add their entries in
            // perf's order, so the entries were created in perf's order: insert them again.
            in = reinsert(new ArrayList<>(entries.values()), true);
        }
        return opts.has(SortKey.COMM) ? reinsert(in, false) : in;
    }

    /**
     * The entries inserted in order into a tree searched with perf's comparison. {@code adding}:
     * as samples are added, where an entry's callchain depth is the largest of its samples';
     * otherwise as perf collapses, whose callchain_merge keeps the depth of the entry merged into.
     */
    private List<HistEntry> reinsert(List<HistEntry> in, boolean adding) {
        PerfHistTree out = new PerfHistTree(this::perfCmp);
        for (HistEntry e : in) {
            HistEntry m = out.findOrInsert(e);
            if (m == e) {
                continue;
            }
            m.selfPeriod += e.selfPeriod;
            m.selfSamples += e.selfSamples;
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
        return out.inOrder();
    }

    /**
     * Adds the chain to an entry's tree: for the self entry the whole chain, for an accumulated
     * entry the part from its frame on (toward the leaf in caller order, toward the root in
     * callee order).
     */
    private void addChain(HistEntry e, int[] chain, int at, long period, long samples, boolean whole) {
        if (e.chains == null) {
            e.chains = CallchainNode.root();
        }
        int depth = whole ? chain.length : opts.callerOrder() ? at + 1 : chain.length - at;
        e.maxDepth = Math.max(e.maxDepth, depth);
        if (opts.callerOrder()) {
            int from = whole ? chain.length - 1 : at;
            e.chains.add(chain, from, -1, -1, period);
        } else {
            int from = whole ? 0 : at;
            e.chains.add(chain, from, chain.length, 1, period);
        }
    }

    /**
     * Whether a sample passes the filters (its thread, cpu, and the object and symbol it landed
     * in). Without --children a sample that does not is left out. With --children perf adds it
     * like any other and only marks the entries it creates as filtered: an entry is hidden when
     * the sample that created it did not pass, and counts every sample that reaches it.
     */
    private boolean accepted(String comm, int pid, int tid, int cpu, int leaf) {
        if (!opts.filters()) {
            return true;
        }
        if (opts.comms() != null && !opts.comms().contains(comm)) {
            return false;
        }
        if (opts.pids() != null && !opts.pids().contains(pid)) {
            return false;
        }
        if (opts.tids() != null && !opts.tids().contains(tid)) {
            return false;
        }
        if (opts.cpus() != null && !opts.cpus().contains(cpu)) {
            return false;
        }
        return frameAccepted(leaf);
    }

    /** The --dsos and --symbols filters on one frame. */
    private boolean frameAccepted(int frame) {
        if (frame < 0) {
            return opts.dsos() == null && opts.symbols() == null;
        }
        Frame f = frames.get(frame);
        if (opts.dsos() != null && !(opts.dsos().contains(f.dsoName())
                || f.dso() != null && opts.dsos().contains(f.dso().longName()))) {
            return false;
        }
        return opts.symbols() == null || f.sym() != null && opts.symbols().contains(f.sym().name());
    }

    void finish(FrameResolver resolver) {
        if (opts.has(SortKey.PID)) {
            for (HistEntry e : entries.values()) {
                e.threadComm = resolver.comm(e.pid, e.tid);
            }
        }
        List<HistEntry> list = perfTreeOrder();
        // perf's output_resort: each entry, in tree order, inserted into the output tree where
        // hist_entry__sort sends it (left when it sorts first, else right). The comparison is
        // not always an order (Children equal in a thread ordered by callchain depth, across
        // threads not), so the tree is built, not the list sorted.
        Comparator<HistEntry> order = outputOrder();
        PerfHistTree out = new PerfHistTree((node, e) -> order.compare(e, node));
        for (HistEntry e : list) {
            out.insert(e);
        }
        // Hidden entries are in perf's output tree too (they shape it); they are not printed.
        List<HistEntry> shown = out.inOrder();
        if (opts.children() && opts.filters()) {
            shown.removeIf(e -> e.filtered);
        }
        sorted = shown;
    }

    /**
     * perf's output order ({@code hist_entry__sort} over "children, self, sort keys"): by value;
     * with --children, equal Children in the same thread put the caller first when callchains
     * are shown (by the depth of the entries' callchain trees, perf's {@code hpp__sort_acc}),
     * then larger Self first; then by the sort keys, each ascending as perf's sort functions
     * compare them (command, thread id, object name, symbol name, CPU; no object or symbol last);
     * with an explicit --sort naming symbol then by perf's hidden ipc_null key.
     */
    private Comparator<HistEntry> outputOrder() {
        Comparator<HistEntry> c;
        if (opts.children()) {
            c = Comparator.comparingLong(HistEntry::accPeriod).reversed();
            if (opts.mode() != CallchainMode.NONE) {
                c = c.thenComparing(this::callerFirst);
            }
            c = c.thenComparing(Comparator.comparingLong(HistEntry::selfPeriod).reversed());
        } else {
            c = Comparator.comparingLong(HistEntry::selfPeriod).reversed();
        }
        c = c.thenComparing(this::keyOrder);
        if (opts.symbolIpc()) {
            // perf report appends "ipc_null" to a --sort naming symbol (the IPC columns); its
            // output comparison is sort__sym_cmp itself: rows without a symbol by ip, others by
            // object (without a dso key), start and end.
            c = c.thenComparing((a, b) -> a.frame < 0 || b.frame < 0 ? 0
                    : -Long.signum(symCmp(frames.get(a.frame), frames.get(b.frame))));
        }
        // Entries equal here keep perf's tree order (see perfTreeOrder and finish).
        return c;
    }

    private int callerFirst(HistEntry a, HistEntry b) {
        // perf asks whether the event records callchains, not whether this entry has one: an
        // entry of samples without a chain has depth 0 and goes after its callers.
        if (a.tid != b.tid || a.pid != b.pid
                || (evsel.attr().sampleType() & io.perfj.perfdata.SampleFormat.CALLCHAIN) == 0) {
            return 0;
        }
        return opts.callerOrder() ? Integer.compare(b.maxDepth, a.maxDepth) : Integer.compare(a.maxDepth, b.maxDepth);
    }

    /** The sort keys perf's output sort looks at: a column elided by a one-value filter it skips. */
    private List<SortKey> outputKeys;

    private int keyOrder(HistEntry a, HistEntry b) {
        Frame fa = a.frame >= 0 ? frames.get(a.frame) : null;
        Frame fb = b.frame >= 0 ? frames.get(b.frame) : null;
        if (outputKeys == null) {
            outputKeys = StdioReport.shownKeys(opts);
        }
        for (SortKey k : outputKeys) {
            int c = switch (k) {
                case COMM -> a.comm.compareTo(b.comm);
                case PID, TID -> Integer.compare(a.tid, b.tid);
                case CPU -> Integer.compare(a.cpu, b.cpu);
                case DSO -> nullsLast(fa == null || fa.dso() == null ? null : fa.dso().shortName(),
                        fb == null || fb.dso() == null ? null : fb.dso().shortName());
                case SYM -> nullsLast(fa == null || fa.sym() == null ? null : fa.sym().name(),
                        fb == null || fb.sym() == null ? null : fb.sym().name());
            };
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    private static int nullsLast(String a, String b) {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : 1) : -1;
        }
        return a.compareTo(b);
    }

    /** The text of a sort-key column for an entry. */
    public String column(HistEntry e, SortKey k) {
        Frame f = e.frame >= 0 ? frames.get(e.frame) : null;
        return switch (k) {
            case COMM -> e.comm;
            case PID -> String.format("%7d:%s", e.tid, e.threadComm == null ? e.comm : e.threadComm);
            case TID -> String.format("%7d", e.tid);
            // perf's %*.*d: at least three digits after a minus sign (-1 is "-001")
            case CPU -> e.cpu < 0 ? "-" + String.format("%03d", -(long) e.cpu) : String.format("%03d", e.cpu);
            case DSO -> f == null ? "" : f.dsoName();
            case SYM -> f == null ? "" : "[" + f.level() + "] " + f.symName();
        };
    }

    public Evsel evsel() {
        return evsel;
    }

    public String name() {
        return name;
    }

    public List<HistEntry> entries() {
        return sorted;
    }

    public long totalPeriod() {
        return totalPeriod;
    }

    public long totalSamples() {
        return totalSamples;
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
