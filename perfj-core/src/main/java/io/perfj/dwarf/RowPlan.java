package io.perfj.dwarf;

/**
 * An unwind row as the CFI walk applies it at every frame that reaches it: the CFA register and
 * offset and the rules of registers 0..16 as kinds and numbers in flat arrays, made once per row
 * (the walk meets the same few rows again and again). Rows the walk cannot apply this way (a
 * CFA or register rule that is a DWARF expression, a CFA register past 16) have no plan and are
 * applied rule by rule.
 */
final class RowPlan {
    static final byte UNDEFINED = 0, SAME_VALUE = 1, OFFSET = 2, VAL_OFFSET = 3, REGISTER = 4;

    final int cfaRegister;
    final long cfaOffset;
    /** Registers with a rule, ascending; their kinds and arguments (offset, or source register). */
    final int[] regs;
    final byte[] kinds;
    final long[] args;

    private RowPlan(int cfaRegister, long cfaOffset, int[] regs, byte[] kinds, long[] args) {
        this.cfaRegister = cfaRegister;
        this.cfaOffset = cfaOffset;
        this.regs = regs;
        this.kinds = kinds;
        this.args = args;
    }

    /** The plan of {@code row} for the first {@code nregs} registers, or null when it has none. */
    static RowPlan of(UnwindRow row, int nregs) {
        if (!(row.cfa() instanceof CfaRule.RegisterOffset ro) || ro.register() < 0 || ro.register() >= nregs) {
            return null;
        }
        int n = 0;
        for (int d = 0; d < nregs; d++) {
            if (row.hasRule(d)) {
                n++;
            }
        }
        int[] regs = new int[n];
        byte[] kinds = new byte[n];
        long[] args = new long[n];
        int i = 0;
        for (int d = 0; d < nregs; d++) {
            if (!row.hasRule(d)) {
                continue;
            }
            regs[i] = d;
            switch (row.rule(d)) {
                case RegisterRule.Undefined u -> kinds[i] = UNDEFINED;
                case RegisterRule.SameValue s -> kinds[i] = SAME_VALUE;
                case RegisterRule.Offset o -> {
                    kinds[i] = OFFSET;
                    args[i] = o.offset();
                }
                case RegisterRule.ValOffset v -> {
                    kinds[i] = VAL_OFFSET;
                    args[i] = v.offset();
                }
                case RegisterRule.Register r -> {
                    kinds[i] = REGISTER;
                    args[i] = r.register();
                }
                case RegisterRule.Expression x -> {
                    return null;
                }
                case RegisterRule.ValExpression x -> {
                    return null;
                }
            }
            i++;
        }
        return new RowPlan(ro.register(), ro.offset(), regs, kinds, args);
    }
}
