package io.perfj.session;

import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.record.PerfRecord;
import io.perfj.symbols.Location;
import io.perfj.symbols.Machine;
import io.perfj.symbols.SymbolOptions;
import io.perfj.symbols.Thread;

import java.util.List;

/** The {@link FrameResolver} backed by the process model, {@link Machine}. */
public final class MachineResolver implements FrameResolver {
    private final Machine machine;
    /**
     * The threads of recent samples, by tid modulo the size: a system-wide recording's samples
     * alternate between CPUs and so between threads nearly every sample, and the machine's
     * lookup is a locked hash map. Emptied by every record (one may replace a thread).
     */
    private static final int RECENT = 64;
    private final int[] recentPid = new int[RECENT];
    private final int[] recentTid = new int[RECENT];
    private final Thread[] recent = new Thread[RECENT];
    private boolean anyRecent;
    /** Addresses resolved before, until a record changes their address space. */
    private final LocationCache located = new LocationCache();

    public MachineResolver(PerfData data, SymbolOptions opts) {
        this(data, opts, Quirks.NONE, Compat.NONE.demangling());
    }

    /**
     * Symbols loaded and stacks unwound as {@code quirks} says (perf 6.1's under {@code --compat
     * perf-6.1}); named as {@code names} says.
     */
    public MachineResolver(PerfData data, SymbolOptions opts, Quirks quirks, io.perfj.symbols.Demangling names) {
        this.machine = new Machine(data, opts,
                new io.perfj.symbols.DefaultSymbolLoader(opts, quirks.userSymbols(), names));
        this.data = data;
        this.unwindMethod = quirks.unwinding();
    }

    private final PerfData data;

    public Machine machine() {
        return machine;
    }

    private Thread thread(int pid, int tid) {
        int at = tid & (RECENT - 1);
        Thread t = recent[at];
        if (t == null || recentPid[at] != pid || recentTid[at] != tid) {
            t = machine.thread(pid, tid);
            recent[at] = t;
            recentPid[at] = pid;
            recentTid[at] = tid;
            anyRecent = true;
        }
        return t;
    }

    @Override
    public void process(PerfRecord r) {
        machine.process(r);
        located.record(r);
        if (anyRecent) {
            java.util.Arrays.fill(recent, null);
            anyRecent = false;
        }
        if (unwinding != null) {
            unwinding.addressSpacesChanged();
        }
    }

    @Override
    public Location resolve(int pid, int tid, int cpumode, long ip) {
        return machine.resolve(thread(pid, tid), cpumode, ip);
    }

    /**
     * {@link #resolve}, answered from {@link LocationCache} when the address was resolved before
     * in the same address space: for readers that keep no cache of their own (whole stacks, as
     * {@link Session#resolveStack} gives them). Report and script cache their frames themselves;
     * a second cache under theirs only added work to their misses (-g none 16% slower).
     */
    Location resolveCached(int pid, int tid, int cpumode, long ip) {
        Thread t = thread(pid, tid); // made at this sample whether or not the address is cached
        Location loc = located.get(pid, cpumode, ip);
        if (loc == null) {
            loc = machine.resolve(t, cpumode, ip);
            located.put(pid, cpumode, ip, loc);
        }
        return loc;
    }

    /** Makes sure the sample's thread exists, as locating or resolving the sample would. */
    public void seen(int pid, int tid) {
        thread(pid, tid);
    }


    /** The map a sample's address is in, or null, without making a {@link Location}. */
    public io.perfj.symbols.Map findMap(int pid, int tid, int cpumode, long ip) {
        return machine.findMap(thread(pid, tid), cpumode, ip);
    }

    @Override
    public String comm(int pid, int tid) {
        return thread(pid, tid).comm();
    }

    private io.perfj.unwind.Unwinding unwinding;
    private final io.perfj.unwind.UnwindMethod unwindMethod;

    /** The run's unwinding state (objects mapped once, their frame tables, inline names). */
    private io.perfj.unwind.Unwinding unwinding() {
        if (unwinding == null) {
            unwinding = new io.perfj.unwind.Unwinding(machine.finder()).method(unwindMethod)
                    .arch(() -> io.perfj.dwarf.UnwindArch.of(data));
        }
        return unwinding;
    }

    /** The sample whose user stack was unwound ahead, on the decoding thread ({@link UnwindAhead}). */
    private io.perfj.perfdata.record.Sample aheadSample;
    private Object aheadFrames;

    /**
     * The session's hand-over of a sample's frames unwound ahead (a {@link DecodedRecords#ahead()}
     * result), until the next sample.
     */
    void unwoundAhead(io.perfj.perfdata.record.Sample s, Object frames) {
        aheadSample = s;
        aheadFrames = frames;
    }

    @Override
    public long[] unwindUser(io.perfj.perfdata.record.Sample s) {
        if (s == aheadSample && aheadFrames != DecodedRecords.NONE) {
            return (long[]) DecodedRecords.result(aheadFrames);
        }
        if (s.userStack() == null || s.userRegs() == null) {
            return null;
        }
        Thread t = thread(s.pid(), s.tid());
        long[] frames = unwinding().unwind(s, t);
        if (s == aheadSample) {
            // left to this thread by the stage ahead: ask for all the frames' inline chains at
            // once rather than one by one as they are resolved
            unwinding().prefetchInlines(frames, t);
        }
        return frames;
    }

    /** The addr2line processes that name inlined frames (shared with {@link UnwindAhead}). */
    io.perfj.symbols.Addr2Line inlineNames() {
        return unwinding().inlineNames();
    }

    @Override
    public List<Location> withInlines(Location loc) {
        return unwinding().withInlines(loc);
    }

    @Override
    public List<Location> withRecordedInlines(Location loc) {
        return unwinding().withInlinesAndFrame(loc);
    }

    @Override
    public boolean prefetchInlines(int pid, int tid, int cpumode, long ip) {
        io.perfj.symbols.Map m = machine.findMap(thread(pid, tid), cpumode, ip);
        return m != null && unwinding().prefetchInline(m.dso(), m.mapIp(ip));
    }

    @Override
    public void flushInlines() {
        unwinding().flushInlines();
    }

    public List<String> warnings() {
        return machine.warnings();
    }

    /** Ends the addr2line processes and unmaps the objects the unwinding state opened. */
    void close() {
        if (unwinding != null) {
            unwinding.close();
        }
    }
}
