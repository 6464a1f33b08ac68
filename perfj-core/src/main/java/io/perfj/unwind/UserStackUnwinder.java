package io.perfj.unwind;

import io.perfj.dwarf.UnwindArch;
import io.perfj.perfdata.record.Regs;
import io.perfj.perfdata.record.Sample;
import io.perfj.perfdata.record.UserStack;
import io.perfj.symbols.DsoFinder;
import io.perfj.symbols.ObjectCache;
import io.perfj.symbols.Thread;


/**
 * Unwinds a sample's user-space stack from the registers and stack bytes perf copied
 * ({@code --call-graph dwarf}: PERF_SAMPLE_REGS_USER and PERF_SAMPLE_STACK_USER) with the call
 * frame information of each object on the way, on the recording's architecture (x86-64 or
 * aarch64: {@link UnwindArch}), by the run's {@link UnwindMethod}. The first address is the
 * sampled instruction pointer, the others are return addresses minus one, as perf reports them.
 * Inline frames are not expanded.
 */
public final class UserStackUnwinder {
    private static final int MAX_FRAMES = 127;
    private static final long[] NO_FRAMES = {};

    private final UnwindObjects objects;
    private final UnwindMethod method;
    private final UnwindArch arch;
    private UnwindMethod.Walker walker;
    private boolean asked;

    /** Unwinds x86-64 stacks with the call frame information alone (the correct result). */
    public UserStackUnwinder(DsoFinder finder) {
        this(new UnwindObjects(new ObjectCache(finder)), UnwindMethod.CFI, UnwindArch.X86_64);
    }

    /**
     * Over a run's objects, shared with other unwinders and inline-frame naming.
     *
     * @param arch the recording's architecture; null when there is no unwinder for it (no frames)
     */
    public UserStackUnwinder(UnwindObjects objects, UnwindMethod method, UnwindArch arch) {
        this.objects = objects;
        this.method = method;
        this.arch = arch;
    }

    /** The sample's user-space frames (innermost first), or null when it carries no stack. */
    public long[] unwind(Sample s, Thread thread) {
        Regs regs = s.userRegs();
        UserStack stack = s.userStack();
        if (regs == null || stack == null || stack.data() == null || regs.abi() != Regs.ABI_64 || thread == null) {
            return null;
        }
        if (!asked) {
            walker = method.walker(objects, arch);
            asked = true;
        }
        if (walker == null) {
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
        return walker.unwind(reg, known, stack.data(), stack.dynSize(), thread, MAX_FRAMES);
    }
}
