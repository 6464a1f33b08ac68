package io.perfj.session;

import io.perfj.io.Bytes;
import io.perfj.perfdata.record.BranchStack;
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
    /** attr.branch_sample_type bit PERF_SAMPLE_BRANCH_CALL_STACK. */
    public static final long BRANCH_CALL_STACK = 1L << 11;

    /** perf's LBR quirks, or null. */
    private final Quirks.Lbr lbrQuirks;
    /** The recording's bytes, for perf 6.1's read past an empty LBR stack (null: not mapped). */
    private final Bytes file;
    private long[] ips = new long[128];
    private int[] modes = new int[128];
    private boolean[] unwound = new boolean[128];
    private int size;

    /** A walk giving the correct answers. */
    public ChainWalk() {
        this(null, null);
    }

    private ChainWalk(Quirks.Lbr lbrQuirks, Bytes file) {
        this.lbrQuirks = lbrQuirks;
        this.file = file;
    }

    /** A walk as the session's compat mode asks for (perf 6.1's LBR quirks under perf-6.1). */
    public static ChainWalk of(Session session) {
        return of(session.quirks().lbr(), session.data().fileBytes());
    }

    /**
     * A walk with perf's LBR quirks ({@code lbrQuirks}; null for none).
     *
     * @param file the recording's bytes (perf reads past an empty LBR stack into them), or null
     */
    public static ChainWalk of(Quirks.Lbr lbrQuirks, Bytes file) {
        return new ChainWalk(lbrQuirks, file);
    }

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
        if (user == null && cc != null && s.branchStack() != null
                && (s.evsel().attr().branchSampleType() & BRANCH_CALL_STACK) != 0) {
            int marker = userMarker(cc, Math.min(max, ccSize));
            if (marker >= 0) {
                return lbr(s, cc, marker, fromRoot);
            }
        }
        if (!recorded(cc, ccSize, fromRoot ? Integer.MAX_VALUE : max, user != null)) {
            return false;
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

    /**
     * Adds the recorded chain's first {@code end} entries (at most {@code limit} addresses;
     * up to the user marker when {@code toUser}), context markers switching the mode; false,
     * with nothing kept, when a marker is invalid.
     */
    private boolean recorded(Callchain cc, int end, int limit, boolean toUser) {
        int mode = 2; // perf starts a callchain in user mode until a context marker says otherwise
        for (int i = 0; i < end && size < limit; i++) {
            long ip = cc.ip(i);
            if (toUser && ip == Callchain.CONTEXT_USER) {
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
        return true;
    }

    /** Index of PERF_CONTEXT_USER among the chain's first {@code n} entries, or -1. */
    private static int userMarker(Callchain cc, int n) {
        for (int i = 0; i < n; i++) {
            if (cc.ip(i) == Callchain.CONTEXT_USER) {
                return i;
            }
        }
        return -1;
    }

    /**
     * An LBR call stack: the chain's kernel part up to its user marker, then the user part from
     * the branch stack, as the hardware saw the calls: the latest call's target (the current
     * function) and then each call's source, innermost first. perf does not limit it by
     * --max-stack. An empty branch stack leaves the recorded user part (perf 6.1 reads past it).
     */
    private boolean lbr(Sample s, Callchain cc, int marker, boolean fromRoot) {
        int[] callerModes = lbrQuirks != null && fromRoot ? lbrQuirks.callerOrderModes(cc, marker) : null;
        if (lbrQuirks != null && fromRoot && callerModes == null) {
            return false;
        }
        if (!recorded(cc, marker + 1, Integer.MAX_VALUE, false)) {
            return false;
        }
        if (callerModes != null) {
            for (int i = 0, j = 0; i <= marker; i++) {
                if (!Callchain.isContext(cc.ip(i))) {
                    modes[j++] = callerModes[i];
                }
            }
        }
        BranchStack bs = s.branchStack();
        int n = bs.size();
        if (n == 0) {
            if (lbrQuirks != null) {
                if (!fromRoot) {
                    add(lbrQuirks.emptyStackTo(s, file), 2, false);
                }
                return true;
            }
            for (int i = marker + 1; i < cc.size(); i++) {
                long ip = cc.ip(i);
                if (Callchain.isContext(ip)) {
                    break;
                }
                add(ip, 2, false);
            }
            return true;
        }
        add(bs.to(0), 2, false);
        for (int i = 0; i < n; i++) {
            add(bs.from(i), 2, false);
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
