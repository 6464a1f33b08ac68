package io.perfj.cli;

import io.perfj.perfdata.PerfData;
import io.perfj.report.ScriptPrinter;
import io.perfj.session.Session;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/** {@code perfj script}: every sample as {@code perf script} prints it. */
@Command(name = "script", mixinStandardHelpOptions = true,
        description = "Print every sample with its callchain (like 'perf script').")
public final class ScriptCommand implements Callable<Integer> {
    @Mixin
    InputOptions in;

    @Mixin
    SymbolCliOptions sym;

    @Option(names = {"-F", "--fields"}, paramLabel = "LIST",
            description = "Fields: comm, tid, pid, cpu, time, period, event, ip, sym, symoff, dso, addr.")
    String fields;

    @Option(names = "--max-stack", paramLabel = "N", defaultValue = "127", description = "Print at most N callchain frames.")
    int maxStack;

    @Spec
    CommandSpec spec;

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
            new ScriptPrinter(session, Main.stdout(spec), f, maxStack).print();
            InputOptions.warn(out, err, session.warnings());
        }
        return 0;
    }
}
