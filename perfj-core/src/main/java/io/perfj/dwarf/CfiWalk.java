package io.perfj.dwarf;

import io.perfj.io.Bytes;
import io.perfj.symbols.Map;
import io.perfj.symbols.Maps;

import java.util.Arrays;

/**
 * Unwinds a copied user stack with the call frame information alone (x86-64), every rule
 * applied as DWARF 5 section 6.4 defines it, DWARF expressions included (libc's PLT rules are
 * expressions). The walk ends where the information ends: no rule for an address, a return
 * address that cannot be recovered (undefined, or saved outside the copied stack), a return
 * address in no mapping (left out), or a frame that does not move.
 *
 * <p>Memory outside the copied stack is read from the file of the map that covers it, but only
 * from maps that are not writable (code and read-only data are as in the file; writable data
 * may have changed since it was loaded).
 */
final class CfiWalk {
    private static final int SP = 7;
    private static final int RA = 16;
    private static final int NREGS = 17;
    private static final int PROT_WRITE = 2;

    private final UserStackUnwinder owner;
    private final ExpressionEvaluator evaluator = ExpressionEvaluator.x86_64();

    // per walk
    private Maps maps;
    private Bytes mem;
    private long memSize;
    /** Where the copy starts: the sampled stack pointer. */
    private long stackBase;
    /** The stack pointer of the frame before the last step (a frame that does not move ends the walk). */
    private long prevSp;
    private long[] reg;
    private boolean[] known;

    /** Registers and memory of the frame being unwound, for expressions. */
    private final ExpressionEvaluator.Context context = new ExpressionEvaluator.Context() {
        @Override
        public long register(int r) {
            if (r < 0 || r >= NREGS || !known[r]) {
                throw new ExpressionException(-1, "register " + r + " unknown");
            }
            return reg[r];
        }

        @Override
        public long read(long address, int size) {
            long v = CfiWalk.this.read(address, size);
            if (!readOk) {
                throw new ExpressionException(-1, "unreadable");
            }
            return v;
        }
    };
    private boolean readOk;

    CfiWalk(UserStackUnwinder owner) {
        this.owner = owner;
    }

    /**
     * The frames, innermost first: the sampled address, then each caller's return address minus
     * one (inside the call, as perf prints them); null without a stack pointer or an ip.
     */
    long[] unwind(long[] regs, boolean[] knownRegs, Bytes data, long dynSize, Maps threadMaps, int max) {
        if (!knownRegs[SP] || !knownRegs[RA]) {
            return null;
        }
        this.maps = threadMaps;
        this.mem = data;
        this.memSize = dynSize > 0 ? Math.min(dynSize, data.size()) : data.size();
        this.stackBase = regs[SP];
        this.reg = regs;
        this.known = knownRegs;
        try {
            return walk(max);
        } finally {
            this.maps = null;
            this.mem = null;
        }
    }

    private long[] walk(int max) {
        long[] out = new long[16];
        int n = 0;
        long pc = reg[RA];
        // the sampled address, and the address a signal frame returns to, are exact; other
        // callers are looked up (and printed) inside their call, at the return address minus one
        boolean exact = true;
        while (n < max && pc != 0) {
            if (n == out.length) {
                out = Arrays.copyOf(out, n * 2);
            }
            long lookup = exact ? pc : pc - 1;
            Map map = maps.find(lookup);
            if (map == null && n > 0) {
                // a return address in no mapping is not one (e.g. a stack copied from the new
                // image of a process in execve, whose registers are still the old image's)
                break;
            }
            out[n++] = lookup;
            if (map == null || map.dso() == null) {
                break;
            }
            UnwindObject cfi = owner.objOf(map);
            if (cfi == null || cfi.info().isEmpty()) {
                break;
            }
            long vaddr = cfi.toVaddr(map.mapIp(lookup));
            if (vaddr == -1) {
                break;
            }
            UnwindRow row;
            boolean signal;
            try {
                Fde fde = cfi.info().find(vaddr).orElse(null);
                row = fde == null ? null : cfi.info().rowFor(fde, vaddr);
                signal = fde != null && fde.cie().signalFrame();
            } catch (RuntimeException e) {
                break;
            }
            if (signal && !exact) {
                // a signal trampoline is entered at its first instruction, not called: its
                // frame is the return address itself (the FDE starts a byte early for the lookup)
                out[n - 1] = pc;
            }
            if (row == null || !step(row)) {
                break;
            }
            if (reg[RA] == pc && reg[SP] == prevSp) {
                break;
            }
            pc = reg[RA];
            exact = signal;
        }
        return Arrays.copyOf(out, n);
    }

    /** Applies a row: the caller's registers into {@link #reg}; false when the return address is lost. */
    private boolean step(UnwindRow row) {
        long cfa;
        switch (row.cfa()) {
            case CfaRule.RegisterOffset ro -> {
                if (ro.register() >= NREGS || !known[ro.register()]) {
                    return false;
                }
                cfa = reg[ro.register()] + ro.offset();
            }
            case CfaRule.Expression e -> {
                try {
                    cfa = evaluator.evaluate(e.code(), context);
                } catch (ExpressionException x) {
                    return false;
                }
            }
        }
        long[] next = reg.clone();
        boolean[] nextKnown = known.clone();
        for (int d = 0; d < NREGS; d++) {
            if (!row.hasRule(d)) {
                // no rule: the value is kept (what compilers mean for callee-saved registers)
                continue;
            }
            switch (row.rule(d)) {
                case RegisterRule.Undefined u -> nextKnown[d] = false;
                case RegisterRule.SameValue s -> {
                }
                case RegisterRule.Offset o -> {
                    next[d] = read(cfa + o.offset(), 8);
                    nextKnown[d] = readOk;
                }
                case RegisterRule.ValOffset v -> {
                    next[d] = cfa + v.offset();
                    nextKnown[d] = true;
                }
                case RegisterRule.Register rr -> {
                    int from = rr.register();
                    nextKnown[d] = from < NREGS && known[from];
                    next[d] = nextKnown[d] ? reg[from] : 0;
                }
                case RegisterRule.Expression x -> {
                    try {
                        long at = evaluator.evaluate(x.code(), context, cfa);
                        next[d] = read(at, 8);
                        nextKnown[d] = readOk;
                    } catch (ExpressionException ex) {
                        nextKnown[d] = false;
                    }
                }
                case RegisterRule.ValExpression x -> {
                    try {
                        next[d] = evaluator.evaluate(x.code(), context, cfa);
                        nextKnown[d] = true;
                    } catch (ExpressionException ex) {
                        nextKnown[d] = false;
                    }
                }
            }
        }
        int ra = row.returnAddressRegister();
        if (ra != RA || !nextKnown[RA]) {
            return false;
        }
        next[SP] = cfa;
        nextKnown[SP] = true;
        prevSp = reg[SP];
        reg = next;
        known = nextKnown;
        return true;
    }

    /**
     * {@code size} bytes at {@code address}: from the copied stack when it holds them, else from
     * the file of a non-writable map; {@link #readOk} says whether it could.
     */
    private long read(long address, int size) {
        readOk = false;
        long off = address - stackBase;
        if (Long.compareUnsigned(address, stackBase) >= 0 && off >= 0 && off <= memSize - size) {
            readOk = true;
            return value(mem, off, size);
        }
        Map map = maps.find(address);
        if (map == null || map.dso() == null || (map.prot() & PROT_WRITE) != 0 || !map.contains(address + size - 1)) {
            return 0;
        }
        UnwindObject obj = owner.objOf(map);
        if (obj == null) {
            return 0;
        }
        long fileOff = map.mapIp(address);
        Bytes file = obj.elf().bytes();
        if (fileOff < 0 || fileOff > file.size() - size) {
            return 0;
        }
        readOk = true;
        return value(file, fileOff, size);
    }

    private static long value(Bytes b, long off, int size) {
        return switch (size) {
            case 1 -> b.u8(off);
            case 2 -> b.u16(off);
            case 4 -> b.u32(off);
            default -> b.u64(off);
        };
    }
}
