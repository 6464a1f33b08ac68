package io.perfj.cli;

import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * fixtures/zstd-bomb.data (fixtures/make-zstd-bomb.py): 148 KB of COMPRESSED records that inflate
 * to 2^28 FINISHED_ROUND records, 2 GiB, between seven samples. perf 6.1's report, script, stats
 * and header of it (fixtures/golden/zstd-bomb.*) are perfj's; fixtures/zstd-bomb-small.data, the
 * same with 100 rounds, has perf's whole dump, every round in its place. How long the commands
 * take is bench/zstd-bomb-vs-perf.sh's business, not a test's.
 */
class ZstdBombFixtureTest {
    private static String bomb() {
        return Fixtures.recording("zstd-bomb").toString();
    }

    @Test
    void reportIsPerfs() {
        CliFixtures.Run r = CliFixtures.run("report", "--stdio", "--no-system-files", "-i", bomb());
        assertEquals(0, r.rc(), r.err());
        assertEquals("", r.err());
        assertEquals(ReportGoldenTest.withoutTip(Fixtures.golden("zstd-bomb", "report")), ReportGoldenTest.withoutTip(r.out()));
    }

    /** perf 6.1's text (perf 7.2 refuses the file: fixtures/README.md, "Default mode against perf 7.2"). */
    @Test
    void scriptIsPerfs() {
        CliFixtures.Run r = CliFixtures.runPerf("script", "--no-system-files", "-i", bomb());
        assertEquals(0, r.rc(), r.err());
        assertEquals("", r.err());
        assertEquals(Fixtures.golden("zstd-bomb", "script"), r.out());
    }

    /** Every round counted, as perf report --stats counts them (268,435,456). */
    @Test
    void statsCountEveryRoundAsPerfDoes() {
        CliFixtures.Run r = CliFixtures.runPerf("dump", "--stats", "-i", bomb());
        assertEquals(0, r.rc(), r.err());
        assertEquals(Fixtures.golden("zstd-bomb", "stats"), r.out());
    }

    @Test
    void headerIsPerfs() {
        CliFixtures.Run r = CliFixtures.runPerf("header", "-i", bomb());
        assertEquals(0, r.rc(), r.err());
        assertEquals(RecordedFixtureTest.withoutCaptureTime(Fixtures.golden("zstd-bomb", "header")),
                RecordedFixtureTest.withoutCaptureTime(r.out()));
    }

    /** Each round of a run dumped where perf dumps it: two before the records they release, the rest after. */
    @Test
    void dumpOfTheSmallBombIsPerfs() {
        String small = Fixtures.recording("zstd-bomb-small").toString();
        CliFixtures.Run r = CliFixtures.runPerf("dump", "--no-system-files", "-i", small);
        assertEquals(0, r.rc(), r.err());
        assertEquals(Fixtures.golden("zstd-bomb-small", "D"),
                r.out().replace("@" + small + " [", "@zstd-bomb-small.data ["));
    }

    /** Report and script as the launcher starts them, in a 64 MiB heap (a young generation that fits it): nothing of the 2 GiB is kept. */
    @Test
    void reportAndScriptFitA64MiBHeap() throws Exception {
        ChildJvm.Result report = inSmallHeap("report", "--stdio");
        assertEquals(ReportGoldenTest.withoutTip(Fixtures.golden("zstd-bomb", "report")), ReportGoldenTest.withoutTip(report.out()));
        assertEquals(Fixtures.golden("zstd-bomb", "script"), inSmallHeap("script", "--compat", "perf-6.1").out());
    }

    private static ChildJvm.Result inSmallHeap(String command, String... options) throws Exception {
        List<String> args = new java.util.ArrayList<>(List.of(command));
        args.addAll(List.of(options));
        args.addAll(List.of("--no-system-files", "-i", bomb()));
        ChildJvm.Result r = ChildJvm.run(command, List.of("-Xmx64m", "-Xmn16m"), true, Main.class.getName(), args.toArray(new String[0]));
        assertFalse(r.err().contains("OutOfMemoryError"), r.err());
        assertEquals(0, r.rc(), r.err());
        return r;
    }
}
