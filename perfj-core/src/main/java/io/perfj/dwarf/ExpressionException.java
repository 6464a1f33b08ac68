package io.perfj.dwarf;

/**
 * A DWARF expression that cannot be evaluated: malformed (an operand runs past the end, a branch
 * leaves the expression), outside what call frame rules allow (register locations, frame base,
 * calls), over a limit (stack depth, steps), or asking for a register or memory the unwinder does
 * not have. {@link #offset()} is the position of the operation in the expression.
 */
public final class ExpressionException extends RuntimeException {
    private final int offset;

    public ExpressionException(int offset, String message) {
        super("DWARF expression at byte " + offset + ": " + message);
        this.offset = offset;
    }

    /** The byte offset of the failing operation in its expression. */
    public int offset() {
        return offset;
    }
}
