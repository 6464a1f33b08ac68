package io.perfj.cli;

import io.perfj.perfdata.PerfData;
import io.perfj.print.DumpPrinter;
import io.perfj.print.HeaderLayout;
import io.perfj.print.StatsPrinter;
import picocli.CommandLine.Model.CommandSpec;

import java.io.OutputStream;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code perfj dump}: every record, like {@code perf report -D}; {@code --stats} like {@code perf report --stats}. */
public final class DumpCommand implements Callable<Integer> {
    final InputOptions in = new InputOptions();
    final SymbolCliOptions sym = new SymbolCliOptions();
    boolean stats;
    final CommandSpec spec;

    DumpCommand() {
        CommandModel m = CommandModel.command(this, "dump",
                "Print every record with its offset, size, type and fields (like 'perf report -D').");
        in.declare(m);
        sym.declare(m);
        m.option("--stats").describe("Print record counts per type, like 'perf report --stats'.").flag(v -> stats = v);
        spec = m.spec();
    }

    @Override
    public Integer call() throws java.io.IOException {
        return print(in, sym, stats, spec);
    }

    /** The dump or (stats) the record counts of {@code in}'s recording (also report's -D and --stats). */
    static int print(InputOptions in, SymbolCliOptions sym, boolean stats, CommandSpec spec) throws java.io.IOException {
        PrintWriter err = spec.commandLine().getErr();
        // The dump is written as bytes straight to standard output, buffered by the printer:
        // going through a Writer costs a char-to-byte encoding of every line.
        spec.commandLine().getOut().flush();
        OutputStream out = Main.stdout(spec);
        try (PerfData data = PerfData.open(in.input)) {
            List<String> warnings;
            if (stats) {
                warnings = new ArrayList<>(data.warnings());
                warnings.addAll(StatsPrinter.print(data, out, HeaderLayout.of(sym.compat.perf61())));
            } else {
                try (io.perfj.session.Session session = sym.session(data)) {
                    new DumpPrinter(data, in.input.toString(), out, HeaderLayout.of(sym.compat.perf61())).print(session);
                    warnings = session.warnings();
                }
            }
            out.flush();
            for (String w : warnings) {
                err.println(w);
            }
            err.flush();
        }
        return 0;
    }
}
