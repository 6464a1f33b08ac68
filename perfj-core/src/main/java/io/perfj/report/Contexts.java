package io.perfj.report;

import io.perfj.perfdata.record.Callchain;

/** Callchain context markers to the cpumode that resolves the addresses after them. */
final class Contexts {
    private Contexts() {
    }

    /** PERF_RECORD_MISC_* cpumode for a PERF_CONTEXT_* marker; other values keep {@code current}. */
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
        }
        return current;
    }
}
