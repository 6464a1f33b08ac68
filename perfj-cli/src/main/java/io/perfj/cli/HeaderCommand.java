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
        return 0;
    }
}
