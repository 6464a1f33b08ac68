package io.perfj.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A copy of the repository's launcher layout in a temporary directory: {@code ./perfj},
 * scripts/find-jdk.sh, build files, a main source of each module, common.options and
 * default.options, and a jar newer than all of them. A stand-in {@code mvn} on the PATH
 * records each build instead of building (and leaves the jar newest).
 */
final class LauncherLayout {
    final Path tmp;
    final Path root;
    final Path jar;
    final Path jvm;
    final Path builds;

    record Run(int rc, String out, String err) {
    }

    LauncherLayout(Path tmp) throws IOException {
        this.tmp = tmp;
        root = tmp.resolve("repo");
        Path repo = ChildJvm.root();
        Files.createDirectories(root.resolve("scripts"));
        Files.copy(repo.resolve("perfj"), root.resolve("perfj"));
        Files.copy(repo.resolve("scripts/find-jdk.sh"), root.resolve("scripts/find-jdk.sh"));
        for (String f : List.of("pom.xml", "perfj-core/pom.xml", "perfj-cli/pom.xml",
                "perfj-core/src/main/java/io/perfj/A.java", "perfj-cli/src/main/java/io/perfj/cli/B.java")) {
            write(f, "x\n");
        }
        jvm = root.resolve("perfj-cli/src/main/jvm");
        write("perfj-cli/src/main/jvm/common.options", "-XX:-UsePerfData\n");
        write("perfj-cli/src/main/jvm/default.options", "-XX:-UsePerfData\n");
        jar = root.resolve("perfj-cli/target/perfj.jar");
        Files.createDirectories(jar.getParent());
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        builds = tmp.resolve("builds.txt");
        // the stand-in build: note the call, and leave a jar newer than every source
        executable(bin.resolve("mvn"), "#!/bin/sh\necho build >> '" + builds + "'\ntouch '" + jar + "'\n");
    }

    /** Writes a file of the layout (its directories made). */
    Path write(String path, String text) throws IOException {
        Path p = root.resolve(path);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
        return p;
    }

    static void executable(Path file, String text) throws IOException {
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /**
     * Compiles the given classes ({@code name -> source}) with this JVM's javac into the jar,
     * whose Main-Class is {@code mainClass}; then dates every file an hour back and the jar a
     * minute back, so that nothing is stale.
     */
    void writeJar(String mainClass, Map<String, String> sources) throws IOException, InterruptedException {
        Path src = Files.createDirectories(tmp.resolve("jar-src"));
        List<String> javac = new ArrayList<>(List.of(jdkTool("javac"), "-d", src.toString()));
        for (Map.Entry<String, String> e : sources.entrySet()) {
            Path f = src.resolve(e.getKey().replace('.', '/') + ".java");
            Files.createDirectories(f.getParent());
            Files.writeString(f, e.getValue());
            javac.add(f.toString());
        }
        exec(javac, src);
        Files.writeString(src.resolve("manifest.txt"), "Main-Class: " + mainClass + "\n");
        List<String> jarCmd = new ArrayList<>(List.of(jdkTool("jar"), "cfm", jar.toString(), "manifest.txt"));
        for (String name : sources.keySet()) {
            jarCmd.add(name.replace('.', '/') + ".class");
        }
        exec(jarCmd, src);
        age(root, Instant.now().minusSeconds(3600));
        Files.setLastModifiedTime(jar, FileTime.from(Instant.now().minusSeconds(60)));
    }

    static String jdkTool(String name) {
        return Path.of(System.getProperty("java.home"), "bin", name).toString();
    }

    static void exec(List<String> cmd, Path dir) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(2, TimeUnit.MINUTES));
        assertEquals(0, p.exitValue(), cmd + ": " + out);
    }

    static void age(Path dir, Instant when) throws IOException {
        try (var s = Files.walk(dir)) {
            for (Path p : s.toList()) {
                Files.setLastModifiedTime(p, FileTime.from(when));
            }
        }
    }

    int buildCount() throws IOException {
        return Files.exists(builds) ? Files.readAllLines(builds).size() : 0;
    }

    /**
     * Starts {@code launcher args} in {@code cwd} with the stand-in mvn first on the PATH and the
     * given environment added (JAVA_HOME defaults to this JVM's, PERFJ_AOT to 0).
     */
    Process start(Path cwd, Map<String, String> env, String launcher, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(launcher));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(cwd.toFile());
        Map<String, String> e = pb.environment();
        e.put("PATH", tmp.resolve("bin") + ":" + e.getOrDefault("PATH", "/usr/bin:/bin"));
        e.put("JAVA_HOME", System.getProperty("java.home"));
        e.put("PERFJ_AOT", "0");
        e.remove("PERFJ_DEBUG");
        e.remove("PERFJ_JAVA_OPTS");
        e.putAll(env);
        Process p = pb.start();
        p.getOutputStream().close();
        return p;
    }

    /**
     * Waits for a started launcher and the end of its output: a process it left running that
     * kept its standard output or error open would hold the caller here, and fails the test.
     */
    static Run finish(Process p) throws InterruptedException {
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
        assertTrue(p.waitFor(3, TimeUnit.MINUTES), "the launcher did not end");
        try {
            return new Run(p.exitValue(), out.get(1, TimeUnit.MINUTES), err.get(1, TimeUnit.MINUTES));
        } catch (TimeoutException e) {
            throw new AssertionError("the launcher ended but its output stayed open (a process it started holds it)");
        } catch (ExecutionException e) {
            throw new AssertionError(e.getCause());
        }
    }

    private static String read(InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Run launch(Path cwd, Map<String, String> env, String launcher, String... args)
            throws IOException, InterruptedException {
        return finish(start(cwd, env, launcher, args));
    }
}
