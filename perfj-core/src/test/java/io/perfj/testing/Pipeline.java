package io.perfj.testing;

import io.perfj.perfdata.PerfData;
import io.perfj.print.DumpPrinter;
import io.perfj.report.CallchainMode;
import io.perfj.report.Report;
import io.perfj.report.ReportOptions;
import io.perfj.report.ScriptPrinter;
import io.perfj.report.SortKey;
import io.perfj.report.StdioReport;
import io.perfj.session.Session;
import io.perfj.session.SessionOptions;
import io.perfj.symbols.SymbolOptions;

import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;

/**
 * What {@code report}, {@code script} and {@code dump} do with a recording, through the library's
 * public entry points, with no file of this machine read (no system symbols, perf maps from a
 * directory that does not exist). Used by the mutation tests and, as a {@code main}, by the
 * memory-bound tests that run it in a child JVM with a small heap.
 */
public final class Pipeline {
    private Pipeline() {
    }

    /** Symbol sources that read nothing of this machine. */
    public static SymbolOptions noSystemFiles() {
        return SymbolOptions.builder().perfMapDir(Path.of("/nonexistent-perfj-maps")).noSystemFiles().build();
    }

    /** perf report's default sort keys (comm,dso,symbol) with these callchain settings. */
    public static ReportOptions reportOptions(boolean children, CallchainMode mode) {
        return new ReportOptions(List.of(SortKey.COMM, SortKey.DSO, SortKey.SYM), true, children,
                mode, true, 0.5, 0, 127, null, null, null, null, null, null);
    }

    private static Session session(PerfData data) {
        return Session.of(data, SessionOptions.of(noSystemFiles()));
    }

    /** Builds and prints the report (callchain graph); returns how many samples it counted. */
    public static long report(PerfData data, boolean children) {
        return report(data, children, CallchainMode.GRAPH);
    }

    /**
     * Builds and prints the report; returns how many samples it counted. Without children and
     * callchains the samples are read in place, not decoded (perf report --no-children -g none).
     */
    public static long report(PerfData data, boolean children, CallchainMode mode) {
        Report r = Report.build(session(data), reportOptions(children, mode));
        PrintWriter out = new PrintWriter(OutputStream.nullOutputStream());
        new StdioReport(r, out).print();
        out.flush();
        return r.totalSamples();
    }

    /** Prints every sample as perf script does. */
    public static void script(PerfData data) {
        new ScriptPrinter(session(data), OutputStream.nullOutputStream(), null, Session.DEFAULT_MAX_STACK).print();
    }

    /** Every sample resolved, as a library user reads them; returns how many there were. */
    public static long samples(PerfData data) {
        long[] n = new long[1];
        session(data).forEachSample(s -> n[0]++);
        return n[0];
    }

    /** Prints perf report -D's dump. */
    public static void dump(PerfData data) {
        new DumpPrinter(data, data.name(), OutputStream.nullOutputStream()).print();
    }

    /** {@code Pipeline report|script|samples|dump FILE}: runs one command, prints "ok" and the sample count. */
    public static void main(String[] args) {
        try (PerfData d = PerfData.open(Path.of(args[1]))) {
            long n = switch (args[0]) {
                case "report" -> report(d, true);
                case "script" -> {
                    script(d);
                    yield -1;
                }
                case "samples" -> samples(d);
                case "dump" -> {
                    dump(d);
                    yield -1;
                }
                default -> throw new IllegalArgumentException(args[0]);
            };
            System.out.println("ok " + n);
        }
    }
}
