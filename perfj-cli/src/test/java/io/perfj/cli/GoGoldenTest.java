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
     * perf 7.2's script without the frames of class {@code fp-inlines} (fixtures/README.md,
     * "Default mode against perf 7.2"): it adds the functions inlined at frame-pointer addresses
     * as {@code NAME (inlined)} lines, followed by the frame's own line, which for Go's DWARF comes
     * twice when the address is the function's own ({@code runtime.gcmarknewobject+0x50} two
     * times). Dropping the inlined lines and the repeated frame gives perf 7.2's {@code --no-inline}.
     */
    @Test
    void defaultScriptIsPerf72sWithoutFpInlines() {
        String want = Fixtures.golden("go", "script.perf72");
        assertTrue(want.contains(" (inlined)\n"), "perf 7.2 names inlined functions");
        List<String> frames = new ArrayList<>();
        for (String l : want.split("\n", -1)) {
            if (!l.endsWith(" (inlined)") && !(l.startsWith("\t") && !frames.isEmpty() && l.equals(frames.getLast()))) {
                frames.add(l);
            }
        }
        assertEquals(String.join("\n", frames), run("script").out());
    }

    /**
     * The default report's rows are perf 7.2's (rows of equal Children in perf's tree order, so
     * compared as a set after the percentage sequence), without its {@code (inlined)} rows
     * ({@code fp-inlines}); with {@code --no-inline} the call graphs are perf 7.2's too.
     */
    @Test
    void defaultReportIsPerf72s() {
        List<String> want = ReportGoldenTest.withoutTip(Fixtures.golden("go", "report.perf72")).stream()
                .filter(ReportGoldenTest::isRow).filter(l -> !l.endsWith(" (inlined)")).toList();
        List<String> got = ReportGoldenTest.withoutTip(run("report", "--stdio").out()).stream().filter(ReportGoldenTest::isRow).toList();
        assertEquals(String.join("\n", want.stream().map(ReportGoldenTest::firstPercent).toList()),
                String.join("\n", got.stream().map(ReportGoldenTest::firstPercent).toList()), "Children sequence");
        assertEquals(String.join("\n", want.stream().sorted().toList()), String.join("\n", got.stream().sorted().toList()));

        List<String> e = ReportGoldenTest.blocks(ReportGoldenTest.withoutTip(Fixtures.golden("go", "report-no-inline.perf72")));
        List<String> a = ReportGoldenTest.blocks(ReportGoldenTest.withoutTip(run("report", "--stdio", "--no-inline").out()));
        assertEquals(String.join("\n====\n", e.stream().sorted().toList()), String.join("\n====\n", a.stream().sorted().toList()));
    }

    /** Without children, the rows are perf 7.2's in its order (the graphs have {@code fp-inlines}). */
    @Test
    void defaultReportNoChildrenRowsArePerf72s() {
        List<String> want = Fixtures.golden("go", "report-no-children.perf72").lines().filter(ReportGoldenTest::isRow).toList();
        assertTrue(want.getFirst().endsWith("[.] " + MAIN), want.getFirst());
        assertEquals(String.join("\n", want),
                String.join("\n", run("report", "--stdio", "--no-children").out().lines().filter(ReportGoldenTest::isRow).toList()));
    }

    /**
     * perf 7.2 prints the instructions with the same percentages as perf 6.1 but without objdump's
     * line markers ({@code annotate-layout}): the addresses and percentages are compared (the
     * instructions' text is that of the objdump installed: sid's writes {@code shl $1,%r10d} where
     * binutils 2.40 writes {@code shl %r10d}).
     */
    @Test
    void defaultAnnotateHasPerf72sPercentages() {
        AnnotateGoldenTest.assumeObjdump();
        for (String[] s : new String[][] {{"mallocgc", "runtime.mallocgc"}, {"main", MAIN}}) {
            List<String> want = addressPercents(Fixtures.golden("go", "annotate-" + s[0] + ".perf72"));
            assertTrue(want.size() >= 10, s[1] + ": " + want.size());
            assertEquals(want, addressPercents(run("annotate", "--stdio", s[1]).out()), s[1]);
        }
    }

    private static List<String> addressPercents(String stdio) {
        return NonPieAnnotateTest.stdioInsns(stdio).stream().map(l -> l.substring(0, l.indexOf(' ', l.indexOf(' ') + 1))).toList();
    }
}
