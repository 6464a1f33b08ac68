package io.perfj.cli;

import io.perfj.testing.Fixtures;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs perfj in a JVM of its own, started like the launcher starts it (the checked-in option
 * files), with this test JVM's java and class path.
 */
final class ChildJvm {
    record Result(int rc, String out, String err) {
    }

    private ChildJvm() {
    }

    /** The repository root (the fixtures' parent). */
    static Path root() {
        return Fixtures.dir().getParent();
    }

    /** The checked-in JVM option files. */
    static Path optionDir() {
        return root().resolve("perfj-cli/src/main/jvm");
    }

    /**
     * Runs {@code java @common.options @NAME.options EXTRA... -cp CLASSPATH MAIN ARGS...} in the
     * repository root; standard output is discarded unless {@code keepOut}.
     */
    static Result run(String optionFile, List<String> jvmOptions, boolean keepOut, String mainClass, String... args)
            throws IOException, InterruptedException {
        return run(root(), optionFile, jvmOptions, keepOut, mainClass, args);
    }

    /** {@link #run(String, List, boolean, String, String...)} in the working directory {@code dir}. */
    static Result run(Path dir, String optionFile, List<String> jvmOptions, boolean keepOut, String mainClass,
                      String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("@" + optionDir().resolve("common.options"));
        cmd.add("@" + optionDir().resolve(optionFile + ".options"));
        cmd.addAll(jvmOptions);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(mainClass);
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile("perfj-child", ".out");
        try {
            Process p = new ProcessBuilder(cmd).directory(dir.toFile())
                    .redirectOutput(keepOut ? ProcessBuilder.Redirect.to(out.toFile()) : ProcessBuilder.Redirect.DISCARD)
                    .start();
            p.getOutputStream().close();
            byte[] err = p.getErrorStream().readAllBytes();
            if (!p.waitFor(5, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new AssertionError("timed out: " + cmd);
            }
            return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    new String(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
        }
    }
}
