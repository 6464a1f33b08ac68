package io.perfj.dwarf;

import io.perfj.io.Cursor;

/**
 * A DWARF unit's or entry's initial length (DWARF 5 section 7.4): four bytes, or
 * {@code 0xffffffff} then eight for the 64-bit format. {@code 0xfffffff0}–{@code 0xfffffffe} are
 * reserved ({@link #reserved}); each reader decides what a reserved or zero length means to it.
 *
 * @param length  the length that follows the field
 * @param dwarf64 whether the unit is in the 64-bit format (its offsets are eight bytes)
 */
public record InitialLength(long length, boolean dwarf64) {
    /** Reads the field at the cursor, which is left after it. */
    public static InitialLength read(Cursor c) {
        long len = c.u32();
        return len == 0xffff_ffffL ? new InitialLength(c.u64(), true) : new InitialLength(len, false);
    }

    /** A 32-bit length in the reserved range. */
    public boolean reserved() {
        return !dwarf64 && length >= 0xffff_fff0L;
    }
}
