package io.perfj.cli;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.Map;

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
    LauncherLayout layout;
    Path root;
    Path jar;

    @BeforeEach
    void layout() throws IOException, InterruptedException {
        layout = new LauncherLayout(tmp);
        root = layout.root;
        jar = layout.jar;
        layout.writeJar("Echo", Map.of("Echo",
                "public class Echo { public static void main(String[] a) { System.out.println(\"args=\" + String.join(\" \", a)); } }\n"));
    }

    private LauncherLayout.Run launch(Path cwd, String launcher, String... args) throws IOException, InterruptedException {
        return layout.launch(cwd, Map.of(), launcher, args);
    }

    private int buildCount() throws IOException {
        return layout.buildCount();
    }

    @Test
    void anUpToDateJarRunsWithoutABuild() throws Exception {
        LauncherLayout.Run r = launch(root, "./perfj", "report", "--stdio", "-i", "a b");
        assertEquals(0, r.rc(), r.err());
        assertEquals("args=report --stdio -i a b\n", r.out());
        assertEquals(0, buildCount(), r.err());
        assertFalse(r.err().contains("building"), r.err());
    }

    /** serve --fleet DIR (or --fleet=DIR) runs fleet serve DIR on perfj-fleet's class path. */
    @Test
    void serveWithFleetIsFleetServe() throws Exception {
        Path src = Files.createDirectories(tmp.resolve("fleet-src/io/perfj/cli"));
        // the fleet class path's command line (perfj-cli's Main, which finds fleet as a Subcommand)
        Files.writeString(src.resolve("Main.java"), "package io.perfj.cli; public class Main { public static void "
                + "main(String[] a) { System.out.println(\"fleet=\" + String.join(\" \", a)); } }\n");
        Path classes = tmp.resolve("fleet-src");
        LauncherLayout.exec(List.of(LauncherLayout.jdkTool("javac"), "-d", classes.toString(),
                src.resolve("Main.java").toString()), classes);
        Path fleetJar = Files.createDirectories(root.resolve("perfj-fleet/target")).resolve("perfj-fleet.jar");
        LauncherLayout.exec(List.of(LauncherLayout.jdkTool("jar"), "cf", fleetJar.toString(),
                "io/perfj/cli/Main.class"), classes);
        Files.writeString(root.resolve("perfj-fleet/target/classpath.txt"), classes.toString());
        Path options = root.resolve("perfj-fleet/src/main/jvm/fleet.options");
        Files.createDirectories(options.getParent());
        Files.writeString(options, "-XX:-UsePerfData\n");
        LauncherLayout.age(root.resolve("perfj-fleet/src"), Instant.now().minusSeconds(3600));
        for (String[] args : List.of(new String[]{"serve", "--fleet", "D", "--port", "8080"},
                new String[]{"serve", "--port", "8080", "--fleet=D"})) {
            LauncherLayout.Run r = launch(root, "./perfj", args);
            assertEquals(0, r.rc(), r.err());
            assertEquals("fleet=fleet serve " + (args[1].equals("--fleet") ? "D --port 8080" : "--port 8080 D") + "\n",
                    r.out());
        }
        assertEquals("args=serve -i x\n", launch(root, "./perfj", "serve", "-i", "x").out(), "serve alone is perfj.jar's");
    }

    @Test
    void aNewerSourceOrBuildFileOrAMissingJarBuilds() throws Exception {
        Files.setLastModifiedTime(root.resolve("perfj-core/src/main/java/io/perfj/A.java"), FileTime.from(Instant.now()));
        LauncherLayout.Run r = launch(root, "./perfj", "header");
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.err().contains("building"), r.err());
        assertEquals(1, buildCount());
        assertEquals(0, launch(root, "./perfj", "header").rc());
        assertEquals(1, buildCount(), "the build left the jar newest: no second build");

        Files.setLastModifiedTime(root.resolve("perfj-cli/pom.xml"), FileTime.from(Instant.now().plusSeconds(5)));
        launch(root, "./perfj", "header");
        assertEquals(2, buildCount(), "a build file newer than the jar");

        // a new file changes its directory's time as well as being newer itself
        LauncherLayout.age(root, Instant.now().minusSeconds(3600));
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
            LauncherLayout.Run r = launch(Path.of(c[0]), c[1], "dump", "--stats");
            assertEquals(0, r.rc(), c[1] + " in " + c[0] + ": " + r.err());
            assertEquals("args=dump --stats\n", r.out(), c[1]);
            assertEquals(0, buildCount(), c[1] + ": " + r.err());
        }
    }
}
