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
            int r = Main.execute(run, OutputStream.nullOutputStream(), err);
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
