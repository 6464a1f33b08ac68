package io.perfj.perfdata.record;

import io.perfj.io.Bytes;

/**
 * PERF_SAMPLE_BRANCH_STACK: {@code nr} entries of from, to, flags (3 u64 each).
 *
 * @param hwIdx the hw_idx word when the attr has PERF_SAMPLE_BRANCH_HW_INDEX, else -1
 */
public record BranchStack(long nr, long hwIdx, boolean hasHwIdx, Bytes entries) {
    public long from(int i) {
        return entries.u64(24L * i);
    }

    public long to(int i) {
        return entries.u64(24L * i + 8);
    }

    public long flags(int i) {
        return entries.u64(24L * i + 16);
    }

    public int size() {
        return (int) nr;
    }

    private static final String[] TYPES = {
        "", "COND", "UNCOND", "IND", "CALL", "IND_CALL", "RET", "SYSCALL", "SYSRET", "COND_CALL", "COND_RET",
        "ERET", "IRQ", "SERROR", "NO_TX", "EXTEND_ABI",
    };

    /** perf's name of an entry's branch type (flags bits 20..23; "" for PERF_BR_UNKNOWN). */
    public static String typeName(long flags) {
        return TYPES[(int) ((flags >>> 20) & 15)];
    }
}
