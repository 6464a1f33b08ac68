package io.perfj.fleet;

import io.perfj.cli.Main;
import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code perfj fleet} on the command line: report's output, and its errors as one line. */
class FleetCommandTest {
    private static Path fleet;

    @BeforeAll
    static void register() throws Exception {
        fleet = Files.createDirectories(Path.of("target", "fleet-test", "cli"));
        Path h = Files.createDirectories(fleet.resolve("web1"));
        Files.copy(Fixtures.recording("c-fp"), h.resolve("c-fp.data"), StandardCopyOption.REPLACE_EXISTING);
    }

    private record Run(int rc, String out, String err) {
    }

    private static Run run(String... args) {
        List<String> a = new ArrayList<>(List.of(args));
        a.addAll(List.of("--buildid-dir", BuildIdCacheFixture.dir().toString(), "--no-system-files",
                "--perf-map-dir", Fixtures.file("perf-maps").toString()));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StringWriter err = new StringWriter();
        int rc = Main.execute(a.toArray(String[]::new), out, new PrintWriter(err, true));
        return new Run(rc, out.toString(StandardCharsets.UTF_8), err.toString());
    }

    /** The command line finds fleet on its class path (a ServiceLoader provider), and lists it. */
    @Test
    void fleetIsFoundOnTheClassPath() {
        Run help = run("--help");
        assertTrue(help.out().lines().anyMatch(l -> l.trim().startsWith("fleet")), help.out());
        Run fleetHelp = run("fleet", "--help");
        assertEquals(0, fleetHelp.rc(), fleetHelp.err());
    }

    @Test
    void fleetReportOfOneRecordingIsItsReport() {
        Run single = run("report", "--stdio", "--no-children", "-g", "none", "-n", "-i",
                fleet.resolve("web1/c-fp.data").toString());
        Run f = run("fleet", "report", fleet.toString(), "-n");
        assertEquals(0, f.rc(), f.err());
        assertEquals(single.out(), f.out());
        assertEquals("", f.err().lines().filter(l -> !l.startsWith("perfj fleet: WARN")).reduce("", String::concat));
    }

    /** -g and --children as report takes them (report's defaults for a recording with callchains). */
    @Test
    void callGraphsAndChildrenAsReportPrintsThem() {
        String file = fleet.resolve("web1/c-fp.data").toString();
        for (String[] g : List.of(new String[]{"-g", "graph"}, new String[]{"-g", "graph,0.5,callee", "--no-children"},
                new String[]{"-g", "folded", "--children"})) {
            List<String> single = new ArrayList<>(List.of("report", "--stdio", "-i", file));
            single.addAll(List.of(g));
            List<String> fleetArgs = new ArrayList<>(List.of("fleet", "report", fleet.toString()));
            fleetArgs.addAll(List.of(g));
            Run expected = run(single.toArray(String[]::new));
            Run f = run(fleetArgs.toArray(String[]::new));
            assertEquals(0, f.rc(), f.err());
            assertTrue(expected.out().contains("--"), expected.out());
            assertEquals(expected.out(), f.out(), String.join(" ", g));
        }
    }

    @Test
    void sqlPrintsRowsUnderAHeader() {
        Run r = run("fleet", "sql", fleet.toString(),
                "SELECT host, count(*) AS n FROM samples GROUP BY host ORDER BY host");
        assertEquals(0, r.rc(), r.err());
        List<String> lines = r.out().lines().toList();
        assertEquals("host\tn", lines.getFirst());
        assertEquals(2, lines.size(), r.out());
        assertTrue(lines.get(1).startsWith("web1\t"), r.out());
    }

    @Test
    void aDamagedRecordingIsOneLineNamingIt() throws Exception {
        Path dir = Files.createDirectories(Path.of("target", "fleet-test", "damaged", "web2"));
        Path bad = dir.resolve("bad.data");
        byte[] b = Files.readAllBytes(Fixtures.recording("c-fp"));
        // the header's size field (offset 8) made absurd
        for (int i = 8; i < 16; i++) {
            b[i] = (byte) 0x7f;
        }
        Files.write(bad, b);
        Run r = run("fleet", "report", dir.getParent().toString());
        assertEquals(2, r.rc(), r.err());
        List<String> lines = r.err().lines().filter(l -> !l.startsWith("perfj fleet: ")).toList();
        assertEquals(1, lines.size(), r.err());
        assertTrue(lines.getFirst().startsWith("perfj: " + bad.toAbsolutePath()), r.err());
        assertTrue(lines.getFirst().contains("offset 0x8"), r.err());
    }

    @Test
    void aBadConditionIsOneLine() {
        Run r = run("fleet", "report", fleet.toString(), "--where", "no_such_column = 1");
        assertEquals(1, r.rc(), r.err());
        List<String> lines = r.err().lines().filter(l -> !l.startsWith("perfj fleet: ")).toList();
        assertEquals(1, lines.size(), r.err());
        assertTrue(lines.getFirst().startsWith("perfj: fleet: "), r.err());
    }

    @Test
    void notADirectory() {
        Run r = run("fleet", "report", fleet.resolve("nothing").toString());
        assertEquals(1, r.rc(), r.err());
        assertTrue(r.err().contains("is not a directory"), r.err());
    }

    /** fleet serve: the page's address first on standard output, the sums' summary on standard error. */
    @Test
    void serveStartsTheUiOfTheFleet() {
        Run r = run("fleet", "serve", fleet.toString(), "--exit-after-start");
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.out().lines().findFirst().orElse("").matches("http://127\\.0\\.0\\.1:\\d+/[0-9a-f]{32}/"), r.out());
        assertTrue(r.err().matches("(?s).*: \\d+ samples in \\d+ distinct stacks, 1 threads on 1 hosts, 1 events .*"),
                r.err());
    }

    @Test
    void serveOfAnEventNotRecordedIsOneLine() {
        Run r = run("fleet", "serve", fleet.toString(), "--event", "cycles", "--exit-after-start");
        assertEquals(1, r.rc(), r.err());
        List<String> lines = r.err().lines().filter(l -> !l.startsWith("perfj fleet: ")).toList();
        assertEquals(List.of("perfj: reading the fleet " + fleet + " ...",
                "perfj: " + fleet + ": no samples of event 'cycles' (the recording has: cpu-clock)"), lines, r.err());
        assertEquals("", r.out());
    }
}
