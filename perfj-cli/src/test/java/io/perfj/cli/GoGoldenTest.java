package io.perfj.cli;

import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * go.data: a Go program built by {@code go build} (a static ET_EXEC executable with symbols and
 * DWARF but no GNU build-id, so found through its recorded path under --symfs), recorded with
 * frame-pointer call chains (fixtures/make-go.sh). Its hot function is main.churn, and
 * runtime.mallocgc is sampled through main.grow. The goldens are perf 6.1's (compared byte for
 * byte with {@code --compat perf-6.1}) and perf 7.2's (the default mode).
 */
class GoGoldenTest {
    private static final String MAIN = Fixtures.golden("go", "annotate-main-symbol").strip();

    private static CliFixtures.Run run(String... args) {
        List<String> a = new ArrayList<>(List.of(args));
        a.addAll(List.of("-i", Fixtures.recording("go").toString(), "--symfs",
                BuildIdCacheFixture.unpacked("go.symfs").toString(), "--no-system-files"));
        CliFixtures.Run r = CliFixtures.run(a.toArray(String[]::new));
        assertEquals(0, r.rc(), r.err());
        return r;
    }

    private static String withoutTip(String report) {
        return String.join("\n", ReportGoldenTest.withoutTip(report));
    }

    @Test
    void compatScriptIsPerf61s() {
        String want = Fixtures.golden("go", "script");
        assertTrue(want.contains("runtime.mallocgc+"), "runtime.mallocgc in perf 6.1's script");
        assertEquals(want, run("script", "--compat", "perf-6.1").out());
    }

    @Test
    void compatReportsArePerf61s() {
        assertEquals(withoutTip(Fixtures.golden("go", "report")), withoutTip(run("report", "--stdio", "--compat", "perf-6.1").out()));
        assertEquals(withoutTip(Fixtures.golden("go", "report-no-children")),
                withoutTip(run("report", "--stdio", "--no-children", "--compat", "perf-6.1").out()));
    }

    @Test
    void compatAnnotateIsPerf61s() {
        AnnotateGoldenTest.assumeObjdump();
        assertEquals(Fixtures.golden("go", "annotate-mallocgc"), run("annotate", "--stdio", "--compat", "perf-6.1", "runtime.mallocgc").out());
        assertEquals(Fixtures.golden("go", "annotate-main"), run("annotate", "--stdio", "--compat", "perf-6.1", MAIN).out());
    }

    /**
     * perf 7.2's script, the functions inlined at frame-pointer addresses included
     * ({@code NAME (inlined)} lines before the frame's own).
     */
    @Test
    void defaultScriptIsPerf72s() {
        String want = Fixtures.golden("go", "script.perf72");
        assertTrue(want.contains(" (inlined)\n"), "perf 7.2 names inlined functions");
        assertEquals(want, run("script").out());
    }

    /**
     * The default report is perf 7.2's, its {@code (inlined)} rows included; rows of equal
     * Children come in perf's tree order there and in perfj's documented total order here, so the
     * percentage sequence is compared, then the rows with their call graphs as a set.
     */
    @Test
    void defaultReportIsPerf72s() {
        String perf72 = Fixtures.golden("go", "report.perf72");
        List<String> want = ReportGoldenTest.withoutTip(perf72).stream().filter(ReportGoldenTest::isRow).toList();
        assertTrue(want.stream().anyMatch(l -> l.endsWith(" (inlined)")), "perf 7.2 has rows of inlined functions");
        String out = run("report", "--stdio").out();
        List<String> got = ReportGoldenTest.withoutTip(out).stream().filter(ReportGoldenTest::isRow).toList();
        assertEquals(String.join("\n", want.stream().map(ReportGoldenTest::firstPercent).toList()),
                String.join("\n", got.stream().map(ReportGoldenTest::firstPercent).toList()), "Children sequence");
        List<String> e = ReportGoldenTest.blocks(ReportGoldenTest.withoutTip(perf72));
        List<String> a = ReportGoldenTest.blocks(ReportGoldenTest.withoutTip(out));
        assertEquals(String.join("\n====\n", e.stream().sorted().toList()), String.join("\n====\n", a.stream().sorted().toList()));
    }

    /** Without children, the whole report is perf 7.2's. */
    @Test
    void defaultReportNoChildrenIsPerf72s() {
        String want = withoutTip(Fixtures.golden("go", "report-no-children.perf72"));
        assertTrue(want.contains("[.] " + MAIN), want);
        assertEquals(want, withoutTip(run("report", "--stdio", "--no-children").out()));
    }

    /**
     * The default annotation is perf 7.2's, but for the spelling of a shift by one: sid's objdump
     * (binutils 2.47) writes {@code shl $1,%r10d} where the host's 2.40 writes {@code shl %r10d}.
     */
    @Test
    void defaultAnnotateIsPerf72s() {
        AnnotateGoldenTest.assumeObjdump();
        for (String[] s : new String[][] {{"mallocgc", "runtime.mallocgc"}, {"main", MAIN}}) {
            String want = RustLldGoldenTest.implicitShiftCount(Fixtures.golden("go", "annotate-" + s[0] + ".perf72"));
            assertTrue(want.lines().count() >= 10, s[1] + ": " + want);
            assertEquals(want, RustLldGoldenTest.implicitShiftCount(run("annotate", "--stdio", s[1]).out()), s[1]);
        }
    }
}
