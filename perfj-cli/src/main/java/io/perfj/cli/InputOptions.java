package io.perfj.cli;

import java.nio.file.Path;

/** Options every command that reads a recording takes. */
public final class InputOptions {
    public Path input = Path.of("perf.data");
    public boolean debug;
    public boolean force;

    /** Adds these options to a command's model. */
    void declare(CommandModel m) {
        m.option("-i", "--input").label("FILE").defaultValue("perf.data")
                .describe("Input file name, '-' for standard input (pipe mode). Default: ${DEFAULT-VALUE}.")
                .value(Path.class, v -> input = v);
        m.option("--debug").describe("Print stack traces for errors.").flag(v -> debug = v);
        m.option("-f", "--force").describe("Accepted for perf compatibility (ownership is not checked).")
                .flag(v -> force = v);
    }

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
