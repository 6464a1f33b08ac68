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
 * frame information of each object on the way, on the recording's architecture (x86-64 or
 * aarch64: {@link UnwindArch}). The first address is the sampled instruction pointer, the others
 * are return addresses minus one, as perf reports them. Inline frames are not expanded.
 */
public final class UserStackUnwinder {
    private static final int MAX_FRAMES = 127;
    private static final long[] NO_FRAMES = {};

    private final UnwindObjects objects;
    private final boolean perfCompatible;
    private final UnwindArch arch;
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
        this(new UnwindObjects(new ObjectCache(finder)), perfCompatible, UnwindArch.X86_64);
    }

    /**
     * Over a run's objects, shared with other unwinders and inline-frame naming.
     *
     * @param arch the recording's architecture; null when there is no unwinder for it (no frames)
     */
    public UserStackUnwinder(UnwindObjects objects, boolean perfCompatible, UnwindArch arch) {
        this.objects = objects;
        this.perfCompatible = perfCompatible;
        this.arch = arch;
    }

    /** Whether this unwinder reproduces perf's libunwind-based unwinding. */
    public boolean perfCompatible() {
        return perfCompatible;
    }

    /**
     * The user-space frames of the sample (innermost first), or null when it carries no stack.
     * Under perf compatibility an aarch64 stack has no frames: perf 6.1 as built for x86-64
     * ("unwind: target platform=arm64 is not supported") unwinds no other architecture.
     */
    public long[] unwind(Sample s, Thread thread) {
        Regs regs = s.userRegs();
        UserStack stack = s.userStack();
        if (regs == null || stack == null || stack.data() == null || regs.abi() != Regs.ABI_64 || thread == null) {
            return null;
        }
        if (arch == null || (perfCompatible && arch != UnwindArch.X86_64)) {
            return NO_FRAMES;
        }
        int slots = arch.slots();
        long[] reg = new long[slots];
        boolean[] known = new boolean[slots];
        for (int d = 0; d < slots; d++) {
            int bit = arch.perfIndex(d);
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
            walk = new CfiWalk(this, arch);
        }
        return walk.unwind(reg, known, stack.data(), stack.dynSize(), thread.maps(), MAX_FRAMES);
    }

    /** The object file behind a map (see {@link UnwindObjects#of}), or null. */
    UnwindObject objOf(Map map) {
        return objects.of(map.dso());
    }
}
