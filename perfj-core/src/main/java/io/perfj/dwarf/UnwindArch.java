package io.perfj.dwarf;

import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.feature.RecordedArch;

/**
 * What a DWARF stack walk needs to know of an architecture: which of perf's sampled user
 * registers (PERF_SAMPLE_REGS_USER, in the order of the kernel's perf_regs.h) is which DWARF
 * register, which DWARF registers are the stack pointer and the return address column, and where
 * the program counter is kept.
 *
 * <p>The walk keeps one slot per DWARF register it follows ({@link #dwarfRegs()}) and, where the
 * program counter is no DWARF register, one more ({@link #pc()}): on x86-64 the return address
 * column 16 is the instruction pointer itself; on aarch64 the return address is in x30 (the link
 * register) and the program counter is apart, so each step sets the caller's pc from the x30
 * rule. On aarch64 a return address may also carry a pointer authentication code
 * ({@code DW_CFA_AARCH64_negate_ra_state}): see {@link #stripSigned(long)}.
 */
public enum UnwindArch {
    /** x86-64: DWARF 0..16 (rax, rdx, rcx, rbx, rsi, rdi, rbp, rsp, r8..r15, return address = rip). */
    X86_64(17, 7, 16, 16, new int[] {0 /* ax */, 3 /* dx */, 2 /* cx */, 1 /* bx */, 4 /* si */,
        5 /* di */, 6 /* bp */, 7 /* sp */, 16, 17, 18, 19, 20, 21, 22, 23, 8 /* ip */}),
    /**
     * aarch64: DWARF 0..30 are x0..x30 and 31 is sp, the same order as perf's registers 0..31;
     * perf's register 32, pc, is kept in slot 32.
     */
    AARCH64(32, 31, 30, 32, identity(33));

    /**
     * Where user addresses end on aarch64 (48-bit virtual addresses): the bits above hold a signed
     * return address's authentication code.
     */
    private static final long AARCH64_USER_ADDRESS_MASK = (1L << 48) - 1;

    private final int dwarfRegs;
    private final int sp;
    private final int ra;
    private final int pc;
    private final int[] perfIndex;

    UnwindArch(int dwarfRegs, int sp, int ra, int pc, int[] perfIndex) {
        this.dwarfRegs = dwarfRegs;
        this.sp = sp;
        this.ra = ra;
        this.pc = pc;
        this.perfIndex = perfIndex;
    }

    /** The architecture {@code data} was recorded on, or null when none is supported. */
    public static UnwindArch of(PerfData data) {
        return of(RecordedArch.of(data));
    }

    /** The architecture of a recording by perf's normalised name ({@link RecordedArch}), or null when none is supported. */
    public static UnwindArch of(String perfArch) {
        return switch (perfArch) {
            case RecordedArch.X86 -> X86_64;
            case RecordedArch.ARM64 -> AARCH64;
            default -> null;
        };
    }

    /** DWARF registers 0..dwarfRegs()-1 are followed. */
    public int dwarfRegs() {
        return dwarfRegs;
    }

    /** Slots a register set needs: the DWARF registers and the pc. */
    public int slots() {
        return Math.max(dwarfRegs, pc + 1);
    }

    /** The stack pointer's DWARF number (the caller's sp is the CFA). */
    public int sp() {
        return sp;
    }

    /** The return address column the CIEs of this architecture use. */
    public int ra() {
        return ra;
    }

    /** The slot of the program counter (the return address column itself on x86-64). */
    public int pc() {
        return pc;
    }

    /** The bit of perf's register mask that holds slot {@code slot}. */
    public int perfIndex(int slot) {
        return perfIndex[slot];
    }

    /**
     * A return address restored while the row's RA_SIGN_STATE is 1, without its authentication
     * code. libunwind strips it from another process's stack only with a mask its caller supplies
     * (the ptrauth_insn_mask accessor, newer than perf 6.1), and a signed address matches no map;
     * this walk clears the bits above the user address range, which is what XPACI gives for user
     * code.
     */
    public long stripSigned(long address) {
        return this == AARCH64 ? address & AARCH64_USER_ADDRESS_MASK : address;
    }

    private static int[] identity(int n) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = i;
        }
        return a;
    }
}
