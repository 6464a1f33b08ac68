package io.perfj.cli;

import io.perfj.perfdata.PerfData;
import io.perfj.print.HeaderPrinter;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/** {@code perfj header}: what {@code perf report --header-only} prints. */
public final class HeaderCommand implements Callable<Integer> {
    final InputOptions in = new InputOptions();
    boolean showInfo;
    final CommandSpec spec;

    HeaderCommand() {
        CommandModel m = CommandModel.command(this, "header",
                "Print the recording's header and features like 'perf report --header-only'.");
        in.declare(m);
        m.option("-I", "--show-info")
                .describe("Also print the detailed header information (CPU/NUMA topology, PMU capabilities, ...).")
                .flag(v -> showInfo = v);
        spec = m.spec();
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try (PerfData data = PerfData.open(in.input)) {
            print(data, showInfo, out, err);
        }
        return 0;
    }

    /** Prints the header of an open recording, warnings to {@code err} (also report's --header). */
    static void print(PerfData data, boolean showInfo, PrintWriter out, PrintWriter err) {
        for (String w : data.warnings()) {
            err.println(w);
        }
        err.flush();
        HeaderPrinter printer = HeaderPrinter.forFile(data, showInfo);
        printer.print(out);
        out.flush();
        for (String w : printer.warnings()) {
            err.println(w);
        }
        err.flush();
    }
}
