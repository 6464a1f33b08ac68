package io.perfj.io;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Both byte sources of {@link Leb128} decode what a straightforward encoder writes, also with
 * redundant padding bytes, and agree with each other on where the value ends.
 */
class Leb128Test {
    private static void unsignedTo(ByteArrayOutputStream out, long v, int pad) {
        do {
            int b = (int) (v & 0x7f);
            v >>>= 7;
            out.write(v != 0 || pad > 0 ? b | 0x80 : b);
        } while (v != 0);
        for (; pad > 0; pad--) {
            out.write(pad > 1 ? 0x80 : 0);
        }
    }

    private static void signedTo(ByteArrayOutputStream out, long v, int pad) {
        boolean more = true;
        while (more) {
            int b = (int) (v & 0x7f);
            v >>= 7;
            more = !((v == 0 && (b & 0x40) == 0) || (v == -1 && (b & 0x40) != 0));
            out.write(more || pad > 0 ? b | 0x80 : b);
        }
        int fill = v < 0 ? 0x7f : 0;
        for (; pad > 0; pad--) {
            out.write(pad > 1 ? fill | 0x80 : fill);
        }
    }

    private static Cursor cursor(byte[] b) {
        return Bytes.of(b, ByteOrder.LITTLE_ENDIAN, "test", "leb").cursor(0);
    }

    @Property
    void unsignedRoundTrips(@ForAll long v, @ForAll @IntRange(max = 2) int pad, @ForAll @IntRange(max = 3) int lead) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(new byte[lead], 0, lead);
        unsignedTo(out, v, pad);
        out.write(0x55);
        byte[] b = out.toByteArray();
        int[] at = {lead};
        assertEquals(v, Leb128.unsigned(b, at));
        Cursor c = cursor(b).position(lead);
        assertEquals(v, Leb128.unsigned(c));
        assertEquals(b.length - 1, at[0]);
        assertEquals(at[0], c.position());
    }

    @Property
    void signedRoundTrips(@ForAll long v, @ForAll @IntRange(max = 2) int pad) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        signedTo(out, v, pad);
        out.write(0x55);
        byte[] b = out.toByteArray();
        int[] at = {0};
        assertEquals(v, Leb128.signed(b, at));
        Cursor c = cursor(b);
        assertEquals(v, Leb128.signed(c));
        assertEquals(b.length - 1, at[0]);
        assertEquals(at[0], c.position());
    }

    @Test
    void knownEncodings() {
        assertEquals(624485, Leb128.unsigned(cursor(new byte[] {(byte) 0xe5, (byte) 0x8e, 0x26})));
        assertEquals(-123456, Leb128.signed(cursor(new byte[] {(byte) 0xc0, (byte) 0xbb, 0x78})));
        assertEquals(-1, Leb128.signed(new byte[] {0x7f}, new int[1]));
        assertEquals(63, Leb128.signed(new byte[] {0x3f}, new int[1]));
    }

    @Test
    void cursorRejectsValuesWiderThan64Bits() {
        byte[] b = {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff,
                (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x02};
        FormatException e = assertThrows(FormatException.class, () -> Leb128.unsigned(cursor(b)));
        assertTrue(e.getMessage().contains("does not fit in 64 bits"), e.getMessage());
        b[9] = 0x01;
        assertEquals(-1L, Leb128.unsigned(cursor(b)));
    }

    @Test
    void cursorRangeCheckedInt() {
        FormatException e = assertThrows(FormatException.class,
                () -> Leb128.unsignedInt(cursor(new byte[] {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x08}),
                        "register"));
        assertTrue(e.getMessage().contains("register 2147483648 is out of range"), e.getMessage());
    }

    @Test
    void truncatedValuesFail() {
        assertThrows(FormatException.class, () -> Leb128.unsigned(cursor(new byte[] {(byte) 0x80})));
        assertThrows(IndexOutOfBoundsException.class, () -> Leb128.unsigned(new byte[] {(byte) 0x80}, new int[1]));
        assertThrows(IndexOutOfBoundsException.class, () -> Leb128.signed(new byte[] {(byte) 0xff}, new int[1]));
    }
}
