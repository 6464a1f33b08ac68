package io.perfj.session;

import io.perfj.perfdata.record.Callchain;

/** Callchain context markers to the cpumode that resolves the addresses after them. */
final class Contexts {
    private Contexts() {
    }

    /** Returned for a value in the marker range that is no known marker. */
    static final int INVALID = -1;

    /**
     * PERF_RECORD_MISC_* cpumode for a PERF_CONTEXT_* marker, or {@link #INVALID} for any other
     * value in the marker range: perf then drops the whole callchain ("invalid callchain
     * context"), keeping the sample.
     */
    static int cpumode(long marker, int current) {
        if (marker == Callchain.CONTEXT_KERNEL) {
            return 1;
        } else if (marker == Callchain.CONTEXT_USER) {
            return 2;
        } else if (marker == Callchain.CONTEXT_HV) {
            return 3;
        } else if (marker == Callchain.CONTEXT_GUEST_KERNEL) {
            return 4;
        } else if (marker == Callchain.CONTEXT_GUEST_USER) {
            return 5;
        } else if (marker == Callchain.CONTEXT_GUEST) {
            return current;
        }
        return INVALID;
    }
}
