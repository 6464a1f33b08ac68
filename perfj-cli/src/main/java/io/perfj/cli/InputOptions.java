package io.perfj.cli;

import java.nio.file.Path;

/** Options every command that reads a recording takes. */
public final class InputOptions {
    public Path input = Path.of("perf.data");
    public boolean debug;
    public boolean force;
    /** Every -i given, for commands that take two recordings (else only the last counts). */
    public java.util.List<Path> inputs = java.util.List.of(input);

    /** Adds these options to a command's model. */
    void declare(CommandModel m) {
        m.option("-i", "--input").label("FILE").defaultValue("perf.data")
                .describe("Input file name, '-' for standard input (pipe mode). Default: ${DEFAULT-VALUE}.")
                .value(Path.class, v -> input = v);
        common(m);
    }

    /** Adds these options, with -i given once or twice (the second: a recording to compare with). */
    void declareTwo(CommandModel m, String second) {
        m.option("-i", "--input").label("FILE").defaultValue("perf.data")
                .describe("Input file name, '-' for standard input (pipe mode). Default: ${DEFAULT-VALUE}.",
                        "A second -i: " + second)
                .list(Path.class, v -> {
                    inputs = v;
                    input = v.isEmpty() ? input : v.getFirst();
                });
        common(m);
    }

    private void common(CommandModel m) {
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
