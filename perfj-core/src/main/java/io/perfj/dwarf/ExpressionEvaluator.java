package io.perfj.dwarf;

import io.perfj.io.Bytes;
import io.perfj.io.Cursor;
import io.perfj.io.FormatException;
import io.perfj.io.Leb128;

import java.nio.ByteOrder;

/**
 * Evaluates the DWARF expressions of call frame rules (DWARF 5 sections 2.5 and 6.4.2:
 * DW_CFA_def_cfa_expression, DW_CFA_expression, DW_CFA_val_expression) on a 64-bit value stack:
 * literals and constants, stack operations, arithmetic and logic, comparisons, branches,
 * {@code DW_OP_bregN}/{@code DW_OP_bregx} and {@code DW_OP_deref}/{@code DW_OP_deref_size}.
 * What call frame rules may not use (register locations, {@code DW_OP_fbreg}, calls,
 * {@code DW_OP_call_frame_cfa}, pieces, {@code DW_OP_stack_value}) and vendor operations are
 * rejected.
 *
 * <p>Bounded for hostile input: at most {@link #MAX_STACK} values on the stack and
 * {@link #MAX_STEPS} operations executed (a branch back can loop), no allocation that grows with
 * the input. Every failure is an {@link ExpressionException}.
 */
public final class ExpressionEvaluator {
    /** Most values the stack may hold. */
    public static final int MAX_STACK = 64;
    /** Most operations one evaluation may execute (branches included). */
    public static final int MAX_STEPS = 10_000;

    /** Where an expression's registers and memory come from. */
    public interface Context {
        /** The value of DWARF register {@code reg}; throws an {@link ExpressionException} (any offset) when unknown. */
        long register(int reg);

        /**
         * {@code size} (1, 2, 4 or 8) bytes at {@code address}, zero-extended; throws an
         * {@link ExpressionException} (any offset) when unreadable.
         */
        long read(long address, int size);
    }

    private final int addressSize;
    private final ByteOrder order;

    /** @param addressSize 4 or 8: the size of DW_OP_addr and DW_OP_deref operands */
    public ExpressionEvaluator(int addressSize, ByteOrder order) {
        if (addressSize != 4 && addressSize != 8) {
            throw new IllegalArgumentException("address size " + addressSize);
        }
        this.addressSize = addressSize;
        this.order = order;
    }

    /** x86-64: 8-byte addresses, little-endian. */
    public static ExpressionEvaluator x86_64() {
        return new ExpressionEvaluator(8, ByteOrder.LITTLE_ENDIAN);
    }

    /** The value of {@code e} evaluated on an empty stack (a CFA expression). */
    public long evaluate(DwarfExpression e, Context ctx) {
        return run(e.bytes(), ctx, false, 0);
    }

    /** The value of {@code e} evaluated with {@code initial} pushed first (register rules push the CFA). */
    public long evaluate(DwarfExpression e, Context ctx, long initial) {
        return run(e.bytes(), ctx, true, initial);
    }

    private long run(byte[] code, Context ctx, boolean push, long initial) {
        long[] stack = new long[MAX_STACK];
        int sp = 0;
        if (push) {
            stack[sp++] = initial;
        }
        Bytes b = Bytes.of(code, order, "DWARF expression", "expression");
        Cursor c = b.cursor();
        int steps = 0;
        while (c.hasRemaining()) {
            int at = (int) c.position();
            if (++steps > MAX_STEPS) {
                throw new ExpressionException(at, "more than " + MAX_STEPS + " operations executed");
            }
            int op = c.u8();
            try {
                if (op >= 0x30 && op <= 0x4f) { // DW_OP_lit0..31
                    sp = push(stack, sp, op - 0x30, at);
                    continue;
                }
                if (op >= 0x70 && op <= 0x8f) { // DW_OP_breg0..31
                    long off = Leb128.signed(c);
                    sp = push(stack, sp, register(ctx, op - 0x70, at) + off, at);
                    continue;
                }
                if (op >= 0x50 && op <= 0x6f) {
                    throw new ExpressionException(at, "DW_OP_reg" + (op - 0x50) + " names a location, not a value");
                }
                switch (op) {
                    case 0x03 -> sp = push(stack, sp, addressSize == 8 ? c.u64() : c.u32(), at); // addr
                    case 0x06 -> { // deref
                        need(sp, 1, at);
                        stack[sp - 1] = read(ctx, stack[sp - 1], addressSize, at);
                    }
                    case 0x94 -> { // deref_size
                        int size = c.u8();
                        if (size < 1 || size > addressSize) {
                            throw new ExpressionException(at, "DW_OP_deref_size of " + size + " bytes");
                        }
                        need(sp, 1, at);
                        stack[sp - 1] = read(ctx, stack[sp - 1], size, at);
                    }
                    case 0x08 -> sp = push(stack, sp, c.u8(), at);
                    case 0x09 -> sp = push(stack, sp, (byte) c.u8(), at);
                    case 0x0a -> sp = push(stack, sp, c.u16(), at);
                    case 0x0b -> sp = push(stack, sp, (short) c.u16(), at);
                    case 0x0c -> sp = push(stack, sp, c.u32(), at);
                    case 0x0d -> sp = push(stack, sp, (int) c.u32(), at);
                    case 0x0e, 0x0f -> sp = push(stack, sp, c.u64(), at);
                    case 0x10 -> sp = push(stack, sp, Leb128.unsigned(c), at);
                    case 0x11 -> sp = push(stack, sp, Leb128.signed(c), at);
                    case 0x12 -> { // dup
                        need(sp, 1, at);
                        sp = push(stack, sp, stack[sp - 1], at);
                    }
                    case 0x13 -> { // drop
                        need(sp, 1, at);
                        sp--;
                    }
                    case 0x14 -> { // over
                        need(sp, 2, at);
                        sp = push(stack, sp, stack[sp - 2], at);
                    }
                    case 0x15 -> { // pick
                        int i = c.u8();
                        need(sp, i + 1, at);
                        sp = push(stack, sp, stack[sp - 1 - i], at);
                    }
                    case 0x16 -> { // swap
                        need(sp, 2, at);
                        long t = stack[sp - 1];
                        stack[sp - 1] = stack[sp - 2];
                        stack[sp - 2] = t;
                    }
                    case 0x17 -> { // rot: the top goes third, the second and third move up
                        need(sp, 3, at);
                        long t = stack[sp - 1];
                        stack[sp - 1] = stack[sp - 2];
                        stack[sp - 2] = stack[sp - 3];
                        stack[sp - 3] = t;
                    }
                    case 0x19 -> { // abs
                        need(sp, 1, at);
                        stack[sp - 1] = Math.abs(stack[sp - 1]);
                    }
                    case 0x1f -> { // neg
                        need(sp, 1, at);
                        stack[sp - 1] = -stack[sp - 1];
                    }
                    case 0x20 -> { // not
                        need(sp, 1, at);
                        stack[sp - 1] = ~stack[sp - 1];
                    }
                    case 0x23 -> { // plus_uconst
                        long v = Leb128.unsigned(c);
                        need(sp, 1, at);
                        stack[sp - 1] += v;
                    }
                    case 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x21, 0x22, 0x24, 0x25, 0x26, 0x27,
                         0x29, 0x2a, 0x2b, 0x2c, 0x2d, 0x2e -> {
                        need(sp, 2, at);
                        long top = stack[sp - 1];
                        long second = stack[sp - 2];
                        sp--;
                        stack[sp - 1] = binary(op, second, top, at);
                    }
                    case 0x2f -> c.position(target(c, code.length, at)); // skip
                    case 0x28 -> { // bra
                        long to = target(c, code.length, at);
                        need(sp, 1, at);
                        if (stack[--sp] != 0) {
                            c.position(to);
                        }
                    }
                    case 0x92 -> { // bregx
                        long reg = Leb128.unsigned(c);
                        long off = Leb128.signed(c);
                        if (reg < 0 || reg > 0xffff) {
                            throw new ExpressionException(at, "register " + Long.toUnsignedString(reg) + " out of range");
                        }
                        sp = push(stack, sp, register(ctx, (int) reg, at) + off, at);
                    }
                    case 0x96 -> {
                        // nop
                    }
                    default -> throw new ExpressionException(at, "operation 0x" + Integer.toHexString(op)
                            + " is not allowed in a call frame rule or not supported");
                }
            } catch (FormatException e) {
                throw new ExpressionException(at, "bad operand of 0x" + Integer.toHexString(op) + ": " + e.getMessage());
            }
        }
        if (sp == 0) {
            throw new ExpressionException(code.length, "the stack is empty at the end");
        }
        return stack[sp - 1];
    }

    private static long binary(int op, long a, long b, int at) {
        return switch (op) {
            case 0x1a -> a & b;
            case 0x1b -> {
                if (b == 0) {
                    throw new ExpressionException(at, "DW_OP_div by zero");
                }
                yield a / b; // signed: the generic type is signed here
            }
            case 0x1c -> a - b;
            case 0x1d -> {
                if (b == 0) {
                    throw new ExpressionException(at, "DW_OP_mod by zero");
                }
                yield Long.remainderUnsigned(a, b);
            }
            case 0x1e -> a * b;
            case 0x21 -> a | b;
            case 0x22 -> a + b;
            case 0x24 -> Long.compareUnsigned(b, 64) >= 0 ? 0 : a << b;
            case 0x25 -> Long.compareUnsigned(b, 64) >= 0 ? 0 : a >>> b;
            case 0x26 -> Long.compareUnsigned(b, 64) >= 0 ? (a < 0 ? -1 : 0) : a >> b;
            case 0x27 -> a ^ b;
            // comparisons are signed and leave 1 or 0
            case 0x29 -> a == b ? 1 : 0;
            case 0x2a -> a >= b ? 1 : 0;
            case 0x2b -> a > b ? 1 : 0;
            case 0x2c -> a <= b ? 1 : 0;
            case 0x2d -> a < b ? 1 : 0;
            case 0x2e -> a != b ? 1 : 0;
            default -> throw new IllegalStateException("not a binary operation: " + op);
        };
    }

    /** A branch's target: a 2-byte signed offset from the end of the operand, inside [0, length]. */
    private static long target(Cursor c, int length, int at) {
        short off = (short) c.u16();
        long to = c.position() + off;
        if (to < 0 || to > length) {
            throw new ExpressionException(at, "branch to byte " + to + " outside the " + length + "-byte expression");
        }
        return to;
    }

    private static long read(Context ctx, long address, int size, int at) {
        try {
            return ctx.read(address, size);
        } catch (ExpressionException e) {
            throw new ExpressionException(at, "cannot read " + size + " bytes at 0x" + Long.toHexString(address));
        }
    }

    private static long register(Context ctx, int reg, int at) {
        try {
            return ctx.register(reg);
        } catch (ExpressionException e) {
            throw new ExpressionException(at, "register " + reg + " is not known");
        }
    }

    private static int push(long[] stack, int sp, long v, int at) {
        if (sp == stack.length) {
            throw new ExpressionException(at, "stack deeper than " + MAX_STACK);
        }
        stack[sp] = v;
        return sp + 1;
    }

    private static void need(int sp, int n, int at) {
        if (sp < n) {
            throw new ExpressionException(at, "needs " + n + " values on the stack, has " + sp);
        }
    }
}
