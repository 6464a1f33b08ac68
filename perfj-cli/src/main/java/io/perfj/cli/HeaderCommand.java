package io.perfj.cli;

import io.perfj.perfdata.PerfData;
import io.perfj.print.HeaderLayout;
import io.perfj.print.HeaderPrinter;
import io.perfj.session.Compat;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/** {@code perfj header}: what {@code perf report --header-only} prints. */
public final class HeaderCommand implements Callable<Integer> {
    final InputOptions in = new InputOptions();
    boolean showInfo;
    Compat compat = Compat.NONE;
    final CommandSpec spec;

    HeaderCommand() {
        CommandModel m = CommandModel.command(this, "header",
                "Print the recording's header and features like 'perf report --header-only'.");
        in.declare(m);
        m.option("-I", "--show-info")
                .describe("Also print the detailed header information (CPU/NUMA topology, PMU capabilities, ...).")
                .flag(v -> showInfo = v);
        m.option("--compat").label("MODE").defaultValue("none").converter(new SymbolCliOptions.CompatConverter())
                .describe("'perf-6.1' prints perf 6.1's layout (bare type and config numbers, its feature "
                        + "list); 'none' (default) perf 7.2's.")
                .value(Compat.class, v -> compat = v);
        spec = m.spec();
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try (PerfData data = PerfData.open(in.input)) {
            print(data, showInfo, HeaderLayout.of(compat.perf61()), out, err);
        }
        return 0;
    }

    /** Prints the header of an open recording, warnings to {@code err} (also report's --header). */
    static void print(PerfData data, boolean showInfo, HeaderLayout layout, PrintWriter out, PrintWriter err) {
        for (String w : data.warnings()) {
            err.println(w);
        }
        err.flush();
        HeaderPrinter printer = HeaderPrinter.forFile(data, showInfo, layout);
        printer.print(out);
        out.flush();
        for (String w : printer.warnings()) {
            err.println(w);
        }
        err.flush();
    }
}
