package io.perfj.cli;

import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.RawRecord;
import io.perfj.perfdata.RecordInput;
import io.perfj.perfdata.RecordType;
import io.perfj.record.Recorder;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code perfj record} when things go wrong, on this machine: killed outright (SIGKILL), stopped
 * by signals its parent made it ignore, a full disk, paths it cannot write, a user who may not
 * profile the kernel. Each recorder runs in a JVM of its own (a process to kill); the file it
 * leaves is read by perfj and, where it is installed, by perf. Skips itself where
 * perf_event_open is not permitted or not available, and each case where what it needs (root,
 * mount, setpriv, kernel.perf_event_paranoid 2) is missing.
 */
class RecordFaultTest {
    @TempDir
    static Path dir;

    @BeforeAll
    static void permitted() {
        Assumptions.assumeTrue(Recorder.supported(), "perf_event_open is called on Linux x86-64/aarch64 only");
        CliFixtures.Run r = CliFixtures.run("record", "-e", "cpu-clock", "-o", dir.resolve("probe.data").toString(),
                "--", "true");
        Assumptions.assumeFalse(r.rc() != 0 && r.err().contains("perf_event_paranoid"),
                "perf_event_open is not permitted here: " + r.err().strip());
        assertEquals(0, r.rc(), r.err());
    }

    /** java and its options for perfj's main class in a JVM of its own, this test JVM's class path. */
    private static List<String> perfjWith(String classPath, String... args) {
        List<String> cmd = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElseThrow(),
                "-XX:-UsePerfData", "-XX:TieredStopAtLevel=1", "--enable-native-access=ALL-UNNAMED",
                "-cp", classPath, "io.perfj.cli.Main"));
        cmd.addAll(List.of(args));
        return cmd;
    }

    private static List<String> perfj(String... args) {
        return perfjWith(System.getProperty("java.class.path"), args);
    }

    /** The data size field of a perf.data file's header (0 until the recorder has written a pass). */
    private static long dataSize(Path f) throws IOException {
        if (!Files.exists(f) || Files.size(f) < 56) {
            return 0;
        }
        try (RandomAccessFile r = new RandomAccessFile(f.toFile(), "r")) {
            byte[] b = new byte[8];
            r.seek(48);
            r.readFully(b);
            return ByteBuffer.wrap(b).order(ByteOrder.nativeOrder()).getLong();
        }
    }

    /** Waits (generously: a loaded machine starts a JVM slowly) until the recording has written records. */
    private static void awaitRecords(Path f, Process p) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (dataSize(f) < 4096) {
            if (!p.isAlive()) {
                throw new AssertionError("the recorder ended before writing: " + readErr(p));
            }
            assertTrue(System.nanoTime() < deadline, "no records written to " + f + " in 120 s");
            Thread.sleep(50);
        }
    }

    private static String readErr(Process p) throws IOException {
        return new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    }

    /** SAMPLE records perfj's reader gives, with its warnings. */
    private static int samples(Path f, List<String> warnings) throws IOException {
        int n = 0;
        try (PerfData d = PerfData.open(f)) {
            warnings.addAll(d.warnings());
            RecordInput in = d.records();
            for (RawRecord r = in.next(); r != null; r = in.next()) {
                n += r.type() == RecordType.SAMPLE ? 1 : 0;
            }
            warnings.addAll(in.warnings());
        }
        return n;
    }

    /** Lines of {@code perf script -F tid} on the file (one per sample), or -1 without perf. */
    private static int perfScriptLines(Path f) throws Exception {
        List<String> r = run("perf", "script", "-F", "tid", "-i", f.toString());
        if (r == null) {
            return -1;
        }
        assertFalse(r.get(1).contains("Error") || r.get(1).contains("failed"), "perf script: " + r.get(1));
        return (int) r.get(0).lines().count();
    }

    /** SIGKILL to a recorder, then to the command it recorded (which a killed recorder leaves running). */
    private static void killWithCommand(Process p) throws InterruptedException {
        List<ProcessHandle> command = p.descendants().toList();
        p.destroyForcibly();
        boolean ended = p.waitFor(60, TimeUnit.SECONDS);
        command.forEach(ProcessHandle::destroyForcibly);
        assertTrue(ended, "killed");
    }

    /**
     * SIGKILL in the middle of a recording: the file reads in perfj and in perf, both giving the
     * same samples, every pass written before the kill (the header's data size follows the
     * passes); perfj's script agrees with its reader.
     */
    @Test
    void aKilledRecordersFileReadsInPerfjAndPerf() throws Exception {
        Path f = dir.resolve("killed.data");
        Process p = new ProcessBuilder(perfj("record", "-e", "cpu-clock", "-F", "999", "-g", "-o", f.toString(),
                "--", Fixtures.file("bin/hot").toString(), "600"))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            awaitRecords(f, p);
        } finally {
            killWithCommand(p);
        }
        assertEquals(137, p.exitValue());
        List<String> warnings = new ArrayList<>();
        int samples = samples(f, warnings);
        assertTrue(samples > 0, "no samples in the killed recorder's file");
        assertEquals(List.of(), warnings, "a killed file reads without a warning up to its last pass");
        CliFixtures.Run script = CliFixtures.run("script", "-F", "tid", "-i", f.toString());
        assertEquals(0, script.rc(), script.err());
        assertEquals(samples, script.out().lines().count());
        CliFixtures.Run report = CliFixtures.run("report", "--stdio", "-i", f.toString());
        assertEquals(0, report.rc(), report.err());
        assertTrue(report.out().contains("compute_a"), report.out());
        int perf = perfScriptLines(f);
        Assumptions.assumeTrue(perf >= 0, "perf is not installed");
        assertEquals(samples, perf, "samples perf reads");
    }

    /**
     * perf's own file killed the same way (its header's data size still 0): perfj reads it to the
     * end of the file, saying the data size was 0, as perf 7.2 does (perf 6.1 reads no such file).
     */
    @Test
    void aKilledPerfsFileReadsInPerfj() throws Exception {
        Path f = dir.resolve("perf-killed.data");
        Process p;
        try {
            p = new ProcessBuilder("perf", "record", "-e", "cpu-clock", "-F", "999", "-g", "-o", f.toString(),
                    "--", Fixtures.file("bin/hot").toString(), "600")
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            Assumptions.abort("perf is not installed");
            return;
        }
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            // perf writes at its rings' watermark: wait for a few of its writes
            while (!Files.exists(f) || Files.size(f) < 64 << 10) {
                if (!p.isAlive()) {
                    Assumptions.abort("perf cannot record here: " + readErr(p));
                }
                assertTrue(System.nanoTime() < deadline, "perf wrote nothing in 120 s");
                Thread.sleep(50);
            }
        } finally {
            killWithCommand(p);
        }
        assertEquals(0, dataSize(f), "perf's header before its end");
        List<String> warnings = new ArrayList<>();
        int samples = samples(f, warnings);
        assertTrue(samples > 0, "no samples in perf's killed file");
        assertTrue(warnings.stream().anyMatch(w -> w.contains("data size field is 0")), warnings.toString());
        CliFixtures.Run report = CliFixtures.run("report", "--stdio", "-i", f.toString());
        assertEquals(0, report.rc(), report.err());
        assertTrue(report.out().contains("compute_a"), report.out());
    }

    /**
     * SIGINT, SIGTERM and SIGHUP stop a recording and finish its file even where the parent made
     * the recorder ignore them (a shell's background job ignores SIGINT): the command is ended,
     * the file is whole (its features written) and the exit status is the signal's, 128 + its number.
     */
    @Test
    void signalsItsParentIgnoredStillStopTheRecording() throws Exception {
        String[][] signals = {{"INT", "2"}, {"TERM", "15"}, {"HUP", "1"}};
        for (String[] sig : signals) {
            Path f = dir.resolve("signal-" + sig[0] + ".data");
            List<String> cmd = new ArrayList<>(List.of("/bin/sh", "-c", "trap '' INT TERM HUP; exec \"$@\"", "sh"));
            cmd.addAll(perfj("record", "-e", "cpu-clock", "-F", "999", "-o", f.toString(), "--",
                    Fixtures.file("bin/hot").toString(), "600"));
            Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            List<ProcessHandle> command = List.of();
            try {
                awaitRecords(f, p);
                command = p.descendants().toList();
                Process kill = new ProcessBuilder("kill", "-" + sig[0], Long.toString(p.pid())).start();
                assertEquals(0, kill.waitFor());
                assertTrue(p.waitFor(120, TimeUnit.SECONDS), "SIG" + sig[0] + " did not stop the recording");
            } finally {
                if (p.isAlive()) {
                    p.destroyForcibly();
                }
            }
            String err = readErr(p);
            assertEquals(128 + Integer.parseInt(sig[1]), p.exitValue(), err);
            assertTrue(err.contains("samples) ]"), err);
            for (ProcessHandle h : command) {
                assertTrue(h.onExit().get(60, TimeUnit.SECONDS) != null, "the command was ended");
            }
            try (PerfData d = PerfData.open(f)) {
                assertEquals(List.of(), d.warnings(), "SIG" + sig[0]);
                assertNotEquals(0, dataSize(f));
                assertTrue(d.header().featureBits().size() > 5, "features of a finished file: " + d.header().featureBits());
            }
        }
    }

    /**
     * A full disk (a 2 MiB tmpfs): the recording and its command stop at once, one line names the
     * file and the cause, and the file reads in perfj and perf up to its last whole pass. DWARF
     * call chains (8 KiB a sample) fill the disk within a second.
     */
    @Test
    void aFullDiskStopsTheRecordingAtOnceAndKeepsWhatWasWritten() throws Exception {
        Assumptions.assumeTrue(isRoot(), "mounting a small tmpfs needs root");
        Path mnt = Files.createDirectory(dir.resolve("small"));
        List<String> mounted = run("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", mnt.toString());
        Assumptions.assumeTrue(mounted != null && mounted.get(1).isEmpty(), "cannot mount a tmpfs here: " + mounted);
        try {
            Path f = mnt.resolve("full.data");
            Process p = new ProcessBuilder(perfj("record", "-e", "cpu-clock", "-F", "999", "--call-graph", "dwarf",
                    "-o", f.toString(), "--", Fixtures.file("bin/hot").toString(), "600"))
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            List<ProcessHandle> command = new ArrayList<>();
            String err;
            try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300);
                while (p.isAlive() && System.nanoTime() < deadline) {
                    p.descendants().forEach(h -> {
                        if (!command.contains(h)) {
                            command.add(h);
                        }
                    });
                    Thread.sleep(50);
                }
                // long before the command's 600 s
                assertTrue(p.waitFor(1, TimeUnit.SECONDS), "the recording went on with a full disk");
                err = readErr(p);
            } finally {
                if (p.isAlive()) {
                    p.destroyForcibly();
                }
            }
            assertEquals(1, p.exitValue(), err);
            assertEquals(List.of("perfj: cannot write " + f + ": No space left on device"), err.strip().lines().toList());
            for (ProcessHandle h : command) {
                assertTrue(h.onExit().get(60, TimeUnit.SECONDS) != null, "the command was ended");
            }
            List<String> warnings = new ArrayList<>();
            int samples = samples(f, warnings);
            assertTrue(samples > 0, "no samples kept");
            assertEquals(List.of(), warnings);
            int perf = perfScriptLines(f);
            if (perf >= 0) {
                assertEquals(samples, perf, "samples perf reads");
            }
        } finally {
            run("umount", "-l", mnt.toString());
        }
    }

    /**
     * Paths that cannot be written: one line naming the file and why, exit status 1, and the
     * command never runs.
     */
    @Test
    void anUnwritablePathIsOneLineAndTheCommandNeverRuns() throws Exception {
        Path notDir = Files.writeString(dir.resolve("a-file"), "x");
        Path ran = dir.resolve("ran");
        String[][] cases = {
            {dir.resolve("no-such-dir/x.data").toString(), "no such directory"},
            {notDir.resolve("x.data").toString(), "Not a directory"},
            {"/proc/perfj-test.data", ""},
        };
        for (String[] c : cases) {
            CliFixtures.Run r = CliFixtures.run("record", "-e", "cpu-clock", "-o", c[0], "--",
                    "/bin/sh", "-c", "touch \"$0\"", ran.toString());
            assertEquals(1, r.rc(), r.err());
            assertEquals(1, r.err().strip().lines().count(), r.err());
            assertTrue(r.err().startsWith("perfj: cannot write " + c[0] + ": ") && r.err().contains(c[1]), r.err());
            assertFalse(r.err().contains("Exception") || r.err().contains("\tat "), r.err());
            assertFalse(Files.exists(ran), "the command ran");
        }
    }

    /**
     * A user who may not profile the kernel (kernel.perf_event_paranoid 2): an event asked for
     * the kernel only ({@code :k}) is refused in one line, as perf refuses it; others fall back to
     * user space once, with one warning, under the name of what was recorded ({@code :u} added
     * as perf adds it), never the name that was asked.
     */
    @Test
    void aUserWhoMayNotProfileTheKernelGetsWhatWasRecordedByItsName() throws Exception {
        Assumptions.assumeTrue(isRoot(), "running as another user needs root");
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")), "setpriv (util-linux) is not installed");
        String paranoid = Files.readString(Path.of("/proc/sys/kernel/perf_event_paranoid")).strip();
        Assumptions.assumeTrue(Integer.parseInt(paranoid) >= 2, "kernel.perf_event_paranoid is " + paranoid + ", not 2");
        try (OpenCopy cp = OpenCopy.ofClassPath()) {
            ChildJvm.Result k = cp.asNobody("record", "-e", "cpu-clock:k", "-o", cp.dir.resolve("k.data").toString(),
                    "--", "true");
            assertEquals(1, k.rc(), k.err());
            assertEquals(1, k.err().strip().lines().count(), k.err());
            assertTrue(k.err().contains("perf_event_open of cpu-clock:k") && k.err().contains("counts the kernel only"),
                    k.err());
            String[][] fallbacks = {{"", "cpu-clock:u"}, {"cpu-clock", "cpu-clock:u"}, {"cpu-clock:p", "cpu-clock:pu"},
                {"cpu-clock,page-faults", "cpu-clock:u"}};
            for (String[] fb : fallbacks) {
                Path out = cp.dir.resolve("u.data");
                List<String> args = new ArrayList<>(List.of("record"));
                if (!fb[0].isEmpty()) {
                    args.addAll(List.of("-e", fb[0]));
                }
                args.addAll(List.of("-o", out.toString(), "--", "true"));
                ChildJvm.Result u = cp.asNobody(args.toArray(String[]::new));
                assertEquals(0, u.rc(), u.err());
                assertEquals(1, u.err().lines().filter(l -> l.contains("perf_event_paranoid")).count(), u.err());
                CliFixtures.Run h = CliFixtures.run("header", "-i", out.toString());
                assertTrue(h.out().contains("# event : name = " + fb[1] + ", "), fb[0] + ":\n" + h.out());
                assertTrue(h.out().lines().filter(l -> l.startsWith("# event : ")).allMatch(l -> l.contains("exclude_kernel = 1")),
                        h.out());
            }
        }
    }

    /** A program's standard output and error, or null when it is not installed. */
    private static List<String> run(String... cmd) throws Exception {
        Path out = Files.createTempFile(dir, "run", ".out");
        Path err = Files.createTempFile(dir, "run", ".err");
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        } catch (IOException e) {
            return null;
        }
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), String.join(" ", cmd) + " finished");
        return List.of(Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    private static boolean isRoot() throws IOException {
        return Files.readString(Path.of("/proc/self/status")).lines().anyMatch(l -> l.matches("Uid:\\s+0\\s.*"));
    }

    /**
     * This JVM's class path copied where any user may read it (the build's directories may not
     * be readable by nobody), for perfj run as user nobody; removed on close.
     */
    static final class OpenCopy implements AutoCloseable {
        final Path dir;
        final String classPath;

        private OpenCopy(Path dir, String classPath) {
            this.dir = dir;
            this.classPath = classPath;
        }

        static OpenCopy ofClassPath() throws IOException {
            Path open = Files.createTempDirectory(Path.of("/tmp"), "perfj-nobody");
            Files.setPosixFilePermissions(open, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
            StringBuilder cp = new StringBuilder();
            int n = 0;
            for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
                Path from = Path.of(entry);
                if (!Files.exists(from)) {
                    continue;
                }
                Path to = open.resolve(n++ + "-" + from.getFileName());
                try (var walk = Files.walk(from)) {
                    for (Path f : (Iterable<Path>) walk::iterator) {
                        Path t = to.resolve(from.relativize(f).toString());
                        Files.copy(f, t);
                        Files.setPosixFilePermissions(t, java.nio.file.attribute.PosixFilePermissions
                                .fromString(Files.isDirectory(t) ? "rwxr-xr-x" : "rw-r--r--"));
                    }
                }
                cp.append(cp.isEmpty() ? "" : java.io.File.pathSeparator).append(to);
            }
            return new OpenCopy(open, cp.toString());
        }

        /** perfj with these arguments as user nobody, in this copy's directory. */
        ChildJvm.Result asNobody(String... args) throws IOException, InterruptedException {
            List<String> cmd = new ArrayList<>(List.of("/usr/bin/setpriv", "--reuid=65534", "--regid=65534",
                    "--clear-groups"));
            cmd.addAll(perfjWith(classPath, args));
            Process p = new ProcessBuilder(cmd).directory(dir.toFile())
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            String err = readErr(p);
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "perfj finished");
            return new ChildJvm.Result(p.exitValue(), "", err);
        }

        @Override
        public void close() throws IOException {
            try (var walk = Files.walk(dir)) {
                for (Path f : (Iterable<Path>) walk.sorted(java.util.Comparator.reverseOrder())::iterator) {
                    Files.delete(f);
                }
            }
        }
    }
}
