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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code perfj record} on this machine: records the committed {@code bin/hot} for about a second
 * and reads the file back with perfj and, when it is installed, with perf. Skips itself where
 * perf_event_open is not permitted (kernel.perf_event_paranoid, no root) or not available.
 */
class RecordLiveTest {
    @TempDir
    static Path dir;
    static Path file;
    static CliFixtures.Run recorded;
    @BeforeAll
    static void record() {
        Assumptions.assumeTrue(Recorder.supported(), "perf_event_open is called on Linux x86-64/aarch64 only");
        file = dir.resolve("hot.data");
        recorded = CliFixtures.run("record", "-e", "cpu-clock", "-F", "999", "-g", "-o", file.toString(), "--",
                Fixtures.file("bin/hot").toString(), "1");
        Assumptions.assumeFalse(recorded.rc() != 0 && recorded.err().contains("perf_event_paranoid"),
                "perf_event_open is not permitted here: " + recorded.err().strip());
        assertEquals(0, recorded.rc(), recorded.err());
    }

    /**
     * The samples follow the CPU time the program had at the asked frequency, however loaded the
     * machine is (the program runs for a second of wall time, which on a busy machine is much
     * less CPU time): nothing is dropped between the rings and the file.
     */
    @Test
    void theSamplesFollowTheProgramsCpuTime() throws IOException {
        Path f = dir.resolve("timed.data");
        Path times = dir.resolve("timed.times");
        CliFixtures.Run r = CliFixtures.run("record", "-e", "cpu-clock", "-F", "999", "-o", f.toString(), "--",
                "/bin/sh", "-c", TIMED, Fixtures.file("bin/hot").toString(), "1", times.toString());
        assertEquals(0, r.rc(), r.err());
        int samples = 0;
        try (PerfData d = PerfData.open(f)) {
            RecordInput in = d.records();
            for (RawRecord rec = in.next(); rec != null; rec = in.next()) {
                samples += rec.type() == RecordType.SAMPLE ? 1 : 0;
            }
        }
        assertRate(samples, childCpuSeconds(times), 999);
    }

    /**
     * A shell that runs {@code $0 $1} and writes its children's CPU time to {@code $2} (the
     * shell's {@code times}): the yardstick of how many samples the program should have had.
     */
    static final String TIMED = "\"$0\" \"$1\" >/dev/null; times >\"$2\"";

    /** The children's user plus system time of a {@code times} output (its second line, {@code 0m1.23s 0m0.01s}). */
    static double childCpuSeconds(Path times) throws IOException {
        List<String> lines = Files.readAllLines(times);
        double sum = 0;
        for (String t : lines.get(1).strip().split("\\s+")) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+)m([\\d.]+)s").matcher(t);
            assertTrue(m.matches(), t);
            sum += Integer.parseInt(m.group(1)) * 60 + Double.parseDouble(m.group(2));
        }
        return sum;
    }

    /**
     * Samples at {@code hz} of {@code cpuSeconds} of CPU time: within 30% (the shell's clock
     * ticks are 10 ms, the program's start and end are not sampled alike), however loaded the
     * machine: the samples follow the CPU time the program had, not the wall time.
     */
    static void assertRate(int samples, double cpuSeconds, int hz) {
        double expected = cpuSeconds * hz;
        assertTrue(samples >= 0.7 * expected - 10 && samples <= 1.3 * expected + 10,
                samples + " samples for " + cpuSeconds + " s of CPU time at " + hz + " Hz");
    }

    @Test
    void perfjReadsItAndTheHottestSymbolIsTheHotLoop() throws IOException {
        assertTrue(recorded.err().contains("samples) ]"), recorded.err());
        int lost = 0;
        int samples = 0;
        try (PerfData d = PerfData.open(file)) {
            RecordInput in = d.records();
            for (RawRecord r = in.next(); r != null; r = in.next()) {
                lost += r.type() == RecordType.LOST ? 1 : 0;
                samples += r.type() == RecordType.SAMPLE ? 1 : 0;
            }
        }
        assertEquals(0, lost, "LOST records");
        // how many follows the CPU time the program had (theSamplesFollowTheProgramsCpuTime)
        assertTrue(samples > 0, "no samples");
        CliFixtures.Run r = CliFixtures.run("report", "--stdio", "--no-children", "-i", file.toString());
        assertEquals(0, r.rc(), r.err());
        String top = r.out().lines().filter(ReportGoldenTest::isRow).findFirst().orElseThrow();
        // hot spends about 62% in compute_a and 37% in leaf_mix
        assertTrue(top.contains("compute_a") || top.contains("leaf_mix"), top);
        assertTrue(r.out().contains("[.] compute_a") && r.out().contains("[.] leaf_mix"), r.out());
        CliFixtures.Run h = CliFixtures.run("header", "-i", file.toString());
        assertTrue(h.out().contains("# cmdline : perfj record -e cpu-clock -F 999 -g -o "), h.out());
        assertTrue(h.out().contains("# event : name = cpu-clock"), h.out());
    }

    @Test
    void perfReadsItAsPerfjDoes() throws Exception {
        List<String> report = perf("report", "--stdio", "-i", file.toString());
        Assumptions.assumeTrue(report != null, "perf is not installed");
        assertEquals("", report.get(1), "perf's warnings");
        // the machine's perf is perf 6.1 (which names no functions inlined at frame-pointer addresses)
        CliFixtures.Run r = CliFixtures.run("report", "--stdio", "--compat", "perf-6.1", "-i", file.toString());
        ReportGoldenTest.compare(report.get(0), r.out());
        List<String> header = perf("report", "--header-only", "-i", file.toString());
        assertEquals(header.get(0), CliFixtures.runPerf("header", "-i", file.toString()).out());
        assertEquals("", header.get(1));
    }

    /**
     * Every header feature perf 6.1 writes for the same recording on this machine is in perfj's
     * file too: the "missing features" lines of perf's header listing are the same for both files.
     */
    @Test
    void theFeaturesPerfWritesAreWrittenToo() throws Exception {
        Path perfFile = dir.resolve("perf-hot.data");
        List<String> rec = perf("record", "-q", "-e", "cpu-clock", "-F", "999", "-g", "-o", perfFile.toString(), "--",
                Fixtures.file("bin/hot").toString(), "0.2");
        Assumptions.assumeTrue(rec != null && Files.exists(perfFile), "perf is not installed or cannot record here");
        String theirs = missing(perf("report", "--header-only", "-i", perfFile.toString()).get(0));
        String ours = missing(perf("report", "--header-only", "-i", file.toString()).get(0));
        assertEquals(theirs, ours);
    }

    private static String missing(String header) {
        return header.lines().filter(l -> l.startsWith("# missing features:")).findFirst().orElse("(none missing)");
    }

    /**
     * {@code perfj record -o -}: perf's pipe mode on standard output, read by perfj's stream reader
     * and by {@code perf report -i -} alike. (The command's own output goes to standard error, where
     * perf sends it too; in this process both are the JVM's, not the test's.)
     */
    @Test
    void pipeModeIsReadByPerfjAndPerf() throws Exception {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        java.io.StringWriter err = new java.io.StringWriter();
        Path times = dir.resolve("pipe.times");
        int rc = Main.execute(new String[] {"record", "-e", "cpu-clock", "-F", "999", "-g", "-o", "-", "--",
                "/bin/sh", "-c", TIMED, Fixtures.file("bin/hot").toString(), "0.3", times.toString()}, out,
                new java.io.PrintWriter(err));
        assertEquals(0, rc, err.toString());
        Path stream = dir.resolve("pipe.data");
        Files.write(stream, out.toByteArray());
        int samples = 0;
        try (PerfData d = PerfData.openStream(new java.io.ByteArrayInputStream(out.toByteArray()), "pipe")) {
            assertTrue(d.isPipe());
            RecordInput in = d.orderedRecords();
            for (RawRecord r = in.next(); r != null; r = in.next()) {
                samples += r.type() == RecordType.SAMPLE ? 1 : 0;
            }
            assertEquals(List.of(), in.warnings());
        }
        assertRate(samples, childCpuSeconds(times), 999);
        CliFixtures.Run r = CliFixtures.run("report", "--stdio", "-i", stream.toString());
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.out().contains("[.] compute_a"), r.out());
        Assumptions.assumeTrue(perf("--version") != null, "perf is not installed");
        List<String> perf = run("sh", "-c", "perf report --stdio -i - < \"$0\"", stream.toString());
        assertEquals("", perf.get(1), "perf's warnings");
        // perf's order of rows with equal Children (its entry tree's) is reproduced with --compat;
        // the default orders them otherwise, and a live recording may have such rows
        CliFixtures.Run compat = CliFixtures.runPerf("report", "--stdio", "-i", stream.toString());
        assertEquals(0, compat.rc(), compat.err());
        ReportGoldenTest.compare(perf.get(0), compat.out());
        List<String> header = run("sh", "-c", "perf report --header-only -i - < \"$0\"", stream.toString());
        assertEquals(header.get(0), CliFixtures.runPerf("header", "-i", stream.toString()).out());
    }

    /**
     * A BPF program loaded before a system-wide recording and run during it (the committed
     * bin/prog.bpf.o, driven by src/bpf-driver.sh as for fixtures/bpf-sys.data): the file alone
     * gives its translated instructions as bpftool prints them, and annotate's two views.
     */
    @Test
    void aBpfProgramIsAnnotatedInBothViewsFromTheFileAlone() throws Exception {
        Path bpffs = Path.of("/sys/fs/bpf");
        Assumptions.assumeTrue(Files.isDirectory(bpffs) && Files.isWritable(bpffs), "no writable bpf file system");
        Path pin = bpffs.resolve("perfj_record_test_" + ProcessHandle.current().pid());
        List<String> load = run("bpftool", "prog", "load", Fixtures.file("bin/prog.bpf.o").toString(), pin.toString());
        Assumptions.assumeTrue(load != null, "bpftool is not installed");
        try {
            assertTrue(Files.exists(pin), "bpftool prog load: " + load);
            Path pkt = dir.resolve("pkt.bin");
            Files.write(pkt, new byte[64]);
            Path out = dir.resolve("bpf.data");
            CliFixtures.Run r = CliFixtures.run("record", "-a", "-g", "-e", "cpu-clock", "-F", "999", "-o", out.toString(),
                    "--", Fixtures.file("src/bpf-driver.sh").toString(), "1", pin.toString(), pkt.toString());
            assertEquals(0, r.rc(), r.err());
            String xlated = run("bpftool", "prog", "dump", "xlated", "pinned", pin.toString()).get(0);
            CliFixtures.Run x = CliFixtures.run("bpf", "-i", out.toString(), "--xlated", "perfj_xdp");
            assertEquals(xlated, x.out(), x.err());
            CliFixtures.Run jited = CliFixtures.run("annotate", "--stdio", "-i", out.toString(), "--bpf-view", "jited");
            assertTrue(jited.out().contains("_perfj_mix for cpu-clock") && jited.out().contains("x = (x ^ (x >> 13))"),
                    jited.out());
            CliFixtures.Run xv = CliFixtures.run("annotate", "--stdio", "-i", out.toString(), "--bpf-view", "xlated");
            assertTrue(xv.out().contains("eBPF bytecode") && xv.out().contains("(b7) r2 = -1"), xv.out());
            List<String> header = perf("report", "--header-only", "-I", "-i", out.toString());
            if (header != null) {
                assertTrue(header.get(0).contains("_perfj_mix addr 0x"), header.get(0));
                assertEquals("", header.get(1));
            }
        } finally {
            Files.deleteIfExists(pin);
        }
    }

    /**
     * Root's default rings are 8 MiB per CPU; root without CAP_IPC_LOCK and no RLIMIT_MEMLOCK
     * room (a container's root, say) may not lock that much: the recording falls back to perf's
     * 512 KiB rings, while the same size asked with -m is refused with the reason.
     */
    @Test
    void rootWithoutIpcLockFallsBackToPerfsRingSize() throws Exception {
        Assumptions.assumeTrue(Files.readString(Path.of("/proc/self/status")).lines()
                .anyMatch(l -> l.matches("Uid:\\s+0\\s.*")), "not root");
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")), "setpriv (util-linux) is not installed");
        String java = ProcessHandle.current().info().command().orElseThrow();
        String cp = System.getProperty("java.class.path");
        Path out = dir.resolve("nolock.data");
        // sh -c SCRIPT JAVA CLASSPATH FILE [OPTIONS...]: $0 $1 $2, then the options
        String record = "ulimit -l 0; j=$0; c=$1; o=$2; shift 2; exec \"$j\" --enable-native-access=ALL-UNNAMED -cp \"$c\""
                + " io.perfj.cli.Main record -a -e cpu-clock -F 999 -o \"$o\" \"$@\" -- sleep 0.3";
        List<String> auto = run("/usr/bin/setpriv", "--inh-caps=-ipc_lock", "--bounding-set=-ipc_lock",
                "sh", "-c", record, java, cp, out.toString());
        Assumptions.assumeFalse(auto.get(1).contains("perf_event_paranoid"), auto.get(1));
        assertTrue(auto.get(1).contains("samples) ]"), auto.get(1));
        try (PerfData d = PerfData.open(out)) {
            assertTrue(d.records().next() != null, "records");
        }
        List<String> asked = run("/usr/bin/setpriv", "--inh-caps=-ipc_lock", "--bounding-set=-ipc_lock",
                "sh", "-c", record, java, cp, out.toString(), "-m", "2048");
        assertTrue(asked.get(1).contains("cannot map the ring buffer of CPU") && asked.get(1).contains("2048 pages"),
                asked.get(1));
    }

    /**
     * perf_event_open refused: a user (nobody) recording another user's process (init) gets one
     * line naming kernel.perf_event_paranoid with its value and what each setting permits, a
     * non-zero exit and no stack trace. The forked JVM runs as nobody ({@link RecordFaultTest.OpenCopy}).
     */
    @Test
    void aRefusedOpenNamesPerfEventParanoid() throws Exception {
        Assumptions.assumeTrue(Files.readString(Path.of("/proc/self/status")).lines()
                .anyMatch(l -> l.matches("Uid:\\s+0\\s.*")), "not root");
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")), "setpriv (util-linux) is not installed");
        try (RecordFaultTest.OpenCopy cp = RecordFaultTest.OpenCopy.ofClassPath()) {
            ChildJvm.Result r = cp.asNobody("record", "-e", "cpu-clock", "-p", "1", "-o", cp.dir.resolve("init.data").toString());
            String err = r.err();
            assertEquals(1, r.rc(), err);
            String paranoid = Files.readString(Path.of("/proc/sys/kernel/perf_event_paranoid")).strip();
            assertTrue(err.contains("perf_event_open of cpu-clock") && err.contains("for task 1 failed")
                    && err.contains("kernel.perf_event_paranoid is " + paranoid + " (-a needs root"), err);
            assertEquals(1, err.strip().lines().count(), err);
            assertTrue(!err.contains("Exception") && !err.contains("\tat "), err);
        }
    }

    /** perf's standard output and error, or null without perf. */
    static List<String> perf(String... args) throws Exception {
        String[] cmd = new String[args.length + 1];
        cmd[0] = "perf";
        System.arraycopy(args, 0, cmd, 1, args.length);
        return run(cmd);
    }

    /** A program's standard output and error, or null when it is not installed. */
    static List<String> run(String... cmd) throws Exception {
        Path out = dir.resolve("perf.out");
        Path err = dir.resolve("perf.err");
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        } catch (IOException e) {
            return null;
        }
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "perf finished");
        return List.of(Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }
}
