package io.perfj.session;

import io.perfj.perfdata.record.PerfRecord;
import io.perfj.symbols.Location;

/**
 * What aggregation needs from the process model: feed it the non-sample records in delivery
 * order, ask it where an address landed and what a thread was called. {@code io.perfj.symbols.Machine}
 * provides it; tests use small fakes.
 */
public interface FrameResolver {
    /** Updates the model with a non-sample record (MMAP, COMM, FORK, EXIT, KSYMBOL, ...). */
    void process(PerfRecord r);

    /** Where {@code ip} landed for this thread; cpumode is PERF_RECORD_MISC_* (1 kernel, 2 user, ...). */
    Location resolve(int pid, int tid, int cpumode, long ip);

    /** The thread's command name now (at the sample being processed). */
    String comm(int pid, int tid);

    /**
     * The user-space frames of a sample recorded with {@code --call-graph dwarf}, unwound from
     * its registers and stack copy, innermost first; null when it has none.
     */
    default long[] unwindUser(io.perfj.perfdata.record.Sample s) {
        return null;
    }

    /**
     * An unwound frame with the functions inlined at its address, innermost first (perf names
     * those "NAME (inlined)"); just the frame when there are none.
     */
    default java.util.List<Location> withInlines(Location loc) {
        return java.util.List.of(loc);
    }

    /**
     * A recorded callchain frame (frame pointers, LBR) with the functions inlined at its address
     * before it, innermost first, the frame itself last; just the frame when there are none.
     */
    default java.util.List<Location> withRecordedInlines(Location loc) {
        return java.util.List.of(loc);
    }

    /**
     * Asks now for the inline chain {@link #withRecordedInlines} will want at this address (a
     * hint; see {@link #flushInlines}).
     *
     * @return whether a question may have been written
     */
    default boolean prefetchInlines(int pid, int tid, int cpumode, long ip) {
        return false;
    }

    /** Sends the questions {@link #prefetchInlines} asked. */
    default void flushInlines() {
    }
}
