package io.perfj.compat;

import io.perfj.report.SourceLines;
import io.perfj.symbols.DsoKind;
import io.perfj.symbols.Location;

/**
 * perf 6.1's srcline and srcfile sort keys where they differ from perf 7.2's (and perfj's):
 * <ul>
 * <li>an address its object's line table does not cover has an empty srcfile, where perf 7.2
 *     prints {@code ??}, the file part of srcline's {@code ??:0} ({@code get_srcfile},
 *     tools/perf/util/sort.c);</li>
 * <li>the entries --children makes for callchain addresses are looked up at the raw address
 *     instead of the address in the object ({@code he->ip} of a callchain node is not mapped),
 *     which no user object's line table covers: they print the fallback, the symbol and the raw
 *     address less the symbol's start ({@code churn+4194334}), or the object and the raw address;
 *     the kernel's addresses are the same either way;</li>
 * <li>perf script leaves out the source line of an address without a line table row
 *     ({@code ??:0}; {@code map__fprintf_srcline}, tools/perf/util/map.c), which perf 7.2
 *     prints;</li>
 * <li>in JIT code without the runtime's line entries (the ELF image perf inject writes has a
 *     sized symbol and no {@code .debug_line}) libbfd's lookup finds the function and no line:
 *     {@code ??:0}, where perf 7.2 prints the symbol and offset.</li>
 * </ul>
 */
public final class PerfSrclines {
    /** The srcfile text of an address without a line table row. */
    public static final String NO_ROW_FILE = "";

    private PerfSrclines() {
    }

    /** Whether perf 6.1's script prints a frame's source line. */
    public static boolean scriptPrints(String srcline) {
        return !srcline.startsWith("??:0");
    }

    /** The value perf 6.1 gives an address of {@code dso} when the object has no line table, or null for the fallback. */
    public static SourceLines.Text noTableValue(io.perfj.symbols.Dso dso) {
        return dso.kind() == DsoKind.JIT_CODE ? new SourceLines.Text("??:0", NO_ROW_FILE) : null;
    }

    /** The value perf 6.1 gives a callchain address's entry, or null where it looks the address up as perfj does. */
    public static SourceLines.Text chainValue(Location loc) {
        if (loc.dso() == null || loc.dso().kind() == DsoKind.KERNEL) {
            return null;
        }
        return SourceLines.fallback(loc.dso(), loc.symbol(), loc.ip());
    }
}
