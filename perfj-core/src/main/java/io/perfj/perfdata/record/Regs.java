package io.perfj.perfdata.record;

import io.perfj.io.Bytes;

/**
 * Sampled registers (PERF_SAMPLE_REGS_USER / _INTR): the ABI word and, when it is not
 * {@link #ABI_NONE}, one u64 per bit set in the attr's register mask, lowest bit first.
 */
public record Regs(long abi, long mask, Bytes values) {
    public static final long ABI_NONE = 0;
    public static final long ABI_32 = 1;
    public static final long ABI_64 = 2;

    public int count() {
        return values == null ? 0 : (int) (values.size() / 8);
    }

    /** The i-th register value present (in mask bit order). */
    public long value(int i) {
        return values.u64(8L * i);
    }
}
