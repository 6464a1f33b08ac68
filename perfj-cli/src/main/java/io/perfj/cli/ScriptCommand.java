package io.perfj.cli;

import io.perfj.perfdata.PerfData;
import io.perfj.report.ScriptPrinter;
import io.perfj.session.Session;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/** {@code perfj script}: every sample as {@code perf script} prints it. */
public final class ScriptCommand implements Callable<Integer> {
    final InputOptions in = new InputOptions();
    final SymbolCliOptions sym = new SymbolCliOptions();
    String fields;
    int maxStack;
    final CommandSpec spec;

    ScriptCommand() {
        CommandModel m = CommandModel.command(this, "script", "Print every sample with its callchain (like 'perf script').");
        in.declare(m);
        sym.declare(m);
        m.option("-F", "--fields").label("LIST")
                .describe("Fields: comm, tid, pid, cpu, time, period, event, ip, sym, symoff, dso, addr.")
                .value(String.class, v -> fields = v);
        m.option("--max-stack").label("N").defaultValue("127").describe("Print at most N callchain frames.")
                .value(int.class, v -> maxStack = v);
        spec = m.spec();
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try (PerfData data = PerfData.open(in.input)) {
            Session session = sym.session(data);
            java.util.Set<ScriptPrinter.Field> f;
            try {
                f = fields == null ? null : ScriptPrinter.Field.parse(fields);
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.ParameterException(spec.commandLine(), "-F: " + e.getMessage());
            }
            out.flush();
            ScriptPrinter printer = new ScriptPrinter(session, Main.stdout(spec), f, maxStack);
            printer.print();
            InputOptions.warn(out, err, session.warnings(), printer.traceWarnings());
        }
        return 0;
    }
}
