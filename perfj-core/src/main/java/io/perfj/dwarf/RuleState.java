package io.perfj.dwarf;

import java.util.Arrays;

/** The mutable rule set of the row being built: the CFA rule and a small register → rule map. */
final class RuleState {
    CfaRule cfa = new CfaRule.RegisterOffset(0, 0);
    boolean cfaSet;
    int[] regs = new int[8];
    RegisterRule[] rules = new RegisterRule[8];
    int count;
    /** aarch64's RA_SIGN_STATE pseudo-register: whether the return address is signed here. */
    boolean raSigned;

    RuleState copy() {
        RuleState s = new RuleState();
        s.cfa = cfa;
        s.cfaSet = cfaSet;
        s.regs = regs.clone();
        s.rules = rules.clone();
        s.count = count;
        s.raSigned = raSigned;
        return s;
    }

    RegisterRule get(int reg) {
        for (int i = 0; i < count; i++) {
            if (regs[i] == reg) {
                return rules[i];
            }
        }
        return null;
    }

    void set(int reg, RegisterRule rule) {
        for (int i = 0; i < count; i++) {
            if (regs[i] == reg) {
                rules[i] = rule;
                return;
            }
        }
        if (count == regs.length) {
            regs = Arrays.copyOf(regs, count * 2);
            rules = Arrays.copyOf(rules, count * 2);
        }
        regs[count] = reg;
        rules[count] = rule;
        count++;
    }

    void remove(int reg) {
        for (int i = 0; i < count; i++) {
            if (regs[i] == reg) {
                count--;
                regs[i] = regs[count];
                rules[i] = rules[count];
                return;
            }
        }
    }

    UnwindRow toRow(long start, long end, int ra) {
        return new UnwindRow(start, end, cfa, ra, Arrays.copyOf(regs, count), Arrays.copyOf(rules, count), raSigned);
    }
}
