package io.perfj.cli;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@code ./perfj} launcher on a copy of the repository's layout: it rebuilds exactly when the
 * jar is missing or a build file or main source is newer than it (tested by the shell itself, no
 * {@code find}), finds its directory however it is called (relative, absolute, through a symlink,
 * with {@code ..}), and hands the command line to the jar. A stand-in {@code mvn} on the PATH
 * records each build instead of building; the stand-in jar prints its arguments.
 */
class LauncherTest {
    @TempDir
    Path tmp;
    Path root;
    Path jar;
    Path builds;

    @BeforeEach
    void layout() throws IOException, InterruptedException {
        root = tmp.resolve("repo");
        Path repo = ChildJvm.root();
        Files.createDirectories(root.resolve("scripts"));
        Files.copy(repo.resolve("perfj"), root.resolve("perfj"));
        Files.copy(repo.resolve("scripts/find-jdk.sh"), root.resolve("scripts/find-jdk.sh"));
        for (String f : List.of("pom.xml", "perfj-core/pom.xml", "perfj-cli/pom.xml",
                "perfj-core/src/main/java/io/perfj/A.java", "perfj-cli/src/main/java/io/perfj/cli/B.java",
                "perfj-cli/src/main/jvm/common.options", "perfj-cli/src/main/jvm/default.options")) {
            Path p = root.resolve(f);
            Files.createDirectories(p.getParent());
            Files.writeString(p, f.endsWith(".options") ? "-XX:-UsePerfData\n" : "x\n");
        }
        jar = root.resolve("perfj-cli/target/perfj.jar");
        Files.createDirectories(jar.getParent());
        writeJar();
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        builds = tmp.resolve("builds.txt");
        Path mvn = bin.resolve("mvn");
        // the stand-in build: note the call, and leave a jar newer than every source
        Files.writeString(mvn, "#!/bin/sh\necho build >> '" + builds + "'\ntouch '" + jar + "'\n");
        Files.setPosixFilePermissions(mvn, PosixFilePermissions.fromString("rwxr-xr-x"));
        age(root, Instant.now().minusSeconds(3600));
        Files.setLastModifiedTime(jar, FileTime.from(Instant.now().minusSeconds(60)));
    }

    /** A jar whose main class prints its arguments, compiled from source by this JVM's javac. */
    private void writeJar() throws IOException, InterruptedException {
        Path src = Files.createDirectories(tmp.resolve("echo-src"));
        Files.writeString(src.resolve("Echo.java"),
                "public class Echo { public static void main(String[] a) { System.out.println(\"args=\" + String.join(\" \", a)); } }\n");
        Path javaBin = Path.of(System.getProperty("java.home"), "bin");
        exec(List.of(javaBin.resolve("javac").toString(), "-d", src.toString(), src.resolve("Echo.java").toString()), src);
        Files.writeString(src.resolve("manifest.txt"), "Main-Class: Echo\n");
        exec(List.of(javaBin.resolve("jar").toString(), "cfm", jar.toString(), "manifest.txt", "Echo.class"), src);
    }

    private static void exec(List<String> cmd, Path dir) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(2, TimeUnit.MINUTES));
        assertEquals(0, p.exitValue(), cmd + ": " + out);
    }

    private static void age(Path dir, Instant when) throws IOException {
        try (var s = Files.walk(dir)) {
            for (Path p : s.toList()) {
                Files.setLastModifiedTime(p, FileTime.from(when));
            }
        }
    }

    private record Run(int rc, String out, String err) {
    }

    private Run launch(Path cwd, String launcher, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(launcher));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(cwd.toFile());
        Map<String, String> env = pb.environment();
        env.put("PATH", tmp.resolve("bin") + ":" + env.getOrDefault("PATH", "/usr/bin:/bin"));
        env.put("JAVA_HOME", System.getProperty("java.home"));
        env.put("PERFJ_AOT", "0");
        Process p = pb.start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        byte[] err = p.getErrorStream().readAllBytes();
        assertTrue(p.waitFor(2, TimeUnit.MINUTES));
        return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
    }

    private int buildCount() throws IOException {
        return Files.exists(builds) ? Files.readAllLines(builds).size() : 0;
    }

    @Test
    void anUpToDateJarRunsWithoutABuild() throws Exception {
        Run r = launch(root, "./perfj", "report", "--stdio", "-i", "a b");
        assertEquals(0, r.rc(), r.err());
        assertEquals("args=report --stdio -i a b\n", r.out());
        assertEquals(0, buildCount(), r.err());
        assertFalse(r.err().contains("building"), r.err());
    }

    /** serve --fleet DIR (or --fleet=DIR) runs fleet serve DIR on perfj-fleet's class path. */
    @Test
    void serveWithFleetIsFleetServe() throws Exception {
        Path src = Files.createDirectories(tmp.resolve("fleet-src/io/perfj/cli"));
        Files.writeString(src.resolve("FleetMain.java"), "package io.perfj.cli; public class FleetMain { public static void "
                + "main(String[] a) { System.out.println(\"fleet=\" + String.join(\" \", a)); } }\n");
        Path classes = tmp.resolve("fleet-src");
        exec(List.of(Path.of(System.getProperty("java.home"), "bin", "javac").toString(), "-d", classes.toString(),
                src.resolve("FleetMain.java").toString()), classes);
        Path fleetJar = Files.createDirectories(root.resolve("perfj-fleet/target")).resolve("perfj-fleet.jar");
        exec(List.of(Path.of(System.getProperty("java.home"), "bin", "jar").toString(), "cf", fleetJar.toString(),
                "io/perfj/cli/FleetMain.class"), classes);
        Files.writeString(root.resolve("perfj-fleet/target/classpath.txt"), classes.toString());
        Path options = root.resolve("perfj-fleet/src/main/jvm/fleet.options");
        Files.createDirectories(options.getParent());
        Files.writeString(options, "-XX:-UsePerfData\n");
        age(root.resolve("perfj-fleet/src"), Instant.now().minusSeconds(3600));
        for (String[] args : List.of(new String[]{"serve", "--fleet", "D", "--port", "8080"},
                new String[]{"serve", "--port", "8080", "--fleet=D"})) {
            Run r = launch(root, "./perfj", args);
            assertEquals(0, r.rc(), r.err());
            assertEquals("fleet=fleet serve " + (args[1].equals("--fleet") ? "D --port 8080" : "--port 8080 D") + "\n",
                    r.out());
        }
        assertEquals("args=serve -i x\n", launch(root, "./perfj", "serve", "-i", "x").out(), "serve alone is perfj.jar's");
    }

    @Test
    void aNewerSourceOrBuildFileOrAMissingJarBuilds() throws Exception {
        Files.setLastModifiedTime(root.resolve("perfj-core/src/main/java/io/perfj/A.java"), FileTime.from(Instant.now()));
        Run r = launch(root, "./perfj", "header");
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.err().contains("building"), r.err());
        assertEquals(1, buildCount());
        assertEquals(0, launch(root, "./perfj", "header").rc());
        assertEquals(1, buildCount(), "the build left the jar newest: no second build");

        Files.setLastModifiedTime(root.resolve("perfj-cli/pom.xml"), FileTime.from(Instant.now().plusSeconds(5)));
        launch(root, "./perfj", "header");
        assertEquals(2, buildCount(), "a build file newer than the jar");

        // a new file changes its directory's time as well as being newer itself
        age(root, Instant.now().minusSeconds(3600));
        Files.setLastModifiedTime(jar, FileTime.from(Instant.now().minusSeconds(60)));
        Files.writeString(root.resolve("perfj-cli/src/main/java/io/perfj/cli/C.java"), "x\n");
        launch(root, "./perfj", "header");
        assertEquals(3, buildCount(), "a new source file");

        Files.delete(jar);
        launch(root, "./perfj", "header");
        assertEquals(4, buildCount(), "no jar");
    }

    @Test
    void itFindsItsDirectoryHoweverItIsCalled() throws Exception {
        Files.createDirectories(tmp.resolve("elsewhere/deeper"));
        Path link = tmp.resolve("elsewhere/pj");
        Files.createSymbolicLink(link, root.resolve("perfj"));
        List<String[]> calls = List.of(
                new String[] {root.toString(), "./perfj"},
                new String[] {root.toString(), root.resolve("perfj").toString()},
                new String[] {tmp.toString(), "repo/perfj"},
                new String[] {tmp.resolve("elsewhere/deeper").toString(), "../../repo/perfj"},
                new String[] {tmp.resolve("elsewhere").toString(), "./pj"},
                new String[] {tmp.toString(), "repo/./perfj"});
        for (String[] c : calls) {
            Run r = launch(Path.of(c[0]), c[1], "dump", "--stats");
            assertEquals(0, r.rc(), c[1] + " in " + c[0] + ": " + r.err());
            assertEquals("args=dump --stats\n", r.out(), c[1]);
            assertEquals(0, buildCount(), c[1] + ": " + r.err());
        }
    }
}
