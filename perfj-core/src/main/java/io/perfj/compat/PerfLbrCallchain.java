package io.perfj.compat;

import io.perfj.io.Bytes;
import io.perfj.session.Quirks;
import io.perfj.perfdata.record.BranchStack;
import io.perfj.perfdata.record.Callchain;
import io.perfj.perfdata.record.Sample;

/**
 * What perf 6.1's {@code resolve_lbr_callchain_sample} (util/machine.c) does to an LBR call
 * stack beyond the plain stitching, for {@code --compat perf-6.1}:
 * <ul>
 *   <li>In callee order {@code lbr_callchain_add_lbr_ip} adds {@code entries[0].to} before it
 *       looks at the entry count, so a sample with an empty branch stack gets the eight bytes
 *       after the (absent) first entry's {@code from}: whatever follows in perf's buffer, which
 *       for a recording read in place is the file (the next record's header and first field).
 *       {@link #emptyStackTo} reads those bytes from the file.</li>
 *   <li>In caller order {@code lbr_callchain_add_kernel_ip} walks the kernel part backwards from
 *       the {@code PERF_CONTEXT_USER} marker with the cpumode that marker set, so the kernel
 *       addresses are looked up as user addresses until the walk reaches the kernel marker at
 *       the chain's start ({@link #callerOrderModes}).</li>
 * </ul>
 */
public final class PerfLbrCallchain implements Quirks.Lbr {
    /** perf 6.1's LBR call stacks. */
    public static final PerfLbrCallchain INSTANCE = new PerfLbrCallchain();

    private PerfLbrCallchain() {
    }

    /**
     * The address perf takes for {@code entries[0].to} of a sample whose branch stack is empty:
     * the u64 eight bytes past where the entries would start, read from the file when the
     * record lies in it uncompressed, else 0 (what perf reads there cannot be known).
     */
    @Override
    public long emptyStackTo(Sample s, Bytes file) {
        BranchStack bs = s.branchStack();
        if (file == null || s.raw().compressed() || bs == null) {
            return 0;
        }
        long inRecord = bs.entries().base() - s.raw().bytes().base();
        long at = s.raw().offset() + inRecord + 8 - file.base();
        return file.has(at, 8) ? file.u64(at) : 0;
    }

    /**
     * The cpumode perf resolves each entry {@code 0..user} of the chain's kernel part with in
     * caller order, walking from the {@code PERF_CONTEXT_USER} marker at {@code user} back to
     * the start in user mode (2), each marker switching the mode for the entries before it
     * ({@code add_callchain_ip} knows the kernel, user and hypervisor markers); null when another
     * marker drops the chain.
     */
    @Override
    public int[] callerOrderModes(Callchain cc, int user) {
        int[] modes = new int[user + 1];
        int mode = 2;
        for (int k = user; k >= 0; k--) {
            long ip = cc.ip(k);
            if (Callchain.isContext(ip)) {
                if (ip == Callchain.CONTEXT_KERNEL) {
                    mode = 1;
                } else if (ip == Callchain.CONTEXT_USER) {
                    mode = 2;
                } else if (ip == Callchain.CONTEXT_HV) {
                    mode = 3;
                } else {
                    return null;
                }
            }
            modes[k] = mode;
        }
        return modes;
    }
}
