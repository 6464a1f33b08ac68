package io.perfj.cli;

import io.perfj.perfdata.PerfData;
import io.perfj.print.HeaderPrinter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/** {@code perfj header}: what {@code perf report --header-only} prints. */
@Command(name = "header", mixinStandardHelpOptions = true,
        description = "Print the recording's header and features like 'perf report --header-only'.")
public final class HeaderCommand implements Callable<Integer> {
    @Mixin
    InputOptions in;

    @Option(names = {"-I", "--show-info"}, description = "Also print the detailed header information (CPU/NUMA topology, PMU capabilities, ...).")
    boolean showInfo;

    @Spec
    CommandSpec spec;

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
