package io.perfj.session;

import io.perfj.symbols.Demangling;

import java.util.Locale;

/**
 * Whose answers a session gives. By default perfj gives the correct answer; where perf 6.1 is
 * known to give a wrong one, {@link #PERF_6_1} reproduces perf's, for comparing the two tools line
 * for line. The command line spells it {@code --compat perf-6.1}.
 *
 * <p>What differs today (each emulation cites the perf function it mirrors):
 * <ul>
 *   <li>{@code --call-graph dwarf} stacks: correct mode follows each object's call frame
 *       information; perf 6.1 mode replays libunwind 1.6 with perf's memory accessors
 *       ({@code io.perfj.compat.LibunwindEmulation}: its frame-pointer fallback and the reads that
 *       end stacks early).</li>
 *   <li>{@code annotate} with symbol names: perf deletes every other symbol a sample hits from its
 *       DSO's table ({@code builtin-annotate.c: evsel__add_sample}), so calls into them print
 *       objdump's name; correct mode names them from the symbol table.</li>
 *   <li>{@code annotate --percent-type global-hits}: perf 6.1 prints an empty column (its divisor
 *       is never filled in); correct mode prints hits over all samples
 *       ({@code io.perfj.compat.PerfGlobalHits}).</li>
 *   <li>{@code annotate} of an event group: perf 6.1's title counts the leader's period alone
 *       ({@code io.perfj.compat.PerfGroupTitle}); correct mode sums the group's events.</li>
 *   <li>{@code annotate}'s text layout: perf 6.1's (objdump's line markers, every listing line in
 *       {@code --stdio2}) or perf 7.2's by default ({@code io.perfj.annotate.AnnotateLayout}).</li>
 *   <li>{@code report} rows: correct mode merges samples into a row exactly when their sort-key
 *       values are equal and orders rows by a documented total order ({@code io.perfj.report.Hists});
 *       perf 6.1 mode replays perf's entry trees, whose comparisons are no total order
 *       ({@code io.perfj.compat.PerfHistTree}, {@code PerfHistCmp}, {@code PerfHistSort}).</li>
 *   <li>{@code report -s srcline/srcfile} and {@code script -F srcline}: perf 6.1's srcfile of an
 *       address without a line, its --children entries looked up at raw addresses, its script
 *       without {@code ??:0} lines, {@code ??:0} in JIT code without line entries
 *       ({@code io.perfj.compat.PerfSrclines}).</li>
 *   <li>Functions inlined at frame-pointer and LBR callchain addresses: correct mode names them
 *       as frames of their own, as perf 7.2 does, keeping the address's own frame; perf 6.1 names
 *       them at DWARF-unwound addresses only ({@link RecordedInlines}).</li>
 *   <li>A DWARF-unwound frame whose function DWARF names otherwise than the symbol table
 *       ({@code __GI___clock_gettime} for {@code clock_gettime}): correct mode keeps the frame,
 *       with its symbol and object, after the functions really inlined there; perf 6.1 prints
 *       that name as an inlined function in its place ({@link UnwoundInlines}).</li>
 *   <li>{@code report --stdio} texts of 1024 bytes or more (a column header, a callchain name):
 *       correct mode prints them whole; perf 6.1 mode cuts them to 1023 bytes as perf's fixed
 *       buffers do ({@code io.perfj.compat.PerfStdioBuffers}).</li>
 *   <li>C++ symbol names: correct mode prints them with their parameter lists, as perf 7.2 does
 *       ({@code SharedDataRelocationTask::work(int, int)}); perf 6.1 mode without, but with
 *       {@code report -v} ({@link Demangling}).</li>
 *   <li>{@code header} and {@code --stats}: perf 7.2's layout (named event types and configs,
 *       the empty BPF lines, its newer features, wider stats names) or perf 6.1's
 *       ({@code io.perfj.print.HeaderLayout}).</li>
 *   <li>{@code report -s trace_fields}: a field the trace text has no word for prints as the
 *       event's print format prints it ({@code 0x3} for {@code "0x%lx", REC->ret}), as perf 7.2's
 *       libtraceevent does; perf 6.1 mode by its type alone ({@code 3}; {@code io.perfj.report.TraceTexts}).</li>
 * </ul>
 *
 * <p>All emulation code is in {@code io.perfj.compat}.
 */
public enum Compat {
    /** The correct answer (the default). */
    NONE("none"),
    /** What perf 6.1 (Debian 12's, built with libunwind 1.6) prints, including its mistakes. */
    PERF_6_1("perf-6.1");

    private final String spelling;

    Compat(String spelling) {
        this.spelling = spelling;
    }

    /** How the command line spells it. */
    public String spelling() {
        return spelling;
    }

    /** Whether perf 6.1's behaviour is reproduced. */
    public boolean perf61() {
        return this == PERF_6_1;
    }

    /** How symbol names are demangled: perf 6.1's C++ names without parameter lists, else perf 7.2's with. */
    public Demangling demangling() {
        return demangling(false);
    }

    /**
     * How symbol names are demangled by a command given {@code -v} or not: perf 6.1 prints C++
     * parameter lists only with {@code -v} (its {@code demangle_sym} adds {@code DMGL_PARAMS}
     * when verbose), perf 7.2 always.
     */
    public Demangling demangling(boolean verbose) {
        return this != PERF_6_1 ? Demangling.CURRENT : verbose ? Demangling.PERF_6_1_VERBOSE : Demangling.PERF_6_1;
    }

    /** The mode a command-line word names ({@code none}, {@code perf-6.1}, also {@code perf}). */
    public static Compat parse(String s) {
        String w = s.trim().toLowerCase(Locale.ROOT);
        return switch (w) {
            case "none", "" -> NONE;
            case "perf-6.1", "perf6.1", "perf" -> PERF_6_1;
            default -> throw new IllegalArgumentException("unknown compatibility mode '" + s
                    + "' (known: none, perf-6.1)");
        };
    }

    @Override
    public String toString() {
        return spelling;
    }
}
