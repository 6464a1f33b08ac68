package io.perfj.dwarf;

import io.perfj.compat.LibunwindEmulation;
import io.perfj.perfdata.record.Regs;
import io.perfj.perfdata.record.Sample;
import io.perfj.perfdata.record.UserStack;
import io.perfj.symbols.DsoFinder;
import io.perfj.symbols.ObjectCache;
import io.perfj.symbols.Map;
import io.perfj.symbols.Thread;


/**
 * Unwinds a sample's user-space stack from the registers and stack bytes perf copied
 * ({@code --call-graph dwarf}: PERF_SAMPLE_REGS_USER and PERF_SAMPLE_STACK_USER) with the call
 * frame information of each object on the way (x86-64). The first address is the sampled
 * instruction pointer, the others are return addresses minus one, as perf reports them. Inline
 * frames are not expanded.
 */
public final class UserStackUnwinder {
    /** perf's x86-64 register order (arch/x86/include/uapi/asm/perf_regs.h) for DWARF registers 0..16. */
    private static final int[] PERF_INDEX = {0 /* ax */, 3 /* dx */, 2 /* cx */, 1 /* bx */, 4 /* si */,
        5 /* di */, 6 /* bp */, 7 /* sp */, 16, 17, 18, 19, 20, 21, 22, 23, 8 /* ip */};
    private static final int MAX_FRAMES = 127;

    private final UnwindObjects objects;
    private final boolean perfCompatible;
    private LibunwindEmulation emulation;
    private CfiWalk walk;

    /** Unwinds with the call frame information alone (the correct result). */
    public UserStackUnwinder(DsoFinder finder) {
        this(finder, false);
    }

    /**
     * @param perfCompatible true to reproduce perf 6.1 built with libunwind 1.6 (Debian 12's
     *                       perf) frame for frame, including where it goes wrong; false to
     *                       unwind with the call frame information alone
     */
    public UserStackUnwinder(DsoFinder finder, boolean perfCompatible) {
        this(new UnwindObjects(new ObjectCache(finder)), perfCompatible);
    }

    /** Over a run's objects, shared with other unwinders and inline-frame naming. */
    public UserStackUnwinder(UnwindObjects objects, boolean perfCompatible) {
        this.objects = objects;
        this.perfCompatible = perfCompatible;
    }

    /** Whether this unwinder reproduces perf's libunwind-based unwinding. */
    public boolean perfCompatible() {
        return perfCompatible;
    }

    /** The user-space frames of the sample (innermost first), or null when it carries no stack. */
    public long[] unwind(Sample s, Thread thread) {
        Regs regs = s.userRegs();
        UserStack stack = s.userStack();
        if (regs == null || stack == null || stack.data() == null || regs.abi() != Regs.ABI_64 || thread == null) {
            return null;
        }
        long[] reg = new long[17];
        boolean[] known = new boolean[17];
        for (int d = 0; d < 17; d++) {
            int bit = PERF_INDEX[d];
            if ((regs.mask() & (1L << bit)) != 0) {
                reg[d] = regs.value(Long.bitCount(regs.mask() & ((1L << bit) - 1)));
                known[d] = true;
            }
        }
        if (perfCompatible) {
            if (emulation == null) {
                emulation = new LibunwindEmulation(objects);
            }
            return emulation.unwind(reg, known, stack.data(), stack.dynSize(), thread, MAX_FRAMES);
        }
        if (walk == null) {
            walk = new CfiWalk(this);
        }
        return walk.unwind(reg, known, stack.data(), stack.dynSize(), thread.maps(), MAX_FRAMES);
    }

    /** The object file behind a map (see {@link UnwindObjects#of}), or null. */
    UnwindObject objOf(Map map) {
        return objects.of(map.dso());
    }
}
