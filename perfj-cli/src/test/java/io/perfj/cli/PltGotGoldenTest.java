package io.perfj.cli;

import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * pltgot.data: a program whose hot loop calls a library function through its .plt.got stub, and
 * a sized function with zero-sized labels inside it (fixtures/make-pltgot.sh). perf 6.1 names the
 * stub {@code _init} (the zero-sized symbol stretched over it), perf 7.2 {@code pg_step@plt}; both
 * name the function, not the labels, in report. pltsec.data is its IBT build (.plt.sec). Only
 * the programs and the library are in the build-id cache, so reports are restricted to them and
 * script to their frames.
 */
class PltGotGoldenTest {
    private static final String DSOS = "pltgot,libpgstep.so";

    private static CliFixtures.Run run(String... args) {
        return runOn("pltgot", args);
    }

    private static CliFixtures.Run runOn(String recording, String... args) {
        List<String> a = new ArrayList<>(Arrays.asList(args));
        a.addAll(List.of("-i", Fixtures.recording(recording).toString(), "--buildid-dir",
                BuildIdCacheFixture.unpacked("pltgot.buildid-cache").toString(), "--no-system-files"));
        CliFixtures.Run r = CliFixtures.run(a.toArray(new String[0]));
        assertEquals(0, r.rc(), r.err());
        return r;
    }

    private static void assertReport(String golden, CliFixtures.Run r) {
        assertReport("pltgot", golden, r);
    }

    private static void assertReport(String name, String golden, CliFixtures.Run r) {
        assertEquals(String.join("\n", ReportGoldenTest.withoutTip(Fixtures.golden(name, golden))),
                String.join("\n", ReportGoldenTest.withoutTip(r.out())));
    }

    @Test
    void reportAsPerf72() {
        CliFixtures.Run r = run("report", "--stdio", "--no-children", "-g", "none", "--sort", "dso,sym", "--dsos", DSOS);
        assertReport("report-dso-sym.perf72", r);
        assertTrue(r.out().contains("[.] pg_step@plt\n"), r.out());
    }

    @Test
    void reportAsPerf61() {
        assertReport("report-dso-sym", run("report", "--stdio", "--no-children", "-g", "none", "--sort", "dso,sym",
                "--dsos", DSOS, "--compat", "perf-6.1"));
    }

    /** The IBT build: .plt.sec entries and endbr64-prefixed .plt.got entries, named by perf 7.2 only. */
    @Test
    void pltSecReportAsPerf72() {
        CliFixtures.Run r = runOn("pltsec", "report", "--stdio", "--no-children", "-g", "none", "--sort", "dso,sym",
                "--dsos", "pltsec,libpgstep.so");
        assertReport("pltsec", "report-dso-sym.perf72", r);
        assertTrue(r.out().contains("[.] labs@plt\n"), r.out());
    }

    @Test
    void pltSecReportAsPerf61() {
        assertReport("pltsec", "report-dso-sym", runOn("pltsec", "report", "--stdio", "--no-children", "-g", "none",
                "--sort", "dso,sym", "--dsos", "pltsec,libpgstep.so", "--compat", "perf-6.1"));
    }

    @Test
    void scriptFramesAsPerf61() {
        CliFixtures.Run r = run("script", "-F", "comm,tid,ip,sym,symoff,dso", "--compat", "perf-6.1");
        List<String> want = ownFrames(Fixtures.golden("pltgot", "script"));
        assertEquals(639, want.size());
        assertEquals(want, ownFrames(r.out()));
    }

    /**
     * perf 7.2's names and offsets of the program's frames, except where it prints a label as an
     * inlined function instead of the frame (perf 7.2 has no inline information there: lbl_stub
     * has no DWARF): there perfj names the enclosing function, as both perfs' reports do.
     */
    @Test
    void scriptFramesAsPerf72() {
        List<String> p72 = symbols(ownFrames72(Fixtures.golden("pltgot", "script.perf72")));
        List<String> p61 = symbols(ownFrames(Fixtures.golden("pltgot", "script")));
        assertEquals(p61.size(), p72.size());
        List<String> want = new ArrayList<>();
        for (int i = 0; i < p72.size(); i++) {
            want.add(p72.get(i).endsWith(" (inlined)") ? p61.get(i) : p72.get(i));
        }
        assertTrue(want.stream().anyMatch(l -> l.startsWith("pg_step@plt+0x0 ")), "perf 7.2 names the stub");
        CliFixtures.Run r = run("script", "-F", "comm,tid,ip,sym,symoff,dso");
        assertEquals(want, symbols(ownFrames(r.out())));
    }

    private static List<String> ownFrames(String script) {
        return script.lines().filter(l -> l.endsWith("/bin/pltgot)") || l.endsWith("/bin/libpgstep.so)")).toList();
    }

    /** perf 7.2's frames of the two objects, and the inlined-label lines it prints in their place. */
    private static List<String> ownFrames72(String script) {
        return script.lines().filter(l -> l.endsWith("/bin/pltgot)") || l.endsWith("/bin/libpgstep.so)")
                || l.endsWith(" (inlined)")).toList();
    }

    /** "SYMBOL+OFFSET (OBJECT)" of frame lines, without the address. */
    private static List<String> symbols(List<String> frames) {
        return frames.stream().map(l -> l.strip().replaceFirst("^[0-9a-f]+ ", "")).toList();
    }
}
