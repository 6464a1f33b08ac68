package io.perfj.profile;

import io.perfj.perfdata.SampleFormat;
import io.perfj.perfdata.record.KernelRecord;
import io.perfj.perfdata.record.PerfRecord;
import io.perfj.perfdata.record.Sample;
import io.perfj.session.ChainWalk;
import io.perfj.session.RecordHandler;
import io.perfj.session.SampleRef;
import io.perfj.session.Session;
import io.perfj.symbols.Location;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A recording's samples as the viewers and exporters take them: each sample's moment, thread,
 * CPU, event, weight and stack, in the session's order, with frames and stacks interned.
 *
 * <ul>
 *   <li>Frames ({@link #frames()}): one per (object, symbol), or per address where no symbol
 *       covers it, and level; functions inlined at an address are frames of their own
 *       ({@link io.perfj.symbols.Symbol#inlined()}), innermost first as the session gives them;
 *       {@link #inlinedIntoCaller} tells them from frames of their own address.
 *   <li>Stacks ({@link #stacks()}): a trie of frame ids, outermost caller at the root, so a
 *       stack id names every prefix of the stack too; a sample's stack is its leaf node.
 *   <li>Locations ({@link #locations()}): what frames drop, one per address, mapping, function
 *       and level of the inline chain at the address; the samples' stacks are kept as a trie of
 *       location ids ({@link #locationStacks()}), each node projected to its stack of frames
 *       ({@link #stackOf}), so the frame-level views see their stacks and the exports that want
 *       addresses, mappings and source lines read the locations.
 *   <li>Threads ({@link #threadCount()}): one per (pid, tid, command name), so a thread that
 *       calls exec is two, as viewers show it; in a profile of many hosts ({@link Stacks}), one
 *       per (host, pid, tid, command name).
 *   <li>Samples: columns of primitives, about 30 bytes a sample.
 *   <li>Command changes ({@link #commChanges()}): every COMM record of the recording, whatever
 *       the filter, for viewers that mark when a thread was renamed or called exec.
 * </ul>
 * A sample without a callchain has its sampled frame as its stack. A profile is read from one
 * recording's session ({@link #read}), or made of stacks weighed elsewhere ({@link Stacks}:
 * perfj-fleet's sums over many recordings), a "sample" then standing for all the samples of
 * one (thread, event, stack).
 */
public final class Profile {
    private final List<String> events;
    private final boolean[] periods;
    private final FrameTable frames;
    private final StackTable stacks;
    private final Locations locations;
    private final StackTable locationStacks;
    /** By location stack, its stack of frames. */
    private final int[] stackOf;
    private final int[] threadPid;
    private final int[] threadTid;
    private final String[] threadComm;
    private final String[] threadHost;
    private final int samples;
    private final long[] time;
    private final int[] thread;
    private final int[] cpu;
    private final short[] event;
    /** The sample's location stack. */
    private final int[] stack;
    private final long[] weight;
    /** How many samples each one stands for, in a profile of {@link Stacks} (else null: one each). */
    private final long[] count;
    private final List<CommChange> commChanges;
    private final BitSet inlinedIntoCaller;

    /**
     * A COMM record: thread {@code tid} of {@code pid} took the name {@code comm} at {@code time}
     * (nanoseconds, -1 when not recorded), by exec when {@code exec}.
     */
    public record CommChange(long time, int pid, int tid, String comm, boolean exec) {
    }

    private Profile(Builder b) {
        this.events = List.copyOf(b.events);
        this.periods = Arrays.copyOf(b.periods, events.size());
        this.frames = b.frames;
        this.stacks = b.stacks;
        this.locations = b.locations;
        this.locationStacks = b.locationStacks;
        this.stackOf = Arrays.copyOf(b.stackOf, b.locationStacks.size());
        int nt = b.threadComm.size();
        this.threadPid = Arrays.copyOf(b.threadPid, nt);
        this.threadTid = Arrays.copyOf(b.threadTid, nt);
        this.threadComm = b.threadComm.toArray(new String[0]);
        this.threadHost = b.threadHost.toArray(new String[0]);
        this.samples = b.n;
        this.time = Arrays.copyOf(b.time, b.n);
        this.thread = Arrays.copyOf(b.thread, b.n);
        this.cpu = Arrays.copyOf(b.cpu, b.n);
        this.event = Arrays.copyOf(b.event, b.n);
        this.stack = Arrays.copyOf(b.stack, b.n);
        this.weight = Arrays.copyOf(b.weight, b.n);
        this.count = b.count == null ? null : Arrays.copyOf(b.count, b.n);
        this.commChanges = List.copyOf(b.commChanges);
        this.inlinedIntoCaller = b.inlinedIntoCaller;
    }

    /** Reads every sample of the session, at most {@code maxStack} callchain frames each. */
    public static Profile read(Session session, int maxStack) {
        return read(session, maxStack, SampleFilter.ALL);
    }

    /** Reads the samples of the session that pass {@code filter}. */
    public static Profile read(Session session, int maxStack, SampleFilter filter) {
        return read(session, maxStack, filter, true);
    }

    /**
     * As {@link #read(Session, int, SampleFilter)}; {@code inlines} false leaves the functions
     * inlined at an address out (perf's {@code --no-inline}): one frame per address.
     */
    public static Profile read(Session session, int maxStack, SampleFilter filter, boolean inlines) {
        Read r = readUntilDamage(session, maxStack, filter, inlines);
        if (r.damage() != null) {
            throw r.damage();
        }
        return r.profile();
    }

    /**
     * A profile of the samples before the first damage in the recording, and that damage (null
     * when the whole recording was read): what was read before a corruption is still shown.
     */
    public record Read(Profile profile, io.perfj.io.FormatException damage) {
    }

    /** {@link #read(Session, int, SampleFilter)}, keeping the samples delivered before a format error. */
    public static Read readUntilDamage(Session session, int maxStack, SampleFilter filter) {
        return readUntilDamage(session, maxStack, filter, true);
    }

    private static Read readUntilDamage(Session session, int maxStack, SampleFilter filter, boolean inlines) {
        Builder b = new Builder(session, maxStack, filter);
        b.inlines = inlines;
        io.perfj.io.FormatException damage = null;
        try {
            session.run(b);
        } catch (io.perfj.io.FormatException e) {
            // the session delivers every record before the damage, then throws
            damage = e;
        }
        b.events = session.eventNames();
        return new Read(new Profile(b), damage);
    }

    /** The recording's event names, as {@code perfj script} prints them; samples index it. */
    public List<String> events() {
        return events;
    }

    /**
     * Whether an event's periods are nanoseconds: the software clocks ({@code cpu-clock},
     * {@code task-clock}, with any {@code :modifiers}); other events count occurrences.
     */
    public static boolean inNanoseconds(String event) {
        int colon = event.indexOf(':');
        String base = colon < 0 ? event : event.substring(0, colon);
        return base.equals("cpu-clock") || base.equals("task-clock");
    }

    /**
     * The event of the first sample whose event is {@code asked} (its name as {@link #events}
     * holds it, or that name without its {@code :modifiers}; null: any), or -1 when there is none.
     */
    public int firstSampled(String asked) {
        for (int i = 0; i < samples; i++) {
            String name = events.get(event[i]);
            if (asked == null || name.equals(asked) || name.startsWith(asked + ":")) {
                return event[i];
            }
        }
        return -1;
    }

    /** Whether samples of other events than {@code event} were kept. */
    public boolean hasOtherEvents(int event) {
        for (int i = 0; i < samples; i++) {
            if (this.event[i] != event) {
                return true;
            }
        }
        return false;
    }

    /** Whether the event's samples carry their period (else each sample weighs 1). */
    public boolean hasPeriod(int event) {
        return periods[event];
    }

    public FrameTable frames() {
        return frames;
    }

    public StackTable stacks() {
        return stacks;
    }

    /** The distinct locations of the stacks, with their mappings. */
    public Locations locations() {
        return locations;
    }

    /** The stacks as a trie of {@link #locations()} ids, leaf first as {@link #stacks()}. */
    public StackTable locationStacks() {
        return locationStacks;
    }

    /** The stack of frames of a location stack (a node of {@link #stacks()}). */
    public int stackOf(int locationStack) {
        return locationStack == StackTable.EMPTY ? StackTable.EMPTY : stackOf[locationStack];
    }

    public int threadCount() {
        return threadComm.length;
    }

    public int pid(int thread) {
        return threadPid[thread];
    }

    public int tid(int thread) {
        return threadTid[thread];
    }

    public String comm(int thread) {
        return threadComm[thread];
    }

    /** The host of the thread in a profile of many hosts ({@link Stacks}), else null. */
    public String host(int thread) {
        return threadHost[thread];
    }

    /** The earliest and the latest sample time (ns), or null when no sample has a time. */
    public long[] timeRange() {
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (int i = 0; i < samples; i++) {
            long t = time[i];
            if (t >= 0) {
                first = Math.min(first, t);
                last = Math.max(last, t);
            }
        }
        return first > last ? null : new long[] {first, last};
    }

    public int sampleCount() {
        return samples;
    }

    /** The sample's time in nanoseconds (-1 when not recorded). */
    public long time(int sample) {
        return time[sample];
    }

    public int thread(int sample) {
        return thread[sample];
    }

    /** The sample's CPU (-1 when not recorded). */
    public int cpu(int sample) {
        return cpu[sample];
    }

    public int event(int sample) {
        return event[sample];
    }

    /** The sample's stack: a node of {@link #stacks()} (its leaf frame). */
    public int stack(int sample) {
        return stackOf(stack[sample]);
    }

    /** The sample's stack of locations: a node of {@link #locationStacks()}. */
    public int locationStack(int sample) {
        return stack[sample];
    }

    /** The sample's period when its event records one, else 1. */
    public long weight(int sample) {
        return weight[sample];
    }

    /**
     * How many samples of the recording(s) the sample stands for: 1 for a recording's; in a
     * profile of {@link Stacks}, the number of samples summed in it.
     */
    public long count(int sample) {
        return count == null ? 1 : count[sample];
    }

    /**
     * Whether the stack's last frame is a function inlined at the address of the frame before
     * it (its caller in the stack), rather than a frame of its own address: the session marks
     * every function of an inline chain inlined, the outermost too when the symbol table does
     * not hold it, so the mark alone does not say where one address's frames end.
     */
    public boolean inlinedIntoCaller(int stack) {
        return inlinedIntoCaller.get(stack);
    }

    /** The recording's COMM records, in the session's order. */
    public List<CommChange> commChanges() {
        return commChanges;
    }

    /**
     * A profile made of stacks weighed elsewhere (perfj-fleet sums the periods of every
     * (host, thread, event, stack) of many recordings): each {@link #add}ed stack is one sample
     * of the profile, its frames interned through the same {@link FrameTable} and
     * {@link StackTable} as a recording's, by the same rules.
     */
    public static final class Stacks {
        private final Builder b = new Builder(null, 0, SampleFilter.ALL);

        /** A profile of these events, whose samples carry their period when {@code periods[i]}. */
        public Stacks(List<String> events, boolean[] periods) {
            b.events = List.copyOf(events);
            b.periods = Arrays.copyOf(periods, Math.max(4, events.size()));
        }

        /**
         * Adds the samples of one stack ({@code leafFirst}: the sampled frame first, as a
         * session resolves a callchain; empty: no frame) of thread {@code tid} of {@code pid}
         * named {@code comm} on {@code host} (null: one host), of event {@code event} (an index
         * of the events), {@code samples} samples weighing {@code weight} in all; time and CPU
         * -1 when not kept.
         */
        public Stacks add(String host, int pid, int tid, String comm, int event, long time, int cpu,
                List<Location> leafFirst, long samples, long weight) {
            if (b.count == null) {
                b.count = new long[b.time.length];
            }
            b.add(time, b.thread(host, pid, tid, comm), cpu, event, b.intern(leafFirst), weight, samples);
            return this;
        }

        public Profile build() {
            return new Profile(b);
        }
    }

    /** Collects the columns as the session hands out samples. */
    private static final class Builder implements RecordHandler {
        private final Session session;
        private final int maxStack;
        private final SampleFilter filter;
        /** Whether functions inlined at an address are frames of their own. */
        boolean inlines = true;
        private final ChainWalk walk;
        private final List<Location> chain = new ArrayList<>();
        private final FrameTable frames = new FrameTable();
        private final StackTable stacks = new StackTable();
        private final Locations locations = new Locations();
        private final StackTable locationStacks = new StackTable();
        private int[] stackOf = new int[1024];
        private List<String> events = List.of();
        private boolean[] periods = new boolean[4];
        private final Map<ThreadKey, Integer> threads = new HashMap<>();
        private int[] threadPid = new int[64];
        private int[] threadTid = new int[64];
        private final List<String> threadComm = new ArrayList<>();
        private final List<String> threadHost = new ArrayList<>();
        private int n;
        private long[] time = new long[4096];
        private int[] thread = new int[4096];
        private int[] cpu = new int[4096];
        private short[] event = new short[4096];
        private int[] stack = new int[4096];
        private long[] weight = new long[4096];
        private long[] count;
        private final List<CommChange> commChanges = new ArrayList<>();
        private final BitSet inlinedIntoCaller = new BitSet();

        private record ThreadKey(String host, int pid, int tid, String comm) {
        }

        /** The builder of a session's samples, or (session null) of {@link Stacks}. */
        Builder(Session session, int maxStack, SampleFilter filter) {
            this.session = session;
            this.walk = session == null ? null : ChainWalk.of(session);
            this.maxStack = maxStack;
            this.filter = filter;
        }

        @Override
        public void sample(SampleRef ref) {
            Sample s = ref.sample();
            int ev = s.evsel().index();
            if (ev >= periods.length) {
                periods = Arrays.copyOf(periods, Math.max(ev + 1, periods.length * 2));
            }
            boolean period = (s.evsel().attr().sampleType() & SampleFormat.PERIOD) != 0;
            periods[ev] = period;
            chain.clear();
            if (!session.resolveStack(s, maxStack, walk, chain, inlines) && chain.isEmpty()) {
                chain.add(session.resolver().resolve(s.pid(), s.tid(), s.cpumode(), s.ip()));
            }
            String comm = session.resolver().comm(s.pid(), s.tid());
            int st = intern(chain);
            if (filter.filters() && !filter.accepts(comm, s.pid(), s.tid(), s.cpu(),
                    st == StackTable.EMPTY ? null : frames.get(stacks.frame(stackOf[st])))) {
                return;
            }
            add(s.time(), thread(null, s.pid(), s.tid(), comm), s.cpu(), ev, st, period ? s.period() : 1, 1);
        }

        /** The location stack of a chain (leaf first), its locations, frames and stack of frames interned. */
        int intern(List<Location> chain) {
            int st = StackTable.EMPTY;
            int ls = StackTable.EMPTY;
            // the sampled address and the functions inlined at it lead the chain; the rest are returned to
            int sampled = 0;
            while (sampled < chain.size() && chain.get(sampled).ip() == chain.getFirst().ip()
                    && chain.get(sampled).dso() == chain.getFirst().dso()) {
                sampled++;
            }
            for (int i = chain.size() - 1; i >= 0; i--) {
                Location loc = chain.get(i);
                int frame = frames.intern(loc);
                st = stacks.push(st, frame);
                boolean inlined = i < chain.size() - 1 && loc.symbol() != null && loc.symbol().inlined()
                        && loc.ip() == chain.get(i + 1).ip() && loc.dso() == chain.get(i + 1).dso();
                if (inlined) {
                    inlinedIntoCaller.set(st);
                }
                ls = locationStacks.push(ls, locations.intern(loc, frame, inlined, i >= sampled));
                if (ls == stackOf.length) {
                    stackOf = Arrays.copyOf(stackOf, ls * 2);
                }
                stackOf[ls] = st;
            }
            return ls;
        }

        /** Adds a sample; {@code samples}: how many it stands for (kept once a {@link Stacks} gives them). */
        void add(long t, int th, int c, int ev, int st, long w, long samples) {
            if (n == time.length) {
                int cap = n * 2;
                time = Arrays.copyOf(time, cap);
                thread = Arrays.copyOf(thread, cap);
                cpu = Arrays.copyOf(cpu, cap);
                event = Arrays.copyOf(event, cap);
                stack = Arrays.copyOf(stack, cap);
                weight = Arrays.copyOf(weight, cap);
                if (count != null) {
                    count = Arrays.copyOf(count, cap);
                }
            }
            time[n] = t;
            thread[n] = th;
            cpu[n] = c;
            event[n] = (short) ev;
            stack[n] = st;
            weight[n] = w;
            if (count != null) {
                count[n] = samples;
            }
            n++;
        }

        @Override
        public void record(PerfRecord r) {
            if (r instanceof KernelRecord.Comm c) {
                commChanges.add(new CommChange(c.sampleId().time(), c.pid(), c.tid(), c.comm(), c.exec()));
            }
        }

        private int thread(String host, int pid, int tid, String comm) {
            ThreadKey k = new ThreadKey(host, pid, tid, comm);
            Integer t = threads.get(k);
            if (t == null) {
                t = threadComm.size();
                threads.put(k, t);
                if (t == threadPid.length) {
                    threadPid = Arrays.copyOf(threadPid, t * 2);
                    threadTid = Arrays.copyOf(threadTid, t * 2);
                }
                threadPid[t] = pid;
                threadTid[t] = tid;
                threadComm.add(comm);
                threadHost.add(host);
            }
            return t;
        }
    }
}
