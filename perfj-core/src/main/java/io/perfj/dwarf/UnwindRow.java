package io.perfj.dwarf;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One row of the unwind table (DWARF 5 section 6.4.1 "Structure of Call Frame Information", the
 * CFA table): for addresses in [{@code start}, {@code end}) the CFA rule and the rule of every
 * register a CIE or FDE instruction mentioned. Registers use the DWARF numbering of the target;
 * on x86-64: 0 rax, 1 rdx, 2 rcx, 3 rbx, 4 rsi, 5 rdi, 6 rbp, 7 rsp, 8-15 r8-r15, 16 return
 * address.
 */
public final class UnwindRow {
    /** x86-64 DWARF register numbers (System V psABI, "DWARF Register Number Mapping"). */
    public static final int RAX = 0, RDX = 1, RCX = 2, RBX = 3, RSI = 4, RDI = 5, RBP = 6, RSP = 7,
            R12 = 12, R13 = 13, R14 = 14, R15 = 15, RA = 16;

    private final long start;
    private final long end;
    private final CfaRule cfa;
    private final int returnAddressRegister;
    private final int[] regs;
    private final RegisterRule[] rules;
    /** Rules of registers 0..DENSE-1 by number (null: none given), for unwinders asking per register. */
    private final RegisterRule[] dense = new RegisterRule[DENSE];
    private static final int DENSE = 32;

    private final boolean raSigned;

    UnwindRow(long start, long end, CfaRule cfa, int returnAddressRegister, int[] regs, RegisterRule[] rules) {
        this(start, end, cfa, returnAddressRegister, regs, rules, false);
    }

    UnwindRow(long start, long end, CfaRule cfa, int returnAddressRegister, int[] regs, RegisterRule[] rules,
              boolean raSigned) {
        this.raSigned = raSigned;
        this.start = start;
        this.end = end;
        this.cfa = cfa;
        this.returnAddressRegister = returnAddressRegister;
        this.regs = regs;
        this.rules = rules;
        for (int i = regs.length - 1; i >= 0; i--) {
            if (regs[i] >= 0 && regs[i] < DENSE && dense[regs[i]] == null) {
                dense[regs[i]] = rules[i];
            }
        }
    }

    /** First address the row applies to. */
    public long start() {
        return start;
    }

    /** First address past the row. */
    public long end() {
        return end;
    }

    public CfaRule cfa() {
        return cfa;
    }

    /**
     * Whether the return address restored by this row carries an aarch64 pointer authentication
     * code (RA_SIGN_STATE 1, toggled by {@code DW_CFA_AARCH64_negate_ra_state}).
     */
    public boolean raSigned() {
        return raSigned;
    }

    /** The CIE's return address column. */
    public int returnAddressRegister() {
        return returnAddressRegister;
    }

    /** The rule for {@code register}; {@link RegisterRule.Undefined} when no instruction set one. */
    public RegisterRule rule(int register) {
        if (register >= 0 && register < DENSE) {
            RegisterRule r = dense[register];
            return r == null ? RegisterRule.UNDEFINED : r;
        }
        for (int i = 0; i < regs.length; i++) {
            if (regs[i] == register) {
                return rules[i];
            }
        }
        return RegisterRule.UNDEFINED;
    }

    /** Whether an instruction gave {@code register} a rule. */
    public boolean hasRule(int register) {
        if (register >= 0 && register < DENSE) {
            return dense[register] != null;
        }
        for (int r : regs) {
            if (r == register) {
                return true;
            }
        }
        return false;
    }

    /** The explicitly given rules, by register number (ascending). */
    public Map<Integer, RegisterRule> rules() {
        Map<Integer, RegisterRule> m = new LinkedHashMap<>();
        int[] order = regs.clone();
        java.util.Arrays.sort(order);
        for (int r : order) {
            m.put(r, rule(r));
        }
        return Collections.unmodifiableMap(m);
    }

    @Override
    public String toString() {
        return "UnwindRow[0x" + Long.toHexString(start) + "..0x" + Long.toHexString(end) + " cfa=" + cfa + " "
                + rules() + "]";
    }
}
