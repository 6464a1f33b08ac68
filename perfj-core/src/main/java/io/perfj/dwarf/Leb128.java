package io.perfj.dwarf;

import io.perfj.io.Cursor;

/** LEB128 variable-length integers (DWARF 5 section 7.6), read through a bounds-checked cursor. */
final class Leb128 {
    private Leb128() {
    }

    /** An unsigned LEB128; bits beyond 64 must be zero. */
    static long unsigned(Cursor c) {
        long start = c.position();
        long result = 0;
        int shift = 0;
        while (true) {
            int b = c.u8();
            if (shift < 64) {
                long part = (long) (b & 0x7f);
                if (shift > 57 && (part >>> (64 - shift)) != 0) {
                    throw c.bytes().error(start, "ULEB128 value does not fit in 64 bits");
                }
                result |= part << shift;
            } else if ((b & 0x7f) != 0) {
                throw c.bytes().error(start, "ULEB128 value does not fit in 64 bits");
            }
            shift += 7;
            if ((b & 0x80) == 0) {
                return result;
            }
        }
    }

    /** A signed LEB128, sign-extended to 64 bits. */
    static long signed(Cursor c) {
        long result = 0;
        int shift = 0;
        int b;
        do {
            b = c.u8();
            if (shift < 64) {
                result |= (long) (b & 0x7f) << shift;
            }
            shift += 7;
        } while ((b & 0x80) != 0);
        if (shift < 64 && (b & 0x40) != 0) {
            result |= -1L << shift;
        }
        return result;
    }

    /** An unsigned LEB128 that must fit in a non-negative int (register numbers, lengths). */
    static int unsignedInt(Cursor c, String what) {
        long start = c.position();
        long v = unsigned(c);
        if (v < 0 || v > Integer.MAX_VALUE) {
            throw c.bytes().error(start, what + " " + Long.toUnsignedString(v) + " is out of range");
        }
        return (int) v;
    }
}
