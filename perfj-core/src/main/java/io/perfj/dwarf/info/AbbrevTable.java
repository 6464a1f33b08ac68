package io.perfj.dwarf.info;

import io.perfj.io.FormatException;
import io.perfj.io.Leb128;

import java.util.HashMap;
import java.util.Map;

/**
 * The abbreviation declarations of one unit, read from {@code .debug_abbrev} at the unit's
 * abbreviation offset (DWARF 5 section 7.5.3). Codes are looked up in a dense array when they
 * are small (compilers number them 1, 2, 3, ...), otherwise in a map.
 */
final class AbbrevTable {
    private static final int DENSE_LIMIT = 1 << 16;

    private final Abbrev[] dense;
    private final Map<Integer, Abbrev> sparse;

    private AbbrevTable(Abbrev[] dense, Map<Integer, Abbrev> sparse) {
        this.dense = dense;
        this.sparse = sparse;
    }

    Abbrev get(long code) {
        if (code > 0 && code < dense.length) {
            return dense[(int) code];
        }
        return sparse == null || code > Integer.MAX_VALUE ? null : sparse.get((int) code);
    }

    static AbbrevTable read(DwarfSection sec, long offset, String source) {
        byte[] s = sec.bytes();
        if (offset < 0 || offset > s.length) {
            throw new FormatException(source, "abbreviation table", offset,
                    "offset 0x" + Long.toHexString(offset) + " is outside the " + s.length + "-byte " + sec.name());
        }
        int[] pos = {(int) offset};
        try {
            Abbrev[] dense = new Abbrev[16];
            Map<Integer, Abbrev> sparse = null;
            int maxDense = 0;
            int[] names = new int[16];
            int[] forms = new int[16];
            long[] consts = new long[16];
            while (true) {
                int start = pos[0];
                long code = Leb128.unsigned(s, pos);
                if (code == 0) {
                    break;
                }
                long tag = Leb128.unsigned(s, pos);
                int children = s[pos[0]++] & 0xff;
                if (code > Integer.MAX_VALUE || tag > 0xffff || children > 1) {
                    throw new FormatException(source, "abbreviation declaration", start,
                            "code " + Long.toUnsignedString(code) + ", tag 0x" + Long.toHexString(tag)
                                    + ", children " + children + " are not valid");
                }
                int n = 0;
                while (true) {
                    long name = Leb128.unsigned(s, pos);
                    long form = Leb128.unsigned(s, pos);
                    long c = 0;
                    if (form == Dw.FORM_implicit_const) {
                        c = Leb128.signed(s, pos);
                    }
                    if (name == 0 && form == 0) {
                        break;
                    }
                    if (name > 0xffff || form > 0xffff) {
                        throw new FormatException(source, "abbreviation declaration", start,
                                "attribute 0x" + Long.toHexString(name) + " form 0x" + Long.toHexString(form)
                                        + " is not valid");
                    }
                    if (n == names.length) {
                        names = java.util.Arrays.copyOf(names, n * 2);
                        forms = java.util.Arrays.copyOf(forms, n * 2);
                        consts = java.util.Arrays.copyOf(consts, n * 2);
                    }
                    names[n] = (int) name;
                    forms[n] = (int) form;
                    consts[n] = c;
                    n++;
                }
                Abbrev a = new Abbrev((int) code, (int) tag, children == 1, java.util.Arrays.copyOf(names, n),
                        java.util.Arrays.copyOf(forms, n), java.util.Arrays.copyOf(consts, n));
                if (code < DENSE_LIMIT) {
                    if (code >= dense.length) {
                        dense = java.util.Arrays.copyOf(dense, Math.max((int) code + 1, dense.length * 2));
                    }
                    if (dense[(int) code] == null) {
                        dense[(int) code] = a;
                    }
                    maxDense = Math.max(maxDense, (int) code);
                } else {
                    if (sparse == null) {
                        sparse = new HashMap<>();
                    }
                    sparse.putIfAbsent((int) code, a);
                }
            }
            return new AbbrevTable(java.util.Arrays.copyOf(dense, maxDense + 1), sparse);
        } catch (IndexOutOfBoundsException e) {
            throw new FormatException(source, "abbreviation table", pos[0],
                    "runs past the end of the " + s.length + "-byte " + sec.name());
        }
    }
}
