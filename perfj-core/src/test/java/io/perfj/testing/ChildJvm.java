package io.perfj.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a test class's {@code main} in a fresh JVM (this JVM's java and class path) with options
 * of its own, e.g. a small {@code -Xmx}: the way to test that memory stays within a bound.
 */
public final class ChildJvm {
    private ChildJvm() {
    }

    /** Exit code and everything the child printed (standard error merged in). */
    public record Result(int exit, String output) {
    }

    public static Result run(List<String> jvmOptions, Class<?> main, long timeoutSeconds, String... args) {
        return run(jvmOptions, System.getProperty("java.class.path"), main, timeoutSeconds, args);
    }

    /** As {@link #run(List, Class, long, String...)} with a class path of the caller's (e.g. one without a library). */
    public static Result run(List<String> jvmOptions, String classPath, Class<?> main, long timeoutSeconds,
            String... args) {
        String java = ProcessHandle.current().info().command().orElse(
                Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        cmd.add("--enable-native-access=ALL-UNNAMED");
        cmd.addAll(jvmOptions);
        cmd.add("-cp");
        cmd.add(classPath);
        cmd.add(main.getName());
        cmd.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            byte[][] out = new byte[1][];
            Thread reader = Thread.ofPlatform().start(() -> {
                try {
                    out[0] = p.getInputStream().readAllBytes();
                } catch (IOException e) {
                    out[0] = new byte[0];
                }
            });
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                reader.join();
                return new Result(-1, "timed out after " + timeoutSeconds + " s: "
                        + new String(out[0], StandardCharsets.UTF_8));
            }
            reader.join();
            return new Result(p.exitValue(), new String(out[0], StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
