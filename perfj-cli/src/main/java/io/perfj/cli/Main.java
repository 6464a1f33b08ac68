package io.perfj.cli;

import io.perfj.io.FormatException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.Arrays;

/** The {@code perfj} command line. */
@Command(name = "perfj", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "Reads Linux perf.data recordings and BTF without perf.",
        subcommands = {HeaderCommand.class, DumpCommand.class, CommandLine.HelpCommand.class})
public final class Main implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    public static void main(String[] args) {
        System.exit(execute(args, new PrintWriter(System.out, false), new PrintWriter(System.err, true)));
    }

    /** Runs the command line with the given streams; returns the exit code. */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        boolean debug = Arrays.asList(args).contains("--debug");
        CommandLine cl = new CommandLine(new Main());
        cl.setOut(out);
        cl.setErr(err);
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            out.flush();
            if (debug) {
                ex.printStackTrace(err);
            }
            err.println("perfj: " + describe(ex));
            err.flush();
            return ex instanceof FormatException ? 2 : 1;
        });
        int rc = cl.execute(args);
        out.flush();
        err.flush();
        return rc;
    }

    static String describe(Throwable ex) {
        if (ex instanceof FormatException || ex instanceof UncheckedIOException) {
            return ex.getMessage();
        }
        if (ex instanceof java.nio.file.NoSuchFileException nf) {
            return nf.getFile() + ": no such file";
        }
        if (ex instanceof OutOfMemoryError) {
            return "out of memory: " + ex.getMessage();
        }
        String m = ex.getMessage();
        return ex.getClass().getSimpleName() + (m == null ? "" : ": " + m);
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Main.class.getPackage().getImplementationVersion();
            return new String[] {"perfj " + (v == null ? "0.1.0-SNAPSHOT" : v)
                    + " (Java " + Runtime.version() + ")"};
        }
    }
}
