package io.perfj.perfdata.record;

import io.perfj.io.Bytes;

/**
 * A sample's callchain: {@code nr} u64 addresses, PERF_CONTEXT_* markers kept in place. The
 * addresses stay in the file ({@link #ips()} is a view).
 */
public record Callchain(long nr, Bytes ips) {
    public static final long CONTEXT_HV = -32L;
    public static final long CONTEXT_KERNEL = -128L;
    public static final long CONTEXT_USER = -512L;
    public static final long CONTEXT_GUEST = -2048L;
    public static final long CONTEXT_GUEST_KERNEL = -2176L;
    public static final long CONTEXT_GUEST_USER = -2560L;
    public static final long CONTEXT_USER_DEFERRED = -640L;
    /** Values at or above this (unsigned) are context markers. */
    public static final long CONTEXT_MAX = -4095L;

    public long ip(int i) {
        return ips.u64(8L * i);
    }

    public int size() {
        return (int) nr;
    }

    public static boolean isContext(long ip) {
        return Long.compareUnsigned(ip, CONTEXT_MAX) >= 0;
    }
}
