package io.perfj.cli;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The launcher's start-up caches (JDK 25 AOT caches): a command without one runs at once while one
 * trainer makes it in the background, after one line on stderr; a second launcher meanwhile
 * starts none; a trainer stopped by a signal removes its outputs, and the outputs of one killed
 * outright are removed by the next launcher; a cache that could stop the JVM (PERFJ_JAVA_OPTS's
 * heap) or that the JVM cannot map is left out, said only under --debug, and the exit status is
 * the command's. Most tests run a stand-in java (a script: a training run writes the JDK's
 * temporary NAME.aot.PID.config and waits for the test's go-ahead); the last trains and uses a
 * real cache with this JDK.
 */
class AotLauncherTest {
    private static final String LINE = "perfj: preparing a start-up cache for report in the background"
            + " (./perfj --train: now; PERFJ_AOT=0: never)\n";
    private static final long DEADLINE_MS = 120_000;

    @TempDir
    Path tmp;
    LauncherLayout layout;
    Path target;
    Path cache;
    /** The stand-in java's state: trainers (a line "JVM-PID TRAINER-PID" each), go, fail. */
    Path state;
    Map<String, String> env;

    @BeforeEach
    void layout() throws IOException, InterruptedException {
        layout = new LauncherLayout(tmp);
        layout.write("perfj-cli/src/main/jvm/report.options", "-XX:+UseParallelGC\n# train: report -i x\n");
        layout.writeJar("Echo", Map.of("Echo", "public class Echo { public static void main(String[] a) { }}\n"));
        target = layout.jar.getParent();
        cache = target.resolve("perfj-report.aot");
        state = Files.createDirectories(tmp.resolve("state"));
        Path jdk = Files.createDirectories(tmp.resolve("jdk/bin"));
        Files.writeString(jdk.resolveSibling("release"), "JAVA_VERSION=\"25\"\n");
        LauncherLayout.executable(jdk.resolve("javac"), "#!/bin/sh\n");
        // a training run writes OUT.config as the JDK does, then OUT when the test says go
        // (a failure when it says fail); a command prints the cache it was given, its JVM
        // options and arguments, and exits with N for an argument exit=N
        LauncherLayout.executable(jdk.resolve("java"), """
                #!/bin/bash
                S='%s'
                out=
                for a in "$@"; do case "$a" in -XX:AOTCacheOutput=*) out="${a#*=}" ;; esac; done
                if [ -n "$out" ]; then
                    echo "$$ $PPID" >>"$S/trainers"
                    echo partial >"$out.config"
                    for ((i = 0; i < 2400; i++)); do [ -e "$S/go" ] && break; sleep 0.05; done
                    rm -f "$out.config"
                    [ -e "$S/fail" ] && exit 1
                    echo cache >"$out"
                    exit 0
                fi
                c=none opts=() rc=0
                while [ $# -gt 0 ] && [ "$1" != -jar ]; do
                    case "$1" in -XX:AOTCache=*) c="${1#*=}" ;; *) opts+=("$1") ;; esac
                    shift
                done
                shift 2
                for a in "$@"; do case "$a" in exit=*) rc="${a#exit=}" ;; esac; done
                echo "cache=$c"
                echo "opts=${opts[*]}"
                echo "args=$*"
                exit "$rc"
                """.formatted(state));
        env = Map.of("JAVA_HOME", jdk.getParent().toString(), "PERFJ_AOT", "1");
    }

    /** Lets stand-in trainers end, and ends any still alive (by the pids they wrote). */
    @AfterEach
    void endTrainers() throws IOException {
        Files.writeString(state.resolve("go"), "");
        for (long pid : trainerPids()) {
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    private List<Long> trainerPids() throws IOException {
        List<Long> pids = new ArrayList<>();
        Path f = state.resolve("trainers");
        if (Files.exists(f)) {
            for (String line : Files.readAllLines(f)) {
                for (String w : line.split(" ")) {
                    pids.add(Long.parseLong(w));
                }
            }
        }
        return pids;
    }

    private List<String> trainers() throws IOException {
        Path f = state.resolve("trainers");
        return Files.exists(f) ? Files.readAllLines(f) : List.of();
    }

    private LauncherLayout.Run run(Map<String, String> extra, String... args) throws IOException, InterruptedException {
        Map<String, String> e = new java.util.HashMap<>(env);
        e.putAll(extra);
        return layout.launch(layout.root, e, "./perfj", args);
    }

    private static void await(String what, BooleanSupplier done) throws InterruptedException {
        long end = System.currentTimeMillis() + DEADLINE_MS;
        while (!done.getAsBoolean()) {
            assertTrue(System.currentTimeMillis() < end, "waited " + DEADLINE_MS / 1000 + " s for " + what);
            Thread.sleep(50);
        }
    }

    /** The nice value of process {@code pid} (a number or "self"): field 19 of its stat. */
    private static int nice(String pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", pid, "stat"));
        return Integer.parseInt(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[16]);
    }

    /** Waits for the n-th training run to have written its temporary configuration; its line. */
    private String[] awaitTrainer(int n) throws InterruptedException {
        await("training run " + n, () -> {
            try {
                List<String> t = trainers();
                return t.size() >= n && Files.exists(target.resolve("perfj-report.aot." + t.get(n - 1).split(" ")[1] + ".config"));
            } catch (IOException e) {
                return false;
            }
        });
        try {
            return trainers().get(n - 1).split(" ");
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static void awaitGone(String... pids) throws InterruptedException {
        for (String pid : pids) {
            await("process " + pid + " to end", () -> ProcessHandle.of(Long.parseLong(pid)).map(p -> !p.isAlive()).orElse(true));
        }
    }

    /** The files a trainer writes before its cache is done: perfj-report.aot.PID[.config]. */
    private List<String> temporaries() throws IOException {
        try (Stream<Path> s = Files.list(target)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.matches("perfj-report\\.aot\\.[0-9]+.*")).sorted().toList();
        }
    }

    /** Whether a trainer holds the cache's lock (flock(1): Java's FileLock is another kind of lock). */
    private boolean locked() {
        try {
            Process p = new ProcessBuilder("flock", "-n", cache + ".lock", "true").start();
            p.waitFor();
            return p.exitValue() != 0;
        } catch (IOException | InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    private void go() throws IOException, InterruptedException {
        Files.writeString(state.resolve("go"), "");
        await("the cache", () -> Files.exists(cache) && !locked());
        Files.delete(state.resolve("go"));
    }

    @Test
    void theFirstRunRunsAtOnceAndOneTrainerMakesTheCacheInTheBackground() throws Exception {
        LauncherLayout.Run r = run(Map.of(), "report", "-i", "x");
        // the training run waits for go: the command did not wait for it
        assertEquals(0, r.rc(), r.err());
        assertEquals(LINE, r.err());
        assertTrue(r.out().startsWith("cache=none\n") && r.out().endsWith("args=report -i x\n"), r.out());
        String[] jvmAndTrainer = awaitTrainer(1);
        assertEquals(Math.min(19, nice("self") + 10), nice(jvmAndTrainer[0]), "the training JVM's nice value");
        assertTrue(locked());

        r = run(Map.of(), "report", "-i", "x");
        assertEquals("", r.err(), "a trainer is at work: nothing to say");
        assertTrue(r.out().startsWith("cache=none\n"), r.out());

        go();
        r = run(Map.of(), "report", "-i", "x");
        assertEquals("", r.err());
        assertTrue(r.out().startsWith("cache=" + cache + "\n"), r.out());
        assertTrue(r.out().contains("-Dperfj.aot=" + cache), r.out());
        assertEquals(1, trainers().size(), trainers().toString());
        assertEquals(List.of(), temporaries());
    }

    @Test
    void twoLaunchersAtOnceStartOneTrainer() throws Exception {
        Process a = layout.start(layout.root, env, "./perfj", "report", "-i", "a");
        Process b = layout.start(layout.root, env, "./perfj", "report", "-i", "b");
        LauncherLayout.Run ra = LauncherLayout.finish(a);
        LauncherLayout.Run rb = LauncherLayout.finish(b);
        assertEquals(0, ra.rc(), ra.err());
        assertEquals(0, rb.rc(), rb.err());
        assertEquals(LINE, ra.err() + rb.err(), "one of them starts the trainer and says so");
        assertTrue(ra.out().startsWith("cache=none\n") && rb.out().startsWith("cache=none\n"));
        awaitTrainer(1);
        go();
        assertEquals(1, trainers().size(), trainers().toString());
    }

    @Test
    void aStoppedOrKilledTrainerLeavesNothingBehind() throws Exception {
        run(Map.of(), "report");
        String[] t = awaitTrainer(1);
        assertEquals(List.of("perfj-report.aot." + t[1] + ".config"), temporaries());
        // TERM: the trainer kills its JVM and removes what it wrote
        ProcessHandle.of(Long.parseLong(t[1])).ifPresent(ProcessHandle::destroy);
        awaitGone(t);
        assertEquals(List.of(), temporaries());
        assertFalse(Files.exists(target.resolve("perfj-report.aot.failed")), "a stopped run has not failed");

        assertEquals(LINE, run(Map.of(), "report").err(), "tried again");
        t = awaitTrainer(2);
        // SIGKILL to the trainer and the JVM's session (a JVM writing the cache starts another):
        // nothing runs to clean up
        ProcessHandle.of(Long.parseLong(t[1])).ifPresent(ProcessHandle::destroyForcibly);
        LauncherLayout.exec(List.of("kill", "-KILL", "--", "-" + t[0]), tmp);
        awaitGone(t);
        await("the lock's release", () -> !locked());
        assertEquals(List.of("perfj-report.aot." + t[1] + ".config"), temporaries());
        LauncherLayout.Run r = run(Map.of(), "report");
        assertEquals(LINE, r.err());
        String[] t3 = awaitTrainer(3);
        assertEquals(List.of("perfj-report.aot." + t3[1] + ".config"), temporaries(), "the killed trainer's file is gone");
        go();
        assertEquals(List.of(), temporaries());
    }

    @Test
    void aCacheThatCouldStopTheJvmIsLeftOutSayingSoOnlyUnderDebug() throws Exception {
        Files.writeString(cache, "cache");
        LauncherLayout.Run r = run(Map.of(), "report", "exit=3");
        assertEquals(3, r.rc(), "the command's exit status");
        assertTrue(r.out().startsWith("cache=" + cache + "\n"), r.out());

        Map<String, String> small = Map.of("PERFJ_JAVA_OPTS", "-Xmx128m");
        r = run(small, "report", "exit=3");
        assertEquals(3, r.rc());
        assertEquals("", r.err());
        assertTrue(r.out().startsWith("cache=none\n"), r.out());
        String said = "perfj: start-up cache not used: -Xmx128m could make the JVM stop at start with it\n";
        assertEquals(said, run(small, "report", "--debug", "exit=3").err());
        assertEquals(said, run(Map.of("PERFJ_JAVA_OPTS", "-Xmx128m", "PERFJ_DEBUG", "1"), "report").err());
        assertEquals(said.replace("-Xmx128m", "-Xmn8m"), run(Map.of("JAVA_TOOL_OPTIONS", "-Xmn8m"), "report", "--debug").err());

        // a collector of PERFJ_JAVA_OPTS replaces the option file's; the cache stays
        r = run(Map.of("PERFJ_JAVA_OPTS", "-XX:+UseG1GC"), "report", "--debug");
        assertEquals("", r.err());
        assertTrue(r.out().startsWith("cache=" + cache + "\n"), r.out());
        assertTrue(r.out().contains("-XX:-UseParallelGC"), r.out());
        assertEquals(0, trainers().size());
    }

    @Test
    void aFailedTrainingIsNotRepeatedUntilTheJarChanges() throws Exception {
        Files.writeString(state.resolve("fail"), "");
        assertEquals(LINE, run(Map.of(), "report", "exit=4").err());
        awaitTrainer(1);
        Files.writeString(state.resolve("go"), "");
        await("the failed training", () -> Files.exists(target.resolve("perfj-report.aot.failed")) && !locked());
        Files.delete(state.resolve("go"));
        LauncherLayout.Run r = run(Map.of(), "report", "exit=4");
        assertEquals(4, r.rc());
        assertEquals("", r.err());
        assertTrue(run(Map.of(), "report", "--debug").err().startsWith("perfj: no start-up cache for report: its training failed"));
        assertEquals(1, trainers().size());
        // a new jar: tried again
        Files.setLastModifiedTime(layout.jar, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() + 2000));
        assertEquals(LINE, run(Map.of(), "report").err());
        awaitTrainer(2);
    }

    @Test
    void trainInTheForegroundWaitsForTheBackgroundTrainer() throws Exception {
        run(Map.of(), "report");
        awaitTrainer(1);
        Process p = layout.start(layout.root, env, "./perfj", "--train", "report");
        await("--train to wait on the lock", () -> p.descendants()
                .anyMatch(d -> d.info().command().map(c -> c.endsWith("/flock")).orElse(false)));
        Files.writeString(state.resolve("go"), "");
        LauncherLayout.Run r = LauncherLayout.finish(p);
        assertEquals(0, r.rc(), r.err());
        assertEquals("perfj: waiting for the background training of report's start-up cache...\n", r.err());
        assertEquals(1, trainers().size(), "the background trainer made it");
        assertTrue(Files.exists(cache));
        r = run(Map.of(), "--train", "report", "nosuch");
        assertEquals(2, r.rc());
        assertEquals("perfj: --train: no option file perfj-cli/src/main/jvm/nosuch.options\n", r.err());
    }

    /** A cache the JVM did not map (damaged here): perfj's one line under --debug, nothing without. */
    @Test
    void perfjSaysUnderDebugThatTheJvmLeftTheCacheOut() throws Exception {
        Path bad = Files.writeString(tmp.resolve("bad.aot"), "not a cache");
        List<String> opts = List.of("-XX:AOTCache=" + bad, "-Xlog:aot=off:stderr", "-Xlog:cds=off:stderr", "-Dperfj.aot=" + bad);
        ChildJvm.Result r = ChildJvm.run("header", opts, false, "io.perfj.cli.Main", "header", "-i", "fixtures/c-fp.data", "--debug");
        assertEquals(0, r.rc(), r.err());
        assertEquals("perfj: start-up cache " + bad + " not used: the JVM could not map it (damaged, made by another JDK,"
                + " or other JVM options); deleting it has it made again\n", r.err());
        r = ChildJvm.run("header", opts, false, "io.perfj.cli.Main", "header", "-i", "fixtures/c-fp.data");
        assertEquals(0, r.rc(), r.err());
        assertEquals("", r.err());
    }

    /**
     * This JDK's own AOT cache, trained in the background on a stand-in AotTraining: used when
     * fresh ("sharing" in java.vm.info); left out under a heap that would stop the JVM with it
     * (shown: that JVM exits 1); kept with a collector of PERFJ_JAVA_OPTS; a truncated one is
     * skipped by the JVM, and the command's exit status stays its own.
     */
    @Test
    void thisJdkTrainsAndUsesACache() throws Exception {
        layout.write("perfj-cli/src/main/jvm/report.options", "-XX:+UseParallelGC\n-Xmn192m\n# train: x\n");
        layout.writeJar("Echo", Map.of(
                "Echo", """
                        public class Echo {
                            public static void main(String[] a) {
                                System.out.println("vm=" + System.getProperty("java.vm.info"));
                                for (String s : a) {
                                    if (s.startsWith("exit=")) {
                                        System.exit(Integer.parseInt(s.substring(5)));
                                    }
                                }
                            }
                        }
                        """,
                // the training run: loads a few classes of the JDK's
                "io.perfj.cli.AotTraining", """
                        package io.perfj.cli;
                        public class AotTraining {
                            public static void main(String[] a) {
                                System.out.println(java.util.List.of(a).stream().map(String::length).toList());
                            }
                        }
                        """));
        Map<String, String> real = Map.of("PERFJ_AOT", "1");
        LauncherLayout.Run r = layout.launch(layout.root, real, "./perfj", "report");
        assertEquals(0, r.rc(), r.err());
        assertEquals(LINE, r.err());
        await("this JDK's cache", () -> Files.exists(cache) && !locked());
        assertEquals(List.of(), temporaries());

        r = layout.launch(layout.root, real, "./perfj", "report");
        assertEquals("", r.err());
        assertTrue(r.out().contains("sharing"), "the cache is used: " + r.out());

        // why -Xmx128m leaves it out: the old generation left beside -Xmn192m cannot hold the
        // cache's archived objects, and this JVM stops
        Process direct = new ProcessBuilder(LauncherLayout.jdkTool("java"), "-XX:+UseParallelGC", "-Xmn192m", "-Xmx128m",
                "-XX:AOTCache=" + cache, "-Xlog:disable", "-jar", layout.jar.toString()).redirectErrorStream(true).start();
        String said = new String(direct.getInputStream().readAllBytes());
        assertTrue(direct.waitFor(2, java.util.concurrent.TimeUnit.MINUTES));
        assertEquals(1, direct.exitValue(), said);
        assertTrue(said.contains("Unable to use AOT cache"), said);
        r = layout.launch(layout.root, Map.of("PERFJ_AOT", "1", "PERFJ_JAVA_OPTS", "-Xmx128m"), "./perfj", "report", "exit=5");
        assertEquals(5, r.rc(), r.out() + r.err());

        r = layout.launch(layout.root, Map.of("PERFJ_AOT", "1", "PERFJ_JAVA_OPTS", "-XX:+UseG1GC"), "./perfj", "report");
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.out().contains("sharing"), "G1 maps the cache: " + r.out());

        try (FileChannel c = FileChannel.open(cache, StandardOpenOption.WRITE)) {
            c.truncate(4096);
        }
        r = layout.launch(layout.root, real, "./perfj", "report", "exit=6");
        assertEquals(6, r.rc(), r.out() + r.err());
        assertEquals("", r.err());
        assertFalse(r.out().contains("sharing"), r.out());
    }
}
