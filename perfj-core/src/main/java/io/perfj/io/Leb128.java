package io.perfj.io;

/**
 * LEB128 variable-length integers (DWARF 5 section 7.6), the one decoder for every format that
 * uses them (DWARF units, abbreviations, line tables, call frame information).
 *
 * <p>Two byte sources share it: a {@link Cursor}, bounds-checked by its view, where an unsigned
 * value wider than 64 bits is a {@link FormatException}; and a heap array with its position in
 * {@code at[0]}, for the DIE walk's hot loop, where bytes past the end of the array throw
 * {@link ArrayIndexOutOfBoundsException} (the caller names the structure) and bits beyond 64 are
 * dropped as elfutils drops them.
 */
public final class Leb128 {
    private Leb128() {
    }

    /** An unsigned LEB128; bits beyond 64 must be zero. */
    public static long unsigned(Cursor c) {
        long start = c.position();
        int b = c.u8();
        if (b < 0x80) {
            return b;
        }
        long result = b & 0x7f;
        int shift = 7;
        do {
            b = c.u8();
            if (!fits(b, shift)) {
                throw c.bytes().error(start, "ULEB128 value does not fit in 64 bits");
            }
            result |= shift < 64 ? (long) (b & 0x7f) << shift : 0;
            shift += 7;
        } while ((b & 0x80) != 0);
        return result;
    }

    /** A signed LEB128, sign-extended to 64 bits. */
    public static long signed(Cursor c) {
        long result = 0;
        int shift = 0;
        int b;
        do {
            b = c.u8();
            result |= shift < 64 ? (long) (b & 0x7f) << shift : 0;
            shift += 7;
        } while ((b & 0x80) != 0);
        return signExtend(result, shift, b);
    }

    /** An unsigned LEB128 that must fit in a non-negative int (register numbers, lengths). */
    public static int unsignedInt(Cursor c, String what) {
        long start = c.position();
        long v = unsigned(c);
        if (v < 0 || v > Integer.MAX_VALUE) {
            throw c.bytes().error(start, what + " " + Long.toUnsignedString(v) + " is out of range");
        }
        return (int) v;
    }

    /** The unsigned LEB128 at {@code b[at[0]]}; {@code at[0]} moves past it. */
    public static long unsigned(byte[] b, int[] at) {
        int p = at[0];
        int v = b[p++];
        if (v >= 0) {
            at[0] = p;
            return v;
        }
        long result = v & 0x7f;
        int shift = 7;
        do {
            v = b[p++];
            result |= shift < 64 ? (long) (v & 0x7f) << shift : 0;
            shift += 7;
        } while (v < 0);
        at[0] = p;
        return result;
    }

    /** The signed LEB128 at {@code b[at[0]]}, sign-extended; {@code at[0]} moves past it. */
    public static long signed(byte[] b, int[] at) {
        int p = at[0];
        long result = 0;
        int shift = 0;
        int v;
        do {
            v = b[p++];
            result |= shift < 64 ? (long) (v & 0x7f) << shift : 0;
            shift += 7;
        } while (v < 0);
        at[0] = p;
        return signExtend(result, shift, v);
    }

    /** Whether the 7 value bits of byte {@code b} at bit {@code shift} fit in 64 bits. */
    private static boolean fits(int b, int shift) {
        int part = b & 0x7f;
        return shift < 57 || (shift < 64 ? part >>> (64 - shift) == 0 : part == 0);
    }

    private static long signExtend(long result, int shift, int last) {
        return shift < 64 && (last & 0x40) != 0 ? result | -1L << shift : result;
    }
}
