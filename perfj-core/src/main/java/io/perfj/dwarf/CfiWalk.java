package io.perfj.dwarf;

import io.perfj.io.Bytes;

import java.util.Arrays;

/**
 * Unwinds a copied user stack with the call frame information alone (x86-64 or aarch64, see
 * {@link UnwindArch}), every rule
 * applied as DWARF 5 section 6.4 defines it, DWARF expressions included (libc's PLT rules are
 * expressions). The walk ends where the information ends: no rule for an address, a return
 * address that cannot be recovered (undefined, or saved outside the copied stack), a return
 * address in no mapping (left out), or a frame that does not move.
 *
 * <p>Memory outside the copied stack is read from the file of the map that covers it, but only
 * from maps that are not writable (code and read-only data are as in the file; writable data
 * may have changed since it was loaded).
 */
public final class CfiWalk {
    private static final int PROT_WRITE = 2;

    private final UnwindArch arch;
    private final int spReg;
    private final int raReg;
    private final int pcSlot;
    /** DWARF registers followed (rules of higher numbers are ignored). */
    private final int nregs;
    /** Register slots: the DWARF registers and, where it is apart, the pc. */
    private final int slots;
    private final ExpressionEvaluator evaluator = ExpressionEvaluator.x86_64();

    // per walk
    private UnwindSpace space;
    private Bytes mem;
    private long memSize;
    /** Where the copy starts: the sampled stack pointer. */
    private long stackBase;
    /** The stack pointer of the frame before the last step (a frame that does not move ends the walk). */
    private long prevSp;
    private long[] reg;
    private boolean[] known;
    /** Where a planned step writes the caller's registers; swapped with {@link #reg} after it. */
    private long[] spareReg;
    private boolean[] spareKnown;
    private final long[] regA;
    private final long[] regB;
    private final boolean[] knownA;
    private final boolean[] knownB;

    /**
     * The row of each (object, address) met so far, direct-mapped by address: the same return
     * addresses recur sample after sample, and finding the FDE (a binary search over the
     * object's table) and its row cost more than the step itself. A walker belongs to one thread.
     */
    private final Found[] found = new Found[FOUND];
    private static final int FOUND = 4096;

    /** The row at an object's address, its plan (null: applied rule by rule) and whether the FDE is a signal frame's. */
    private record Found(UnwindObject obj, long vaddr, UnwindRow row, RowPlan plan, boolean signal) {
    }

    /** Registers and memory of the frame being unwound, for expressions. */
    private final ExpressionEvaluator.Context context = new ExpressionEvaluator.Context() {
        @Override
        public long register(int r) {
            if (r < 0 || r >= nregs || !known[r]) {
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

    public CfiWalk(UnwindArch arch) {
        this.arch = arch;
        spReg = arch.sp();
        raReg = arch.ra();
        pcSlot = arch.pc();
        nregs = arch.dwarfRegs();
        slots = arch.slots();
        regA = new long[slots];
        regB = new long[slots];
        knownA = new boolean[slots];
        knownB = new boolean[slots];
    }

    /**
     * The frames, innermost first: the sampled address, then each caller's return address minus
     * one (inside the call, as perf prints them); null without a stack pointer or an ip.
     */
    public long[] unwind(long[] regs, boolean[] knownRegs, Bytes data, long dynSize, UnwindSpace space, int max) {
        if (!knownRegs[spReg] || !knownRegs[pcSlot]) {
            return null;
        }
        this.space = space;
        this.mem = data;
        this.memSize = dynSize > 0 ? Math.min(dynSize, data.size()) : data.size();
        this.stackBase = regs[spReg];
        // the caller's arrays stay as they were: the walk works in its own two sets
        System.arraycopy(regs, 0, regA, 0, slots);
        System.arraycopy(knownRegs, 0, knownA, 0, slots);
        this.reg = regA;
        this.known = knownA;
        this.spareReg = regB;
        this.spareKnown = knownB;
        try {
            return walk(max);
        } finally {
            this.space = null;
            this.mem = null;
        }
    }

    private long[] walk(int max) {
        long[] out = new long[16];
        int n = 0;
        long pc = reg[pcSlot];
        // the sampled address, and the address a signal frame returns to, are exact; other
        // callers are looked up (and printed) inside their call, at the return address minus one
        boolean exact = true;
        while (n < max && pc != 0) {
            if (n == out.length) {
                out = Arrays.copyOf(out, n * 2);
            }
            long lookup = exact ? pc : pc - 1;
            UnwindSpace.Mapping map = space.mapping(lookup);
            if (map == null && n > 0) {
                // a return address in no mapping is not one (e.g. a stack copied from the new
                // image of a process in execve, whose registers are still the old image's)
                break;
            }
            out[n++] = lookup;
            if (map == null || !map.mapsObject()) {
                break;
            }
            UnwindObject cfi = space.object(map);
            if (cfi == null || cfi.info().isEmpty()) {
                break;
            }
            long vaddr = cfi.toVaddr(map.mapIp(lookup));
            if (vaddr == -1) {
                break;
            }
            Found f = found(cfi, vaddr);
            if (f == null) {
                break;
            }
            boolean signal = f.signal();
            if (signal && !exact) {
                // a signal trampoline is entered at its first instruction, not called: its
                // frame is the return address itself (the FDE starts a byte early for the lookup)
                out[n - 1] = pc;
            }
            UnwindRow row = f.row();
            if (row == null || !(f.plan() != null ? step(row, f.plan()) : step(row))) {
                break;
            }
            if (reg[pcSlot] == pc && reg[spReg] == prevSp) {
                break;
            }
            pc = reg[pcSlot];
            exact = signal;
        }
        return Arrays.copyOf(out, n);
    }

    /** The row at {@code vaddr} in {@code cfi} (cached), or null when the FDE or its table is broken there. */
    private Found found(UnwindObject cfi, long vaddr) {
        int slot = (int) (vaddr ^ (vaddr >>> 12)) & (FOUND - 1);
        Found f = found[slot];
        if (f != null && f.vaddr() == vaddr && f.obj() == cfi) {
            return f;
        }
        try {
            FdeTable t = cfi.info().table(vaddr);
            UnwindRow row = t == null ? null : t.rowFor(vaddr);
            f = new Found(cfi, vaddr, row, row == null ? null : RowPlan.of(row, nregs), t != null && t.signalFrame());
        } catch (RuntimeException e) {
            return null;
        }
        found[slot] = f;
        return f;
    }

    /** {@link #step(UnwindRow)} for a row with a plan: the same registers, without the rule objects. */
    private boolean step(UnwindRow row, RowPlan p) {
        int c = p.cfaRegister;
        if (!known[c]) {
            return false;
        }
        long cfa = reg[c] + p.cfaOffset;
        long[] next = spareReg;
        boolean[] nextKnown = spareKnown;
        System.arraycopy(reg, 0, next, 0, slots);
        System.arraycopy(known, 0, nextKnown, 0, slots);
        int[] regs = p.regs;
        byte[] kinds = p.kinds;
        long[] args = p.args;
        for (int i = 0; i < regs.length; i++) {
            int d = regs[i];
            switch (kinds[i]) {
                case RowPlan.UNDEFINED -> nextKnown[d] = false;
                case RowPlan.SAME_VALUE -> {
                }
                case RowPlan.OFFSET -> {
                    next[d] = read(cfa + args[i], 8);
                    nextKnown[d] = readOk;
                }
                case RowPlan.VAL_OFFSET -> {
                    next[d] = cfa + args[i];
                    nextKnown[d] = true;
                }
                default -> {
                    int from = (int) args[i];
                    nextKnown[d] = from < nregs && known[from];
                    next[d] = nextKnown[d] ? reg[from] : 0;
                }
            }
        }
        return finish(row, cfa, next, nextKnown);
    }

    /** Applies a row: the caller's registers into {@link #reg}; false when the return address is lost. */
    private boolean step(UnwindRow row) {
        long cfa;
        switch (row.cfa()) {
            case CfaRule.RegisterOffset ro -> {
                if (ro.register() >= nregs || !known[ro.register()]) {
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
        for (int d = 0; d < nregs; d++) {
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
                    nextKnown[d] = from < nregs && known[from];
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
        return finish(row, cfa, next, nextKnown);
    }

    /**
     * Makes the caller's registers the current ones (the CFA is its stack pointer, the return
     * address its pc) unless the return address is lost; the old set becomes the spare one.
     */
    private boolean finish(UnwindRow row, long cfa, long[] next, boolean[] nextKnown) {
        if (row.returnAddressRegister() != raReg || !nextKnown[raReg]) {
            return false;
        }
        long ret = row.raSigned() ? arch.stripSigned(next[raReg]) : next[raReg];
        next[pcSlot] = ret;
        nextKnown[pcSlot] = true;
        next[spReg] = cfa;
        nextKnown[spReg] = true;
        prevSp = reg[spReg];
        spareReg = reg;
        spareKnown = known;
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
        UnwindSpace.Mapping map = space.mapping(address);
        if (map == null || !map.mapsObject() || (map.prot() & PROT_WRITE) != 0 || !map.contains(address + size - 1)) {
            return 0;
        }
        UnwindObject obj = space.object(map);
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
