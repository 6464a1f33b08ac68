package io.perfj.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** perf report's sort keys that perfj supports, with perf's column headers. */
public enum SortKey {
    COMM("Command"), PID("    Pid:Command"), TID("    Tid"), DSO("Shared Object"), SYM("Symbol"), CPU("CPU"),
    /** A tracepoint sample's formatted fields (perf's {@code trace}, sort.c sort_trace). */
    TRACE("Trace output"),
    /** A tracepoint sample's fields, a column each (perf's {@code trace_fields}: its dynamic sort keys). */
    TRACE_FIELDS(""),
    /** The source file and line of the sample's address ({@code file.c:42}, perf's fallbacks without one). */
    SRCLINE("Source:Line"),
    /** The source file of the sample's address (empty without one). */
    SRCFILE("Source File"),
    /**
     * The first callchain symbol, in the order chains are printed, whose name matches the parent
     * pattern (perf's {@code parent}: {@code -p REGEX}, default {@code ^sys_|^do_page_fault}).
     */
    PARENT("Parent symbol");

    final String header;

    SortKey(String header) {
        this.header = header;
    }

    public String header() {
        return header;
    }

    /** Whether the key is the sample address's source position (srcline or srcfile). */
    public boolean source() {
        return this == SRCLINE || this == SRCFILE;
    }

    /** Parses perf's comma-separated list ("comm,dso,symbol"). */
    public static List<SortKey> parse(String spec) {
        List<SortKey> out = new ArrayList<>();
        for (String k : names(spec)) {
            out.add(switch (k) {
                case "comm" -> COMM;
                case "pid" -> PID;
                case "tid" -> TID;
                case "dso" -> DSO;
                case "sym", "symbol" -> SYM;
                case "cpu" -> CPU;
                case "trace" -> TRACE;
                case "trace_fields" -> TRACE_FIELDS;
                case "srcline" -> SRCLINE;
                case "srcfile" -> SRCFILE;
                case "parent" -> PARENT;
                default -> throw new IllegalArgumentException("unknown sort key '" + k
                        + "' (supported: comm, pid, tid, dso, sym/symbol, cpu, trace, trace_fields, srcline, srcfile, parent)");
            });
        }
        return out;
    }

    /** The keys of perf's comma-separated list, trimmed and in lower case; never empty. */
    static List<String> names(String spec) {
        List<String> out = new ArrayList<>();
        for (String s : spec.split(",")) {
            String k = s.trim().toLowerCase(Locale.ROOT);
            if (!k.isEmpty()) {
                out.add(k);
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("empty sort key list");
        }
        return out;
    }
}
