package io.perfj.session;

import io.perfj.perfdata.record.Callchain;
import io.perfj.perfdata.record.Sample;

import java.util.Arrays;

/**
 * The addresses of a sample's callchain as perf walks them (leaf first), each with the cpumode
 * that resolves it: context markers switch the mode and are dropped; an unknown marker drops the
 * whole chain; with {@code --call-graph dwarf}, the unwound user frames replace whatever the kernel
 * saw of user space. Reused from sample to sample.
 */
public final class ChainWalk {
    private long[] ips = new long[128];
    private int[] modes = new int[128];
    private boolean[] unwound = new boolean[128];
    private int size;

    /**
     * Walks the sample's chain, at most {@code max} addresses. Returns false when perf would drop
     * the chain (an invalid context marker).
     *
     * @param user unwound user frames, or null
     */
    public boolean walk(Sample s, long[] user, int max) {
        return walk(s, user, max, false);
    }

    /**
     * As {@link #walk(Sample, long[], int)}; with {@code fromRoot} (perf's caller order) the
     * limit keeps the {@code max} addresses nearest the root instead of the leaf, as perf walks
     * a kernel-recorded chain from its end in that order. Unwound user frames are limited on
     * their own, as perf's unwinder is ({@code thread__resolve_callchain} hands {@code max} to
     * both {@code thread__resolve_callchain_sample} and {@code unwind__get_entries}): the
     * {@code max} frames nearest the leaf, in either order, after at most {@code max} addresses
     * of the recorded chain.
     */
    public boolean walk(Sample s, long[] user, int max, boolean fromRoot) {
        size = 0;
        Callchain cc = s.callchain();
        int ccSize = cc == null ? 0 : cc.size();
        int mode = 2; // perf starts a callchain in user mode until a context marker says otherwise
        int limit = fromRoot ? Integer.MAX_VALUE : max;
        for (int i = 0; i < ccSize && size < limit; i++) {
            long ip = cc.ip(i);
            if (user != null && ip == Callchain.CONTEXT_USER) {
                break;
            }
            if (Callchain.isContext(ip)) {
                mode = Contexts.cpumode(ip, mode);
                if (mode == Contexts.INVALID) {
                    size = 0;
                    return false;
                }
                continue;
            }
            add(ip, mode, false);
        }
        if (size > max) {
            int drop = size - max;
            System.arraycopy(ips, drop, ips, 0, max);
            System.arraycopy(modes, drop, modes, 0, max);
            System.arraycopy(unwound, drop, unwound, 0, max);
            size = max;
        }
        if (user != null) {
            for (int i = 0; i < user.length && i < max; i++) {
                add(user[i], 2, true);
            }
        }
        return true;
    }

    private void add(long ip, int mode, boolean fromUnwind) {
        if (size == ips.length) {
            ips = Arrays.copyOf(ips, size * 2);
            modes = Arrays.copyOf(modes, size * 2);
            unwound = Arrays.copyOf(unwound, size * 2);
        }
        ips[size] = ip;
        modes[size] = mode;
        unwound[size] = fromUnwind;
        size++;
    }

    /** How many addresses the last walk gave. */
    public int size() {
        return size;
    }

    /** The i-th address, leaf first. */
    public long ip(int i) {
        return ips[i];
    }

    /** The cpumode (PERF_RECORD_MISC_*) that resolves the i-th address. */
    public int mode(int i) {
        return modes[i];
    }

    /** Whether the address came from unwinding the copied user stack. */
    public boolean unwound(int i) {
        return unwound[i];
    }
}
