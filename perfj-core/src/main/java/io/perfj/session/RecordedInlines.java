package io.perfj.session;

import io.perfj.symbols.Location;

import java.util.List;

/**
 * What an address of a recorded callchain (frame pointers, the kernel's part, LBR) becomes,
 * chosen once per command. Unwound user frames ({@code --call-graph dwarf}) have their own rule,
 * {@link UnwoundInlines}.
 */
public enum RecordedInlines {
    /**
     * The functions inlined at the address as frames of their own, innermost first, then the
     * frame ({@link FrameResolver#withRecordedInlines}): perf 7.2, whose {@code add_callchain_ip}
     * appends them for every callchain address.
     */
    NAMED {
        @Override
        public List<Location> frames(FrameResolver resolver, Location loc) {
            return resolver.withRecordedInlines(loc);
        }

        @Override
        public void prefetch(FrameResolver resolver, ChainWalk walk, int pid, int tid) {
            boolean asked = false;
            for (int i = 0; i < walk.size(); i++) {
                if (!walk.unwound(i) && walk.mode(i) != io.perfj.symbols.Machine.CPUMODE_KERNEL) {
                    asked |= resolver.prefetchInlines(pid, tid, walk.mode(i), walk.ip(i));
                }
            }
            if (asked) {
                resolver.flushInlines();
            }
        }
    },
    /** The frame alone: perf 6.1 (its {@code add_callchain_ip} appends no inlined functions) and {@code --no-inline}. */
    NONE {
        @Override
        public List<Location> frames(FrameResolver resolver, Location loc) {
            return List.of(loc);
        }
    };

    /** The frames a recorded callchain address resolved to {@code loc} becomes. */
    public abstract List<Location> frames(FrameResolver resolver, Location loc);

    /**
     * Asks ahead for what {@link #frames} will need at the walked chain's recorded addresses, all
     * at once, so that the lookups of one chain (and the helper processes of its objects) run
     * together rather than one after another. Only a hint: the frames are the same either way.
     */
    public void prefetch(FrameResolver resolver, ChainWalk walk, int pid, int tid) {
    }

    /** The rule of a command: perf 6.1's under {@code --compat perf-6.1}, none with {@code --no-inline}. */
    public static RecordedInlines of(Compat compat, boolean inlines) {
        return inlines && !compat.perf61() ? NAMED : NONE;
    }
}
