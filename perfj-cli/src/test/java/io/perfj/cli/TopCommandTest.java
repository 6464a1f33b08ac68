package io.perfj.cli;

import io.perfj.record.Recorder;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code perfj top}: what it refuses in one line, and, where perf_event_open is permitted, a
 * two-second snapshot with the committed {@code bin/hot} running, whose loops are the hottest
 * symbols. The live checks skip themselves where recording is not permitted.
 */
class TopCommandTest {
    @Test
    void refusesWhatItDoesNotDoInOneLine() {
        for (List<String> args : List.of(List.of("top", "-d", "0"), List.of("top", "--stdio", "-d", "0"),
                List.of("top", "--stdio", "--sort", "cpu"), List.of("top", "--stdio", "-a", "-p", "1"),
                List.of("top", "--stdio", "-e", "no-such-event"), List.of("top", "--stdio", "-d", "1", "-p", "999999999"))) {
            CliFixtures.Run r = CliFixtures.run(args.toArray(String[]::new));
            assertTrue(r.rc() == 1 || r.rc() == 2, args + ": exit " + r.rc() + ", " + r.err());
            assertTrue(r.err().strip().lines().count() == 1 && r.err().startsWith("perfj"),
                    args + ": " + r.err());
        }
    }

    /** Runs top with {@code bin/hot} spinning for four seconds; the snapshot's output. */
    private static CliFixtures.Run withHot(boolean byPid, String... args) throws Exception {
        Assumptions.assumeTrue(Recorder.supported(), "perf_event_open is called on Linux x86-64/aarch64 only");
        Process hot = new ProcessBuilder(Fixtures.file("bin/hot").toString(), "4")
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            Thread.sleep(200);
            String[] a = new String[args.length + (byPid ? 2 : 0)];
            System.arraycopy(args, 0, a, 0, args.length);
            if (byPid) {
                a[args.length] = "-p";
                a[args.length + 1] = Long.toString(hot.pid());
            }
            CliFixtures.Run r = CliFixtures.run(a);
            Assumptions.assumeFalse(r.rc() != 0 && r.err().contains("perf_event_paranoid"),
                    "perf_event_open is not permitted here: " + r.err().strip());
            assertEquals(0, r.rc(), r.err());
            return r;
        } finally {
            hot.destroy();
            hot.waitFor(5, TimeUnit.SECONDS);
        }
    }

    private static List<String> rows(String out) {
        return out.lines().filter(l -> l.matches(" +[0-9.]+%  .*")).toList();
    }

    @Test
    void aProcessSnapshotHasHotsLoopsOnTop() throws Exception {
        CliFixtures.Run r = withHot(true, "top", "--stdio", "-d", "2", "-e", "cpu-clock", "-F", "999");
        List<String> rows = rows(r.out());
        assertTrue(r.out().startsWith("   PerfTop: "), r.out());
        assertTrue(rows.size() >= 2, r.out());
        // hot spends about 62% in compute_a and 37% in leaf_mix
        assertTrue(rows.get(0).matches(" +[0-9.]+%  hot +\\[\\.\\] (compute_a|leaf_mix)"), r.out());
        assertTrue(rows.get(1).matches(" +[0-9.]+%  hot +\\[\\.\\] (compute_a|leaf_mix)"), r.out());
    }

    @Test
    void withoutATerminalTopPrintsTheStdioSnapshot() throws Exception {
        // the tests' standard output is no terminal: as perf top, the stdio view instead
        CliFixtures.Run r = withHot(true, "top", "-d", "1", "-e", "cpu-clock", "-F", "999");
        assertTrue(r.out().startsWith("   PerfTop: "), r.out());
        assertTrue(rows(r.out()).stream().limit(2).anyMatch(l -> l.endsWith("[.] compute_a")), r.out());
    }

    @Test
    void aSystemWideSnapshotNamesHotsSymbolsByCommand() throws Exception {
        CliFixtures.Run r = withHot(false, "top", "--stdio", "-d", "2", "-e", "cpu-clock", "-F", "999",
                "--sort", "comm,dso,sym");
        List<String> rows = rows(r.out());
        // on a busy machine other tasks may be hotter: hot's two loops are among the first rows
        List<String> hotRows = rows.stream().limit(10).filter(l -> l.matches(" +[0-9.]+%  hot +hot +\\[\\.\\] .*")).toList();
        assertTrue(hotRows.stream().anyMatch(l -> l.endsWith("[.] compute_a")), r.out());
        assertTrue(hotRows.stream().anyMatch(l -> l.endsWith("[.] leaf_mix")), r.out());
    }

    /** top -g: report's Children/Self rows and callchain trees; --no-children: self rows with their callee trees. */
    @Test
    void withCallchainsTheSnapshotIsAChildrenReport() throws Exception {
        CliFixtures.Run r = withHot(true, "top", "--stdio", "-g", "-d", "2", "-e", "cpu-clock", "-F", "999",
                "--sort", "comm,dso,sym");
        assertTrue(r.out().startsWith("   PerfTop: "), r.out());
        assertTrue(r.out().contains("# Children      Self  Command"), r.out());
        // main calls both loops: its children share is (nearly) all of hot's, its self share 0
        assertTrue(r.out().lines().anyMatch(l -> l.matches(" +(9[0-9]|100)\\.[0-9]+% +0\\.00%  hot +hot +\\[\\.\\] main")), r.out());
        assertTrue(r.out().contains("---") && r.out().contains("compute_a"), r.out());
        CliFixtures.Run self = withHot(true, "top", "--stdio", "-g", "--no-children", "-d", "2", "-e", "cpu-clock",
                "-F", "999", "--sort", "comm,dso,sym");
        assertTrue(!self.out().contains("Children") && self.out().contains("---"), self.out());
        assertTrue(self.out().lines().anyMatch(l -> l.matches(" +[0-9.]+%  hot +hot +\\[\\.\\] (compute_a|leaf_mix)")),
                self.out());
    }
}
