package io.perfj.top;

import io.perfj.perfdata.RawRecord;
import io.perfj.perfdata.RecordInput;
import io.perfj.perfdata.RecordType;
import io.perfj.perfdata.record.PerfRecord;
import io.perfj.perfdata.record.RecordDecoder;
import io.perfj.perfdata.record.Sample;
import io.perfj.profile.Frame;
import io.perfj.profile.FrameTable;
import io.perfj.profile.StackTable;
import io.perfj.report.Report;
import io.perfj.report.ReportOptions;
import io.perfj.report.SortKey;
import io.perfj.session.ChainWalk;
import io.perfj.session.Session;
import io.perfj.symbols.Location;
import io.perfj.symbols.Machine;
import io.perfj.symbols.Map;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * {@code perfj top}'s two threads over one session's process model. The reader thread takes the
 * records in perf's order from the session's recording ({@link io.perfj.perfdata.PerfData#orderedRecords()}:
 * a file replayed at full speed, or the pipe-mode stream a live recording writes, the same
 * interface) and applies every non-sample record to the {@link Machine} (whose maps change only
 * under their write lock); for each sample it finds the thread's name and the map of the sampled
 * address in the model of that moment and queues them. The display thread looks the symbols up
 * in those maps (the costly part: symbol tables are loaded on first use, the kernel's up front)
 * and sums the periods by command and frame; {@link #snapshot} reads the sums at any time.
 */
public final class LiveProfile implements AutoCloseable {
    /** A sample as the reader saw it: the thread's name and the map, found at the sample. */
    private record Hit(String comm, Map map, char level, long ip, long period, Chain chain) {
    }

    /**
     * A sample's callchain as the reader walked it (innermost first, as {@link Session#resolveStack}
     * gives it): each address with the map found for it at the sample, and its level.
     */
    private record Chain(Map[] maps, char[] levels, long[] ips) {
    }

    /** One row of a snapshot: the keys it was merged by (null for a key not asked for) and its sums. */
    public record Row(String comm, Frame frame, long period, long samples) {
        public String dso() {
            return frame == null ? null : frame.dsoName();
        }

        /** The symbol column as perf prints it: {@code [k] name}, {@code [.] 0x...}. */
        public String symbol() {
            return frame == null ? null : "[" + frame.level() + "] " + frame.symName();
        }
    }

    /** The sums at one moment, rows hottest first. */
    public record Snapshot(long samples, long period, long unmapped, long lost, List<Row> rows) {
        public Snapshot {
            rows = List.copyOf(rows);
        }

        /** A row's share of the period, in percent. */
        public double percent(Row r) {
            return period == 0 ? 0 : 100.0 * r.period() / period;
        }
    }

    private static final int BATCH = 1024;
    private static final Hit[] END = new Hit[0];

    private final Session session;
    private final Machine machine;
    private final BlockingQueue<Hit[]> queue = new ArrayBlockingQueue<>(64);
    private final FrameTable frames = new FrameTable();
    /** (command, frame id) to {period, samples}: guarded by this. */
    private final HashMap<Key, long[]> sums = new HashMap<>();
    /** The sums per sampled address within each symbol (annotation): guarded by this. */
    private final SymbolAddresses addresses = new SymbolAddresses();
    private long samples;
    private long period;
    private long unmapped;
    private volatile long lost;
    private final java.lang.Thread reader;
    private final java.lang.Thread display;
    private volatile boolean stopping;
    private volatile Throwable failure;
    private volatile RecordInput input;

    private record Key(String comm, int frame) {
    }

    /** With callchains: (command, frame id, stack id of {@link #chainStacks}) to {period, samples}, in first-seen order; guarded by this. */
    private final LinkedHashMap<ChainKey, long[]> chainSums = new LinkedHashMap<>();
    /** Interned callchains: stacks (root first) of ids of {@link #chainLocations}; guarded by this. */
    private final StackTable chainStacks = new StackTable();
    /**
     * Each distinct (map, level, address) of a callchain located once: ids into
     * {@link #chainLocations} of its frames (inlined functions first); guarded by this.
     */
    private final HashMap<ChainAddress, int[]> chainIds = new HashMap<>();
    /** How recorded callchain addresses name the functions inlined at them (report's default). */
    private final io.perfj.session.RecordedInlines inlines;
    private final List<Location> chainLocations = new ArrayList<>();
    /** Whether samples' callchains are walked and summed (perf top -g). */
    private final boolean callchains;
    private final ChainWalk walk;

    private record ChainKey(String comm, int frame, int stack) {
    }

    /** A callchain address in the map the reader found for it (compared by identity). */
    private record ChainAddress(Map map, char level, long ip) {
        @Override
        public boolean equals(Object o) {
            return o instanceof ChainAddress a && a.map == map && a.level == level && a.ip == ip;
        }

        @Override
        public int hashCode() {
            return (System.identityHashCode(map) * 31 + level) * 31 + Long.hashCode(ip);
        }
    }

    /**
     * A profile over {@code session}'s records; nothing is read until {@link #start}. The session
     * is not {@linkplain Session#run run}: the profile reads its records itself.
     */
    public LiveProfile(Session session) {
        this(session, false);
    }

    /**
     * As {@link #LiveProfile(Session)}; with {@code callchains} (perf top -g) each sample's
     * callchain is walked too, its addresses' maps found at the sample as its own address's is,
     * and the profile keeps a sum per command, frame and callchain for {@link #report}.
     */
    public LiveProfile(Session session, boolean callchains) {
        this.session = Objects.requireNonNull(session, "session");
        this.callchains = callchains;
        this.inlines = session.recordedInlines(true);
        this.walk = callchains ? ChainWalk.of(session) : null;
        this.machine = session.machine();
        this.reader = new java.lang.Thread(this::read, "perfj-top-reader");
        this.display = new java.lang.Thread(this::resolve, "perfj-top-display");
        reader.setDaemon(true);
        display.setDaemon(true);
    }

    /** Starts both threads; the kernel's symbols start loading at once. */
    public LiveProfile start() {
        // the kernel's and modules' symbols before the first sample needs them
        machine.preloadKernel(Runnable::run);
        display.start();
        reader.start();
        return this;
    }

    private void read() {
        Hit[] batch = new Hit[BATCH];
        int n = 0;
        try {
            RecordInput in = session.data().orderedRecords();
            input = in;
            for (RawRecord r = in.next(); r != null && !stopping; r = in.next()) {
                PerfRecord rec = RecordDecoder.decode(r, session.data().evlist());
                if (rec instanceof Sample s) {
                    io.perfj.symbols.Thread t = machine.thread(s.pid(), s.tid());
                    Map m = machine.findMap(t, s.cpumode(), s.ip());
                    batch[n++] = new Hit(t.comm(), m, Machine.level(s.cpumode()), s.ip(), s.period(),
                            callchains ? chain(t, s) : null);
                    if (n == BATCH) {
                        queue.put(batch);
                        batch = new Hit[BATCH];
                        n = 0;
                    }
                } else if (rec != null) {
                    if (rec instanceof io.perfj.perfdata.record.KernelRecord.LostSamples l) {
                        lost += l.lost();
                    } else if (rec instanceof io.perfj.perfdata.record.KernelRecord.Lost l) {
                        lost += l.lost();
                    }
                    machine.process(rec);
                }
                if (r.type() == RecordType.FINISHED_ROUND && n > 0) {
                    // a live recording's pass over the buffers is done: show it without waiting for a full batch
                    queue.put(Arrays.copyOf(batch, n));
                    n = 0;
                }
            }
        } catch (InterruptedException e) {
            java.lang.Thread.currentThread().interrupt();
        } catch (RuntimeException | Error e) {
            failure = e;
        } finally {
            try {
                // the samples read before the end or before a failure are summed
                if (n > 0) {
                    queue.put(Arrays.copyOf(batch, n));
                }
                queue.put(END);
            } catch (InterruptedException e) {
                display.interrupt();
            }
        }
    }

    /**
     * The sample's callchain walked as {@link Session#resolveStack} walks it, each address's map
     * found now, in the model of the sample's moment; null when the sample has none.
     */
    private Chain chain(io.perfj.symbols.Thread t, Sample s) {
        if (s.callchain() == null || s.callchain().size() == 0) {
            return null;
        }
        if (!walk.walk(s, null, Session.DEFAULT_MAX_STACK)) {
            return new Chain(new Map[0], new char[0], new long[0]);
        }
        int n = walk.size();
        Chain c = new Chain(new Map[n], new char[n], new long[n]);
        for (int i = 0; i < n; i++) {
            c.maps()[i] = machine.findMap(t, walk.mode(i), walk.ip(i));
            c.levels()[i] = Machine.level(walk.mode(i));
            c.ips()[i] = walk.ip(i);
        }
        return c;
    }

    /**
     * The batch's callchains located (outside the lock, as the samples' own addresses are), each
     * address with the functions inlined at it as report names them by default (innermost
     * first, the address's own frame last); null without callchains.
     */
    private Location[][][] locateChains(Hit[] batch) {
        if (!callchains) {
            return null;
        }
        Location[][][] out = new Location[batch.length][][];
        for (int i = 0; i < batch.length; i++) {
            Chain c = batch[i] == null ? null : batch[i].chain();
            if (c != null) {
                out[i] = new Location[c.ips().length][];
                for (int j = 0; j < out[i].length; j++) {
                    Location loc = machine.locate(c.maps()[j], c.levels()[j], c.ips()[j]);
                    out[i][j] = loc.dso() == null ? new Location[] {loc}
                            : inlines.frames(session.resolver(), loc).toArray(new Location[0]);
                }
            }
        }
        return out;
    }

    /** Adds one sample to the sums by command, frame and callchain; under the lock. */
    private void sumChain(Hit h, int frame, Location[][] chain) {
        int stack = StackTable.EMPTY;
        if (chain != null) {
            for (int j = chain.length - 1; j >= 0; j--) {
                Chain c = h.chain();
                ChainAddress a = new ChainAddress(c.maps()[j], c.levels()[j], c.ips()[j]);
                int[] ids = chainIds.get(a);
                if (ids == null) {
                    ids = new int[chain[j].length];
                    for (int k = 0; k < ids.length; k++) {
                        ids[k] = chainLocations.size();
                        chainLocations.add(chain[j][k]);
                    }
                    chainIds.put(a, ids);
                }
                // root first: the address's own frame, then the functions inlined in it, innermost last
                for (int k = ids.length - 1; k >= 0; k--) {
                    stack = chainStacks.push(stack, ids[k]);
                }
            }
        }
        long[] s = chainSums.computeIfAbsent(new ChainKey(h.comm(), frame, stack), k -> new long[2]);
        s[0] += h.period();
        s[1]++;
    }

    private void resolve() {
        try {
            while (true) {
                Hit[] batch = queue.take();
                if (batch == END) {
                    return;
                }
                // symbols are looked up outside the lock: a snapshot never waits for a symbol table
                int[] ids = new int[batch.length];
                Location[] locs = new Location[batch.length];
                for (int i = 0; i < batch.length; i++) {
                    Hit h = batch[i];
                    if (h == null) {
                        ids[i] = -1;
                        continue;
                    }
                    Location loc = machine.locate(h.map(), h.level(), h.ip());
                    ids[i] = frames.intern(loc);
                    locs[i] = loc;
                }
                Location[][][] chains = locateChains(batch);
                synchronized (this) {
                    for (int i = 0; i < batch.length; i++) {
                        Hit h = batch[i];
                        if (h == null) {
                            continue;
                        }
                        long[] s = sums.computeIfAbsent(new Key(h.comm(), ids[i]), k -> new long[2]);
                        s[0] += h.period();
                        s[1]++;
                        addresses.add(locs[i], h.period());
                        samples++;
                        period += h.period();
                        if (h.map() == null) {
                            unmapped++;
                        }
                        if (chains != null) {
                            sumChain(h, ids[i], chains[i]);
                        }
                    }
                }
            }
        } catch (InterruptedException e) {
            java.lang.Thread.currentThread().interrupt();
        } catch (RuntimeException | Error e) {
            failure = e;
            stopping = true;
            queue.clear();
        }
    }

    /**
     * The sums so far, merged by {@code keys} (of comm, dso, sym; a key left out merges the rows
     * it separates), hottest first, ties by command, object and symbol name.
     */
    public Snapshot snapshot(List<SortKey> keys) {
        return snapshot(keys, null, null);
    }

    /** A row with the names it is ordered by. */
    private record Ordered(Row row, String comm, String dso, String symbol) {
    }

    /**
     * Heaviest first, then by command, object and symbol name: written out, as each refresh sorts
     * every row (thousands system-wide) and a chain of comparator lambdas costs several times
     * more per comparison in C1 code.
     */
    private static final Comparator<Ordered> ROW_ORDER = (a, b) -> {
        int c = Long.compare(b.row().period(), a.row().period());
        if (c == 0) {
            c = a.comm().compareTo(b.comm());
        }
        if (c == 0) {
            c = a.dso().compareTo(b.dso());
        }
        return c != 0 ? c : a.symbol().compareTo(b.symbol());
    };

    /**
     * Like {@link #snapshot(List)}, of only the samples of command {@code comm} and object
     * {@code dso} (by {@link Frame#dsoName()}; null: every one): top's zooms. The totals stay
     * those of every sample, so a zoomed row's share is its share of the whole, as in perf top.
     */
    public Snapshot snapshot(List<SortKey> keys, String comm, String dso) {
        boolean byComm = keys.contains(SortKey.COMM);
        boolean byDso = keys.contains(SortKey.DSO);
        boolean bySym = keys.contains(SortKey.SYM);
        LinkedHashMap<List<Object>, Row> merged = new LinkedHashMap<>();
        long total;
        long count;
        long un;
        synchronized (this) {
            total = period;
            count = samples;
            un = unmapped;
            for (java.util.Map.Entry<Key, long[]> e : sums.entrySet()) {
                Frame f = frames.get(e.getKey().frame());
                if (comm != null && !comm.equals(e.getKey().comm()) || dso != null && !dso.equals(f.dsoName())) {
                    continue;
                }
                Frame shown = bySym ? f : byDso ? new Frame(f.dso(), null, 0, f.level()) : null;
                String c = byComm ? e.getKey().comm() : null;
                List<Object> k = Arrays.asList(c, bySym ? f.dso() : byDso ? f.dso() : null,
                        bySym ? (f.sym() != null ? f.sym() : (Object) f.addr()) : null, bySym ? f.level() : null);
                long[] s = e.getValue();
                merged.merge(k, new Row(c, shown, s[0], s[1]),
                        (a, b) -> new Row(a.comm(), a.frame(), a.period() + b.period(), a.samples() + b.samples()));
            }
        }
        // the names each row is ordered by, made once per row rather than at every comparison
        List<Ordered> ordered = new ArrayList<>(merged.size());
        for (Row r : merged.values()) {
            ordered.add(new Ordered(r, Objects.toString(r.comm(), ""), Objects.toString(r.dso(), ""),
                    Objects.toString(r.symbol(), "")));
        }
        ordered.sort(ROW_ORDER);
        return new Snapshot(count, total, un, lost, ordered.stream().map(Ordered::row).toList());
    }

    /**
     * The sums so far as report makes them of a recording's samples ({@link Report#ofRows}): with
     * callchains (the profile made with them) the Children/Self columns and callchain trees as
     * {@code opts} ask, else self rows; {@code event}: the name the report gives the one event.
     */
    public Report report(ReportOptions opts, String event) {
        List<Report.MergedRow> rows = new ArrayList<>();
        long l = lost;
        synchronized (this) {
            if (callchains) {
                for (java.util.Map.Entry<ChainKey, long[]> e : chainSums.entrySet()) {
                    ChainKey k = e.getKey();
                    rows.add(new Report.MergedRow(0, k.comm(), -1, -1, -1, location(frames.get(k.frame())),
                            chain(k.stack()), e.getValue()[0], e.getValue()[1]));
                }
            } else {
                for (java.util.Map.Entry<Key, long[]> e : sums.entrySet()) {
                    rows.add(new Report.MergedRow(0, e.getKey().comm(), -1, -1, -1,
                            location(frames.get(e.getKey().frame())), e.getValue()[0], e.getValue()[1]));
                }
            }
        }
        return Report.ofRows(opts, List.of(event), rows, l, null);
    }

    /**
     * The summed callchains as profile stacks: each (command, callchain) with its sums, the
     * sampled frame first as {@link Session#resolveStack} gives a chain (the sampled frame alone
     * for a sample without one, or for a profile made without callchains).
     */
    public synchronized void forEachStack(StackSink sink) {
        if (callchains) {
            for (java.util.Map.Entry<ChainKey, long[]> e : chainSums.entrySet()) {
                ChainKey k = e.getKey();
                List<Location> c = chain(k.stack());
                sink.stack(k.comm(), c.isEmpty() ? List.of(location(frames.get(k.frame()))) : c,
                        e.getValue()[1], e.getValue()[0]);
            }
        } else {
            for (java.util.Map.Entry<Key, long[]> e : sums.entrySet()) {
                sink.stack(e.getKey().comm(), List.of(location(frames.get(e.getKey().frame()))),
                        e.getValue()[1], e.getValue()[0]);
            }
        }
    }

    /** Receives {@link #forEachStack}'s stacks. */
    public interface StackSink {
        void stack(String comm, List<Location> leafFirst, long samples, long period);
    }

    /**
     * {@link #report}'s entries as a snapshot's rows (each with its own period and samples; its
     * comm when {@code opts} sort by it), only those of command {@code comm} and object
     * {@code dso} when given (top's zooms), with the entry each row is: its accumulated period
     * (--children) and callchain tree. The snapshot's totals are those of every sample.
     */
    public Entries entries(ReportOptions opts, String comm, String dso, String event) {
        Snapshot all = snapshot(List.of());
        Report r = report(opts, event);
        java.util.IdentityHashMap<Row, io.perfj.report.HistEntry> entries = new java.util.IdentityHashMap<>();
        List<Row> rows = new ArrayList<>();
        boolean byComm = opts.has(SortKey.COMM);
        for (io.perfj.report.Hists h : r.hists()) {
            for (io.perfj.report.HistEntry e : h.entries()) {
                Frame f = r.frames().get(e.frame());
                if (comm != null && !comm.equals(e.comm()) || dso != null && !dso.equals(f.dsoName())) {
                    continue;
                }
                Row row = new Row(byComm ? e.comm() : null, f, e.selfPeriod(), e.selfSamples());
                rows.add(row);
                entries.put(row, e);
            }
        }
        return new Entries(new Snapshot(all.samples(), all.period(), all.unmapped(), all.lost(), rows), r, entries);
    }

    /** {@link #entries}' answer: the rows, the report they are entries of, and each row's entry. */
    public record Entries(Snapshot snapshot, Report report, java.util.Map<Row, io.perfj.report.HistEntry> entries) {
        /** The row's accumulated period (its Children column). */
        public long children(Row row) {
            return entries.get(row).accPeriod();
        }

        /** The row's callchain tree as report prints it under the row. */
        public List<String> callchains(Row row) {
            io.perfj.report.HistEntry e = entries.get(row);
            return e == null ? List.of() : io.perfj.report.StdioReport.callchainLines(report, e);
        }
    }

    /** Whether the profile keeps callchains (made with them). */
    public boolean callchains() {
        return callchains;
    }

    /** A stack of {@link #chainStacks} as locations, innermost first; under the lock. */
    private List<Location> chain(int stack) {
        int[] ids = chainStacks.frames(stack);
        Location[] out = new Location[ids.length];
        for (int i = 0; i < ids.length; i++) {
            // pushed root first: the first pushed is the outermost caller
            out[ids.length - 1 - i] = chainLocations.get(ids[i]);
        }
        return Arrays.asList(out);
    }

    /** A summed frame as a location that interns to the same frame (its symbol, or its address in its object). */
    private static Location location(Frame f) {
        return new Location(null, f.dso(), f.sym(), f.addr(), f.addr(), f.level());
    }

    /**
     * The sums per sampled address within {@code sym} of {@code dso} so far (offsets into the
     * symbol), or null when none of its samples came: what an annotation of the symbol counts.
     */
    synchronized SymbolAddresses.Copy addresses(io.perfj.symbols.Dso dso, io.perfj.symbols.Symbol sym) {
        SymbolAddresses.Sums s = addresses.of(dso, sym);
        return s == null ? null : s.copy();
    }

    /** The session whose records the profile reads. */
    Session session() {
        return session;
    }

    /** Forgets the sums so far (top's {@code z}): the next snapshot counts only what comes after. */
    public synchronized void reset() {
        sums.clear();
        chainSums.clear();
        addresses.clear();
        samples = 0;
        period = 0;
        unmapped = 0;
    }

    /** Waits until every record has been read and every sample summed; a thread's failure is rethrown. */
    public void awaitEnd() throws InterruptedException {
        reader.join();
        display.join();
        rethrow();
    }

    /** Waits at most {@code millis} for the end; whether it came. */
    public boolean awaitEnd(long millis) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        reader.join(Math.max(1, millis));
        long left = TimeUnit.NANOSECONDS.toMillis(until - System.nanoTime());
        display.join(Math.max(1, left));
        rethrow();
        return !reader.isAlive() && !display.isAlive();
    }

    private void rethrow() {
        Throwable t = failure;
        if (t instanceof RuntimeException e) {
            throw e;
        }
        if (t instanceof Error e) {
            throw e;
        }
    }

    /** What the record input found cut short or skipped, and the process model's warnings, once it ended. */
    public List<String> warnings() {
        List<String> out = new ArrayList<>();
        RecordInput in = input;
        if (in != null) {
            out.addAll(in.warnings());
        }
        out.addAll(machine.warnings());
        return out;
    }

    /** Stops reading: the reader ends at its next record; the queued samples are still summed. */
    public void stop() {
        stopping = true;
    }

    /** Stops both threads. The session stays open: its owner closes it. */
    @Override
    public void close() {
        stopping = true;
        reader.interrupt();
        display.interrupt();
    }
}
