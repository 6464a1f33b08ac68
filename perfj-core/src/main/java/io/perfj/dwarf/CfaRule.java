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
    record Expression(byte[] expression) implements CfaRule {
        public Expression {
            expression = expression.clone();
        }

        @Override
        public byte[] expression() {
            return expression.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Expression e && java.util.Arrays.equals(expression, e.expression);
        }

        @Override
        public int hashCode() {
            return java.util.Arrays.hashCode(expression);
        }

        @Override
        public String toString() {
            return "exp[" + expression.length + "]";
        }
    }
}
