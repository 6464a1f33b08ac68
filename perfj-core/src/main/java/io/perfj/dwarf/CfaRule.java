package io.perfj.dwarf;

/**
 * How to compute the canonical frame address (DWARF 5 section 6.4.1, "CFA" column): a register
 * plus a signed offset, or a DWARF expression whose value is the CFA.
 */
public sealed interface CfaRule {

    /** CFA = value of {@code register} + {@code offset}. */
    record RegisterOffset(int register, long offset) implements CfaRule {
        @Override
        public String toString() {
            return "r" + register + (offset < 0 ? "" : "+") + offset;
        }
    }

    /** CFA = value of the DWARF expression (DW_CFA_def_cfa_expression), kept as raw bytes. */
    record Expression(DwarfExpression code) implements CfaRule {
        public Expression(byte[] expression) {
            this(new DwarfExpression(expression));
        }

        public byte[] expression() {
            return code.bytes();
        }

        @Override
        public String toString() {
            return code.toString();
        }
    }
}
