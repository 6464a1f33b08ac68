package io.perfj.dwarf;

/**
 * How to recover a register's value in the caller (DWARF 5 section 6.4.1, "register rules").
 * Offsets are already multiplied by the data alignment factor.
 */
public sealed interface RegisterRule {

    /** The register has no recoverable value in the caller (also: no rule given). */
    record Undefined() implements RegisterRule {
    }

    /** The register keeps its value (same value). */
    record SameValue() implements RegisterRule {
    }

    /** Saved at address CFA + {@code offset}. */
    record Offset(long offset) implements RegisterRule {
    }

    /** The value is CFA + {@code offset} (val_offset). */
    record ValOffset(long offset) implements RegisterRule {
    }

    /** Saved in another register. */
    record Register(int register) implements RegisterRule {
    }

    /** Saved at the address a DWARF expression computes (CFA pushed first). */
    record Expression(DwarfExpression code) implements RegisterRule {
        public Expression(byte[] expression) {
            this(new DwarfExpression(expression));
        }

        public byte[] expression() {
            return code.bytes();
        }
    }

    /** The value is what a DWARF expression computes (val_expression). */
    record ValExpression(DwarfExpression code) implements RegisterRule {
        public ValExpression(byte[] expression) {
            this(new DwarfExpression(expression));
        }

        public byte[] expression() {
            return code.bytes();
        }
    }

    RegisterRule UNDEFINED = new Undefined();
    RegisterRule SAME_VALUE = new SameValue();
}
