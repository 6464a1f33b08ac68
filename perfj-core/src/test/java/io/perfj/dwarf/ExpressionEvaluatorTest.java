package io.perfj.dwarf;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link ExpressionEvaluator}: each operation, the call frame rules of libc, and each typed error. */
class ExpressionEvaluatorTest {
    /** Registers r0..r16 hold 1000 + r; memory holds the address's low byte repeated, except where set. */
    static final class Ctx implements ExpressionEvaluator.Context {
        final Map<Integer, Long> regs = new HashMap<>();
        final Map<Long, Long> mem = new HashMap<>();
        long reads;

        Ctx() {
            for (int r = 0; r <= 16; r++) {
                regs.put(r, 1000L + r);
            }
        }

        @Override
        public long register(int reg) {
            Long v = regs.get(reg);
            if (v == null) {
                throw new ExpressionException(-1, "unknown");
            }
            return v;
        }

        @Override
        public long read(long address, int size) {
            reads++;
            Long v = mem.get(address);
            if (v == null) {
                throw new ExpressionException(-1, "unreadable");
            }
            return size == 8 ? v : v & ((1L << (8 * size)) - 1);
        }
    }

    private static final ExpressionEvaluator EVAL = ExpressionEvaluator.x86_64();

    private static DwarfExpression expr(int... bytes) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (int x : bytes) {
            b.write(x);
        }
        return new DwarfExpression(b.toByteArray());
    }

    private static long eval(int... bytes) {
        return EVAL.evaluate(expr(bytes), new Ctx());
    }

    private static ExpressionException fails(int... bytes) {
        return assertThrows(ExpressionException.class, () -> eval(bytes));
    }

    /**
     * libc's PLT rule (glibc, binutils' default x86-64 PLT of 16-byte entries): the CFA is
     * rsp + 8, plus 8 more from the entry's 11th byte on, after its {@code push}.
     */
    @Test
    void pltCfaExpression() {
        DwarfExpression plt = expr(0x77, 0x08, 0x80, 0x00, 0x3f, 0x1a, 0x3b, 0x2a, 0x33, 0x24, 0x22);
        for (long rip = 0x26000; rip < 0x26040; rip++) {
            Ctx c = new Ctx();
            c.regs.put(7, 0x7ffc0000L);
            c.regs.put(16, rip);
            long want = 0x7ffc0000L + 8 + ((rip & 15) >= 11 ? 8 : 0);
            assertEquals(want, EVAL.evaluate(plt, c), "rip 0x" + Long.toHexString(rip));
        }
    }

    /** glibc's __restore_rt: the CFA is loaded from the ucontext, registers are saved in it. */
    @Test
    void signalFrameRules() {
        Ctx c = new Ctx();
        c.regs.put(7, 0x1000L);
        c.mem.put(0x1000L + 160, 0x5555L);
        assertEquals(0x5555L, EVAL.evaluate(expr(0x77, 0xa0, 0x01, 0x06), c)); // breg7 160; deref
        assertEquals(0x1000L + 40, EVAL.evaluate(expr(0x77, 40), c, 0x9999)); // r8 saved at rsp+40
        // a register rule starts with the CFA on the stack
        assertEquals(0x9999L + 16, EVAL.evaluate(expr(0x23, 16), c, 0x9999)); // plus_uconst 16
    }

    @Test
    void literalsAndConstants() {
        assertEquals(0, eval(0x30));
        assertEquals(31, eval(0x4f));
        assertEquals(0xff, eval(0x08, 0xff));
        assertEquals(-1, eval(0x09, 0xff));
        assertEquals(0xfffe, eval(0x0a, 0xfe, 0xff));
        assertEquals(-2, eval(0x0b, 0xfe, 0xff));
        assertEquals(0xfffffffeL, eval(0x0c, 0xfe, 0xff, 0xff, 0xff));
        assertEquals(-2, eval(0x0d, 0xfe, 0xff, 0xff, 0xff));
        assertEquals(0x0807060504030201L, eval(0x0e, 1, 2, 3, 4, 5, 6, 7, 8));
        assertEquals(-2, eval(0x0f, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff));
        assertEquals(624485, eval(0x10, 0xe5, 0x8e, 0x26));
        assertEquals(-123456, eval(0x11, 0xc0, 0xbb, 0x78));
        assertEquals(0x1122334455667788L, eval(0x03, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11));
    }

    @Test
    void stackOperations() {
        assertEquals(7, eval(0x35, 0x12, 0x22, 0x33, 0x1c)); // 5 dup plus 3 minus
        assertEquals(1, eval(0x31, 0x32, 0x13)); // drop
        assertEquals(1, eval(0x31, 0x32, 0x14)); // over
        assertEquals(1, eval(0x31, 0x32, 0x33, 0x15, 0x02)); // pick 2
        assertEquals(1, eval(0x31, 0x32, 0x16)); // swap
        // rot: 1 2 3 -> 3 1 2 (top 2)
        assertEquals(2, eval(0x31, 0x32, 0x33, 0x17));
        assertEquals(1, eval(0x31, 0x32, 0x33, 0x17, 0x13));
        assertEquals(3, eval(0x31, 0x32, 0x33, 0x17, 0x13, 0x13));
        assertEquals(4, eval(0x34, 0x96)); // nop
    }

    @Test
    void arithmetic() {
        assertEquals(7, eval(0x09, 0xf9, 0x19)); // abs -7
        assertEquals(2, eval(0x36, 0x33, 0x1a)); // 6 and 3
        assertEquals(-3, eval(0x09, 0xfa, 0x32, 0x1b)); // -6 div 2, signed
        assertEquals(Long.remainderUnsigned(-6, 4), eval(0x09, 0xfa, 0x34, 0x1d)); // mod is unsigned
        assertEquals(3, eval(0x36, 0x33, 0x1c)); // 6 minus 3
        assertEquals(18, eval(0x36, 0x33, 0x1e)); // mul
        assertEquals(-6, eval(0x36, 0x1f)); // neg
        assertEquals(~6L, eval(0x36, 0x20)); // not
        assertEquals(7, eval(0x36, 0x33, 0x21)); // or
        assertEquals(9, eval(0x36, 0x33, 0x22)); // plus
        assertEquals(106, eval(0x36, 0x23, 100)); // plus_uconst
        assertEquals(48, eval(0x36, 0x33, 0x24)); // shl
        assertEquals(0, eval(0x36, 0x08, 64, 0x24)); // shl by 64: all bits gone
        assertEquals(0, eval(0x36, 0x08, 200, 0x25)); // shr by more than 64
        assertEquals(-1, eval(0x09, 0xf0, 0x08, 70, 0x26)); // shra past 64 keeps the sign
        assertEquals(-4, eval(0x09, 0xf0, 0x32, 0x26)); // -16 shra 2
        assertEquals(-1L >>> 1, eval(0x09, 0xff, 0x31, 0x25)); // shr is logical
        assertEquals(5, eval(0x36, 0x33, 0x27)); // xor
    }

    @Test
    void comparisonsAreSigned() {
        assertEquals(1, eval(0x33, 0x33, 0x29));
        assertEquals(0, eval(0x33, 0x34, 0x29));
        assertEquals(1, eval(0x34, 0x33, 0x2a));
        assertEquals(1, eval(0x33, 0x33, 0x2a));
        assertEquals(0, eval(0x09, 0xff, 0x30, 0x2b)); // -1 > 0 is false when signed
        assertEquals(1, eval(0x33, 0x34, 0x2c));
        assertEquals(1, eval(0x09, 0xff, 0x30, 0x2d));
        assertEquals(1, eval(0x33, 0x34, 0x2e));
    }

    @Test
    void branches() {
        // skip over a lit5: lit1 skip +1 lit5 -> 1
        assertEquals(1, eval(0x31, 0x2f, 0x01, 0x00, 0x35));
        // bra taken: lit1 lit1 bra +1 lit5 -> 1
        assertEquals(1, eval(0x31, 0x31, 0x28, 0x01, 0x00, 0x35));
        // bra not taken: lit1 lit0 bra +1 lit5 -> 5
        assertEquals(5, eval(0x31, 0x30, 0x28, 0x01, 0x00, 0x35));
        // a counted loop: 5 times add 2 to 0 (the counter under the sum)
        // lit5 lit0 | swap lit1 minus swap plus_uconst 2 | over bra back to |
        DwarfExpression loop = expr(0x35, 0x30, 0x16, 0x31, 0x1c, 0x16, 0x23, 0x02, 0x14, 0x28, 0xf6, 0xff);
        assertEquals(10, EVAL.evaluate(loop, new Ctx()));
        // a branch to the very end is allowed
        assertEquals(1, eval(0x31, 0x2f, 0x00, 0x00));
    }

    @Test
    void registersAndMemory() {
        Ctx c = new Ctx();
        c.mem.put(1010L, 0x8877665544332211L);
        assertEquals(1010, EVAL.evaluate(expr(0x75, 0x05), c)); // breg5 +5
        assertEquals(1000 + 16 - 2, EVAL.evaluate(expr(0x92, 16, 0x7e), c)); // bregx 16, -2
        assertEquals(0x8877665544332211L, EVAL.evaluate(expr(0x7a, 0x00, 0x06), c)); // breg10 deref
        assertEquals(0x2211, EVAL.evaluate(expr(0x7a, 0x00, 0x94, 0x02), c)); // deref_size 2
        assertEquals(0x11, EVAL.evaluate(expr(0x7a, 0x00, 0x94, 0x01), c));
    }

    @Test
    void typedErrors() {
        assertTrue(fails().getMessage().contains("empty"));
        assertTrue(fails(0x31, 0x13).getMessage().contains("empty"));
        assertTrue(fails(0x22).getMessage().contains("needs 2"));
        assertTrue(fails(0x31, 0x15, 0x01).getMessage().contains("needs 2"));
        assertEquals(1, fails(0x31, 0x17).offset());
        int[] deep = new int[ExpressionEvaluator.MAX_STACK + 1];
        java.util.Arrays.fill(deep, 0x31);
        assertTrue(fails(deep).getMessage().contains("deeper"));
        assertTrue(fails(0x2f, 0xfd, 0xff).getMessage().contains("operations")); // skip to itself
        assertTrue(fails(0x2f, 0x05, 0x00).getMessage().contains("outside"));
        assertTrue(fails(0x2f, 0xf0, 0xff).getMessage().contains("outside"));
        assertTrue(fails(0x31, 0x30, 0x1b).getMessage().contains("zero"));
        assertTrue(fails(0x31, 0x30, 0x1d).getMessage().contains("zero"));
        assertTrue(fails(0x90 + 0x0, 0x20).getMessage().contains("not allowed")); // regx
        assertTrue(fails(0x50).getMessage().contains("location"));
        assertTrue(fails(0x91, 0x00).getMessage().contains("not allowed")); // fbreg
        assertTrue(fails(0x9c).getMessage().contains("not allowed")); // call_frame_cfa
        assertTrue(fails(0x31, 0x9f).getMessage().contains("not allowed")); // stack_value
        assertTrue(fails(0x31, 0x93, 0x08).getMessage().contains("not allowed")); // piece
        assertTrue(fails(0xff).getMessage().contains("not allowed"));
        assertTrue(fails(0x0e, 1, 2, 3).getMessage().contains("bad operand"));
        assertTrue(fails(0x10, 0x80).getMessage().contains("bad operand"));
        assertTrue(fails(0x31, 0x94, 0x09).getMessage().contains("deref_size"));
        assertTrue(fails(0x31, 0x94, 0x00).getMessage().contains("deref_size"));
        assertTrue(fails(0x92, 0x80, 0x80, 0x04, 0x00).getMessage().contains("out of range"));
        assertTrue(fails(0x92, 0x20, 0x00).getMessage().contains("register 32"));
        assertTrue(fails(0x31, 0x06).getMessage().contains("cannot read"));
    }
}
