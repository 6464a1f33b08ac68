package io.perfj.dwarf.info;

/**
 * One abbreviation declaration (DWARF 5 section 7.5.3): a DIE's tag, whether it has children and
 * its attribute specifications as parallel arrays (no object per attribute).
 */
final class Abbrev {
    final int code;
    final int tag;
    final boolean hasChildren;
    final int[] names;
    final int[] forms;
    /** The value of each {@code DW_FORM_implicit_const} attribute (0 for other forms). */
    final long[] implicitConst;
    /**
     * Bit n set when attribute n (below 128, where all the standard ones a reader asks for are)
     * is present: most lookups are for attributes a DIE does not have, answered without a scan.
     */
    final long present0;
    final long present1;

    /** The byte size of all attributes for one unit format, or -1 when some form varies; see {@link #fixedSize}. */
    private volatile long fixed = Long.MIN_VALUE;

    /**
     * The total size of the attributes when every form has a fixed size for units with these
     * address and offset sizes and version, else -1. Cached for the last format asked.
     */
    int fixedSize(int addressSize, int offsetSize, int version) {
        int format = addressSize | offsetSize << 8 | (version <= 2 ? 1 << 16 : 0);
        long f = fixed;
        if (f != Long.MIN_VALUE && (int) (f >>> 32) == format) {
            return (int) f;
        }
        int total = 0;
        for (int form : forms) {
            int n = switch (form) {
                case Dw.FORM_addr -> addressSize;
                case Dw.FORM_data1, Dw.FORM_ref1, Dw.FORM_flag, Dw.FORM_strx1, Dw.FORM_addrx1 -> 1;
                case Dw.FORM_data2, Dw.FORM_ref2, Dw.FORM_strx2, Dw.FORM_addrx2 -> 2;
                case Dw.FORM_strx3, Dw.FORM_addrx3 -> 3;
                case Dw.FORM_data4, Dw.FORM_ref4, Dw.FORM_strx4, Dw.FORM_addrx4, Dw.FORM_ref_sup4 -> 4;
                case Dw.FORM_data8, Dw.FORM_ref8, Dw.FORM_ref_sig8, Dw.FORM_ref_sup8 -> 8;
                case Dw.FORM_data16 -> 16;
                case Dw.FORM_strp, Dw.FORM_line_strp, Dw.FORM_sec_offset, Dw.FORM_strp_sup, Dw.FORM_GNU_strp_alt,
                     Dw.FORM_GNU_ref_alt -> offsetSize;
                case Dw.FORM_ref_addr -> version <= 2 ? addressSize : offsetSize;
                case Dw.FORM_flag_present, Dw.FORM_implicit_const -> 0;
                default -> -1;
            };
            if (n < 0) {
                total = -1;
                break;
            }
            total += n;
        }
        fixed = (long) format << 32 | (total & 0xffff_ffffL);
        return total;
    }

    Abbrev(int code, int tag, boolean hasChildren, int[] names, int[] forms, long[] implicitConst) {
        this.code = code;
        this.tag = tag;
        this.hasChildren = hasChildren;
        this.names = names;
        this.forms = forms;
        this.implicitConst = implicitConst;
        long p0 = 0;
        long p1 = 0;
        for (int n : names) {
            if (n >= 0 && n < 64) {
                p0 |= 1L << n;
            } else if (n >= 64 && n < 128) {
                p1 |= 1L << (n - 64);
            }
        }
        this.present0 = p0;
        this.present1 = p1;
    }

    /** The index of attribute {@code at}, or -1. */
    int find(int at) {
        if (at >= 0 && at < 128 && ((at < 64 ? present0 : present1) >>> (at & 63) & 1) == 0) {
            return -1;
        }
        int[] n = names;
        for (int i = 0; i < n.length; i++) {
            if (n[i] == at) {
                return i;
            }
        }
        return -1;
    }
}
