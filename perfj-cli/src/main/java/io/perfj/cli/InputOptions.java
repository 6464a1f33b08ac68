package io.perfj.cli;

import picocli.CommandLine.Option;

import java.nio.file.Path;

/** Options every command that reads a recording takes. */
public final class InputOptions {
    @Option(names = {"-i", "--input"}, paramLabel = "FILE", defaultValue = "perf.data",
            description = "Input file name, '-' for standard input (pipe mode). Default: ${DEFAULT-VALUE}.")
    public Path input = Path.of("perf.data");

    @Option(names = "--debug", description = "Print stack traces for errors.")
    public boolean debug;

    @Option(names = {"-f", "--force"}, description = "Accepted for perf compatibility (ownership is not checked).")
    public boolean force;

    /** Prints warnings, one per line, after the output (which is flushed first). */
    @SafeVarargs
    static void warn(java.io.PrintWriter out, java.io.PrintWriter err, java.util.List<String>... lists) {
        out.flush();
        for (java.util.List<String> l : lists) {
            for (String w : l) {
                err.println(w);
            }
        }
        err.flush();
    }
}
