package io.perfj.profile;

import io.perfj.symbols.Dso;
import io.perfj.symbols.Symbol;

/**
 * One distinct place samples are attributed to, as perf's sort keys see it: a DSO and a symbol,
 * or, without a symbol, the address itself. Interned by {@link FrameTable} so stacks are int
 * arrays.
 *
 * @param dso   null when the address is in no map ({@code [unknown]})
 * @param sym   null when no symbol covers the address
 * @param addr  the address perf keys and prints unresolved frames by (the DSO address when in a
 *              map, else the raw ip)
 * @param level perf's privilege marker ('k', '.', ...)
 */
public record Frame(Dso dso, Symbol sym, long addr, char level) {
    public String dsoName() {
        return dso == null ? "[unknown]" : dso.shortName();
    }

    /** The symbol column text without the level prefix: name, or perf's hex for unresolved. */
    public String symName() {
        if (sym != null) {
            return sym.inlined() ? sym.name() + " (inlined)" : sym.name();
        }
        return hex16(addr);
    }

    /** perf's {@code %-#.*llx} with 16 digits: "0x" + 16 hex digits, but no prefix for zero. */
    public static String hex16(long v) {
        String h = Long.toHexString(v);
        String pad = "0".repeat(Math.max(0, 16 - h.length())) + h;
        return v == 0 ? pad : "0x" + pad;
    }

    /** The name perf prints for the frame inside a callchain graph ({@code %#llx} without symbol). */
    public String chainName() {
        if (sym != null) {
            return sym.inlined() ? sym.name() + " (inlined)" : sym.name();
        }
        return addr == 0 ? "0" : "0x" + Long.toHexString(addr);
    }
}
