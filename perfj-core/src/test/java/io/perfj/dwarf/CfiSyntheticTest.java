package io.perfj.dwarf;

import io.perfj.io.Bytes;
import io.perfj.io.FormatException;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.ByteOrder;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Hand-built entries for what compilers rarely emit: the 64-bit length escape, other pointer
 * encodings, personality/LSDA augmentations, and every DW_CFA instruction.
 */
class CfiSyntheticTest {
    private static final long SECTION_ADDR = 0x10000;

    /** A little-endian byte builder. */
    static final class Buf {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();

        Buf u8(int... v) {
            for (int b : v) {
                out.write(b);
            }
            return this;
        }

        Buf u16(int v) {
            return u8(v & 0xff, (v >>> 8) & 0xff);
        }

        Buf u32(long v) {
            return u16((int) v & 0xffff).u16((int) (v >>> 16) & 0xffff);
        }

        Buf u64(long v) {
            return u32(v & 0xffff_ffffL).u32(v >>> 32);
        }

        Buf uleb(long v) {
            do {
                int b = (int) (v & 0x7f);
                v >>>= 7;
                out.write(v != 0 ? b | 0x80 : b);
            } while (v != 0);
            return this;
        }

        Buf sleb(long v) {
            while (true) {
                int b = (int) (v & 0x7f);
                v >>= 7;
                boolean done = (v == 0 && (b & 0x40) == 0) || (v == -1 && (b & 0x40) != 0);
                out.write(done ? b : b | 0x80);
                if (done) {
                    return this;
                }
            }
        }

        Buf cstr(String s) {
            for (char c : s.toCharArray()) {
                out.write(c);
            }
            out.write(0);
            return this;
        }

        Buf bytes(byte[] b) {
            out.writeBytes(b);
            return this;
        }

        int size() {
            return out.size();
        }

        byte[] get() {
            return out.toByteArray();
        }
    }

    private static FrameSection eh(byte[] data) {
        return new FrameSection(Bytes.of(data, ByteOrder.LITTLE_ENDIAN, "synthetic", ".eh_frame"), true,
                new PointerEncoding.Bases(SECTION_ADDR, 0x1000, 0x20000, 8, null));
    }

    private static UnwindRow row(FrameSection s, Fde f, long pc) {
        return new CfaInterpreter(f, s.basesFor(f.instructions())).rowFor(pc);
    }

    @Test
    void dwarf64LengthsPersonalityLsdaAndUdata8() {
        Buf cieBody = new Buf().u64(0).u8(3).cstr("zPLR").uleb(1).sleb(-8).uleb(16);
        Buf aug = new Buf().u8(0x9b).u32(0x1234).u8(0x1b).u8(0x04); // P: indirect|pcrel|sdata4, L, R udata8
        cieBody.uleb(aug.size()).bytes(aug.get()).u8(0x0c, 7, 8).u8(0x90, 1); // def_cfa rsp+8; ra at cfa-8
        Buf b = new Buf().u32(0xffffffffL).u64(cieBody.size()).bytes(cieBody.get());
        int fdeAt = b.size();
        long idField = fdeAt + 12;
        Buf fdeBody = new Buf().u64(idField).u64(0x401000).u64(0x40).uleb(4).u32(0x100)
                .u8(0x41, 0x0e, 16, 0x86, 2); // advance 1; def_cfa_offset 16; rbp at cfa-16
        b.u32(0xffffffffL).u64(fdeBody.size()).bytes(fdeBody.get()).u32(0);
        FrameSection s = eh(b.get());
        List<Fde> fdes = FdeIndex.allFdes(s);
        assertEquals(1, fdes.size());
        Fde f = fdes.get(0);
        assertEquals(0x401000, f.pcBegin());
        assertEquals(0x401040, f.pcEnd());
        assertEquals("zPLR", f.cie().augmentation());
        assertEquals(-8, f.cie().dataAlignment());
        long lsdaField = fdeAt + 12 + 8 + 8 + 8 + 1; // length escape, CIE pointer, begin, range, aug length
        assertEquals(SECTION_ADDR + lsdaField + 0x100, f.lsda()); // pcrel sdata4: relative to its own address
        UnwindRow r0 = row(s, f, 0x401000);
        assertEquals(new CfaRule.RegisterOffset(7, 8), r0.cfa());
        assertEquals(new RegisterRule.Offset(-8), r0.rule(16));
        assertEquals(RegisterRule.UNDEFINED, r0.rule(6));
        UnwindRow r1 = row(s, f, 0x401020);
        assertEquals(new CfaRule.RegisterOffset(7, 16), r1.cfa());
        assertEquals(new RegisterRule.Offset(-16), r1.rule(6));
        assertEquals(0x401001, r1.start());
        assertEquals(0x401040, r1.end());
        assertEquals(1, FdeIndex.scan(s).size());
        assertEquals(f.offset(), FdeIndex.scan(s).find(0x40103f).orElseThrow().offset());
    }

    private static Fde oneFde(int enc, Buf pcFields, Buf instructions) {
        Buf cieBody = new Buf().u32(0).u8(1).cstr("zR").uleb(1).sleb(-8).u8(16).uleb(1).u8(enc);
        Buf b = new Buf().u32(cieBody.size()).bytes(cieBody.get());
        int fdeAt = b.size();
        Buf fdeBody = new Buf().u32(fdeAt + 4).bytes(pcFields.get()).uleb(0).bytes(instructions.get());
        b.u32(fdeBody.size()).bytes(fdeBody.get()).u32(0);
        return FdeIndex.allFdes(eh(b.get())).get(0);
    }

    @Test
    void pointerEncodings() {
        assertEquals(0x1234, oneFde(0x02, new Buf().u16(0x1234).u16(0x10), new Buf()).pcBegin());
        assertEquals(0x1234 + 0x10, oneFde(0x02, new Buf().u16(0x1234).u16(0x10), new Buf()).pcEnd());
        assertEquals(0x12345678L, oneFde(0x03, new Buf().u32(0x12345678L).u32(8), new Buf()).pcBegin());
        assertEquals(0x123456789aL, oneFde(0x04, new Buf().u64(0x123456789aL).u64(8), new Buf()).pcBegin());
        assertEquals(0x4000, oneFde(0x01, new Buf().uleb(0x4000).uleb(8), new Buf()).pcBegin());
        // the FDE's address field is at 0x19 (17-byte CIE, 4-byte length, 4-byte CIE pointer)
        assertEquals(SECTION_ADDR + 0x19 - 0x100, oneFde(0x19, new Buf().sleb(-0x100).uleb(8), new Buf()).pcBegin());
        assertEquals(0x20000 - 4, oneFde(0x3a, new Buf().u16(0xfffc).u16(8), new Buf()).pcBegin()); // datarel sdata2
        assertEquals(0x1000 + 0x40, oneFde(0x2b, new Buf().u32(0x40).u32(8), new Buf()).pcBegin()); // textrel sdata4
        assertEquals(-2L, oneFde(0x0c, new Buf().u64(-2L).u64(1), new Buf()).pcBegin());
    }

    @Test
    void everyInstruction() {
        byte[] expr = {0x77, 0x08}; // DW_OP_breg7 8
        Buf ins = new Buf()
                .u8(0x0c).uleb(7).uleb(8)               // def_cfa rsp+8
                .u8(0x05).uleb(3).uleb(2)               // offset_extended rbx cfa-16
                .u8(0x11).uleb(12).sleb(3)              // offset_extended_sf r12 cfa-24
                .u8(0x0a)                               // remember_state
                .u8(0x02, 4)                            // advance_loc1 4 -> +4
                .u8(0x12).uleb(6).sleb(-2)              // def_cfa_sf rbp+16
                .u8(0x07).uleb(13)                      // undefined r13
                .u8(0x08).uleb(14)                      // same_value r14
                .u8(0x09).uleb(15).uleb(1)              // r15 in rdx
                .u8(0x14).uleb(4).uleb(1)               // val_offset rsi cfa-8
                .u8(0x15).uleb(5).sleb(-1)              // val_offset_sf rdi cfa+8
                .u8(0x10).uleb(8).uleb(2).bytes(expr)   // expression r8
                .u8(0x16).uleb(9).uleb(2).bytes(expr)   // val_expression r9
                .u8(0x2f).uleb(10).uleb(1)              // GNU_negative_offset_extended r10 cfa+8
                .u8(0x2e).uleb(32)                      // GNU_args_size
                .u8(0x00)                               // nop
                .u8(0x03).u16(4)                        // advance_loc2 -> +8
                .u8(0x0d).uleb(3)                       // def_cfa_register rbx (offset 16 kept)
                .u8(0x0e).uleb(32)                      // def_cfa_offset 32
                .u8(0xc3)                               // restore rbx (CIE had none: back to no rule)
                .u8(0x06).uleb(12)                      // restore_extended r12
                .u8(0x04).u32(4)                        // advance_loc4 -> +12
                .u8(0x13).sleb(-6)                      // def_cfa_offset_sf 48
                .u8(0x44)                               // advance_loc 4 -> +16
                .u8(0x0b)                               // restore_state
                .u8(0x44)                               // -> +20
                .u8(0x0f).uleb(2).bytes(expr);          // def_cfa_expression
        Fde f = oneFde(0x04, new Buf().u64(0x5000).u64(0x40), ins);
        CfaInterpreter it = new CfaInterpreter(f, null);
        UnwindRow r = it.rowFor(0x5000);
        assertEquals(new CfaRule.RegisterOffset(7, 8), r.cfa());
        assertEquals(new RegisterRule.Offset(-16), r.rule(3));
        assertEquals(new RegisterRule.Offset(-24), r.rule(12));
        r = it.rowFor(0x5004);
        assertEquals(new CfaRule.RegisterOffset(6, 16), r.cfa());
        assertEquals(RegisterRule.UNDEFINED, r.rule(13));
        assertEquals(RegisterRule.SAME_VALUE, r.rule(14));
        assertEquals(new RegisterRule.Register(1), r.rule(15));
        assertEquals(new RegisterRule.ValOffset(-8), r.rule(4));
        assertEquals(new RegisterRule.ValOffset(8), r.rule(5));
        assertArrayEquals(expr, ((RegisterRule.Expression) r.rule(8)).expression());
        assertArrayEquals(expr, ((RegisterRule.ValExpression) r.rule(9)).expression());
        assertEquals(new RegisterRule.Offset(8), r.rule(10));
        r = it.rowFor(0x500b);
        assertEquals(new CfaRule.RegisterOffset(3, 32), r.cfa());
        assertEquals(false, r.hasRule(3));
        assertEquals(false, r.hasRule(12));
        r = it.rowFor(0x500c);
        assertEquals(new CfaRule.RegisterOffset(3, 48), r.cfa());
        r = it.rowFor(0x5010);
        assertEquals(new CfaRule.RegisterOffset(7, 8), r.cfa());
        assertEquals(new RegisterRule.Offset(-16), r.rule(3));
        assertEquals(false, r.hasRule(13));
        r = it.rowFor(0x503f);
        assertArrayEquals(expr, ((CfaRule.Expression) r.cfa()).expression());
        assertEquals(0x5014, r.start());
        assertEquals(6, it.rows().size());
    }

    @Test
    void restoreStateWithoutRememberIsAFormatError() {
        Fde f = oneFde(0x04, new Buf().u64(0x5000).u64(0x40), new Buf().u8(0x0b));
        assertThrows(FormatException.class, () -> new CfaInterpreter(f, null).rowFor(0x5000));
        Fde g = oneFde(0x04, new Buf().u64(0x5000).u64(0x40), new Buf().u8(0x3f));
        assertThrows(FormatException.class, () -> new CfaInterpreter(g, null).rowFor(0x5000));
    }

    /**
     * aarch64's DW_CFA_AARCH64_negate_ra_state (0x2d) flips RA_SIGN_STATE, which
     * remember_state/restore_state keep with the other rules (GCC's pattern for a function with
     * a pointer-authenticated return address and a second epilogue).
     */
    @Test
    void negateRaStateFlipsTheSignedStateAndIsRemembered() {
        Buf ins = new Buf().u8(0x2d).u8(0x44).u8(0x0a).u8(0x2d).u8(0x44).u8(0x0b).u8(0x44);
        Fde f = oneFde(0x04, new Buf().u64(0x5000).u64(0x40), ins);
        CfaInterpreter it = new CfaInterpreter(f, null);
        assertEquals(true, it.rowFor(0x5000).raSigned());
        assertEquals(false, it.rowFor(0x5004).raSigned());
        assertEquals(true, it.rowFor(0x5008).raSigned());
        assertEquals(true, it.rowFor(0x500c).raSigned());
        Fde unsigned = oneFde(0x04, new Buf().u64(0x5000).u64(0x40), new Buf());
        assertEquals(false, new CfaInterpreter(unsigned, null).rowFor(0x5000).raSigned());
    }
}
