package io.perfj.session;

import io.perfj.symbols.Location;

import java.util.List;

/**
 * One sample with its addresses resolved against the process model of its moment.
 *
 * @param event     index of the event in the recording's event list
 * @param eventName the event's name as perf prints it (e.g. {@code cpu-clock:ppp})
 * @param pid       process id (-1 when not recorded)
 * @param tid       thread id (-1 when not recorded)
 * @param cpu       CPU (-1 when not recorded)
 * @param time      timestamp in nanoseconds (-1 when not recorded)
 * @param period    the sample's period (weight)
 * @param cpumode   {@code PERF_RECORD_MISC_CPUMODE_MASK} bits of the sample (1 kernel, 2 user, ...)
 * @param comm      the thread's command name at the sample
 * @param frames    the stack, innermost first: the recorded callchain (context markers applied)
 *                  with the user part unwound from the stack copy for {@code --call-graph dwarf}
 *                  recordings, and functions inlined at an unwound address as frames of their
 *                  own ({@link io.perfj.symbols.Symbol#inlined()}); just the sampled address
 *                  when the sample has no callchain
 * @param sampled   the sampled address itself, resolved in the sample's cpumode: what a report
 *                  row (its "self" frame) is keyed by, whatever the callchain says
 * @param chained   whether the frames are a callchain (recorded or unwound; a report's
 *                  callchain) rather than the sampled address alone
 */
public record ResolvedSample(int event, String eventName, int pid, int tid, int cpu, long time, long period,
                             int cpumode, String comm, List<Location> frames, Location sampled, boolean chained) {
    public ResolvedSample {
        frames = List.copyOf(frames);
    }

    /** The innermost frame: where the sample landed. */
    public Location leaf() {
        return frames.getFirst();
    }
}
