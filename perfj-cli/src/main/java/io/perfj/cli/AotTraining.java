package io.perfj.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The training run of a command's ahead-of-time cache: runs the {@code # train:} lines of one
 * JVM option file (perfj-cli/src/main/jvm/COMMAND.options) as perfj command lines in this JVM,
 * output discarded, so that the JDK records the classes they load and the methods they run.
 * The launcher starts it under {@code -XX:AOTCacheOutput} from the repository root, with the
 * same option file as the command itself: a cache is used only by a JVM started with options
 * like the ones it was made with.
 */
public final class AotTraining {
    /** Marks a training command line in an option file (a comment to the java launcher). */
    static final String TRAIN = "# train:";
    /**
     * A word of a training line that stands for the pid of {@link #TARGET}, started for that
     * line and stopped after it: a training that profiles a live process profiles this small
     * one, not the machine (what top -a meets is whatever the machine runs, its time with it).
     */
    static final String PID = "{pid}";
    /** The process a {@link #PID} line profiles, relative to the repository root: CPU-bound C. */
    static final String TARGET = "fixtures/bin/hot";

    private AotTraining() {
    }

    /** The training command lines of an option file, each split into words at white space. */
    static List<String[]> commandLines(Path optionFile) throws IOException {
        List<String[]> runs = new ArrayList<>();
        for (String line : Files.readAllLines(optionFile, StandardCharsets.UTF_8)) {
            String s = line.strip();
            if (s.startsWith(TRAIN)) {
                String words = s.substring(TRAIN.length()).strip();
                if (!words.isEmpty()) {
                    runs.add(words.split("\\s+"));
                }
            }
        }
        return runs;
    }

    /**
     * Runs one training line (words), in this JVM, with {@link #TARGET} started from
     * {@code root} for it when it has a {@link #PID} word; returns the command's exit code.
     */
    static int run(String[] line, Path root, OutputStream out, PrintWriter err) throws IOException {
        if (!List.of(line).contains(PID)) {
            return Main.execute(line, out, err);
        }
        // its seconds only bound how long it outlives a training JVM that is killed
        Process target = new ProcessBuilder(root.resolve(TARGET).toString(), "60")
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            String[] args = line.clone();
            for (int i = 0; i < args.length; i++) {
                if (args[i].equals(PID)) {
                    args[i] = Long.toString(target.pid());
                }
            }
            return Main.execute(args, out, err);
        } finally {
            target.destroyForcibly();
        }
    }

    /**
     * Runs every training line of the option file named by {@code args[0]}; exits with the first
     * non-zero exit code (the launcher then keeps no cache), 2 when the file has no training line.
     */
    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: AotTraining OPTION-FILE");
            System.exit(2);
        }
        List<String[]> runs = commandLines(Path.of(args[0]));
        PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
        int rc = runs.isEmpty() ? 2 : 0;
        if (runs.isEmpty()) {
            err.println("perfj: " + args[0] + ": no '" + TRAIN + "' line");
        }
        for (String[] run : runs) {
            int r = run(run, Path.of("").toAbsolutePath(), OutputStream.nullOutputStream(), err);
            if (r != 0) {
                err.println("perfj: training run '" + String.join(" ", run) + "' exited with " + r);
                if (rc == 0) {
                    rc = r;
                }
            }
        }
        System.exit(rc);
    }
}
