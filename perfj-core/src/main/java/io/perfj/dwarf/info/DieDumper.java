package io.perfj.dwarf.info;

import java.io.PrintWriter;

/**
 * A text dump of every DIE: depth, offset, abbreviation code, tag and name, one line per DIE in
 * the layout of {@code readelf --debug-dump=info}'s DIE lines, so the two can be compared on that
 * subset.
 */
public final class DieDumper {
    private DieDumper() {
    }

    /** readelf (binutils 2.40) has no name for LLVM's tags and prints their value. */
    static String readelfTagName(int tag) {
        String n = Dw.tagName(tag);
        if (tag >= 0x4080 && (tag == Dw.TAG_LLVM_annotation || n.startsWith("DW_TAG_0x"))) {
            return "User TAG value: 0x" + Integer.toHexString(tag);
        }
        return n;
    }

    public static void dump(DwarfInfo dwarf, PrintWriter out) {
        for (UnitHeader u : dwarf.units()) {
            DieCursor c = dwarf.cursor(u);
            int t;
            while ((t = c.next()) >= 0) {
                if (t == 0) {
                    continue;
                }
                out.printf(" <%d><%x>: Abbrev Number: %d (%s)%n", c.depth(), c.offset(), c.abbrevCode(),
                        readelfTagName(t));
                int n = c.find(Dw.AT_name);
                if (n >= 0) {
                    String s = c.string(n);
                    if (s != null) {
                        out.printf("    DW_AT_name: %s%n", s);
                    }
                }
            }
        }
        out.flush();
    }
}
