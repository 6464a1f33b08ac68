package io.perfj.cli;

import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * python-perf.data: CPython 3.13 with {@code -X perf} (fixtures/make-python-perf.sh), recorded
 * with {@code --call-graph dwarf} in a chroot. Every Python call goes through a small trampoline
 * that CPython names in its perf map ({@code py::leaf:/tmp/perfj-pyperf/pyperf.py}); the
 * trampolines have no call frame information, so a stack ends at the first one. The --symfs tree
 * holds python3.13, libc and ld.so with their code zeroed; the map is in fixtures/perf-maps.
 */
class PythonPerfMapGoldenTest {
    @TempDir
    static Path emptyCache;

    private static Path tree() {
        return BuildIdCacheFixture.unpacked("python-perf.symfs");
    }

    private static String run(String... extra) {
        List<String> a = new ArrayList<>(List.of(extra));
        a.addAll(List.of("--no-inline", "-i", Fixtures.recording("python-perf").toString(), "--symfs", tree().toString(),
                "--buildid-dir", emptyCache.toString(), "--perf-map-dir", Fixtures.file("perf-maps").toString(),
                "--no-system-files"));
        CliFixtures.Run r = CliFixtures.run(a.toArray(String[]::new));
        assertEquals(0, r.rc(), r.err());
        return r.out();
    }

    private static List<String> rows(String report) {
        return report.lines().filter(ReportGoldenTest::isRow).toList();
    }

    @Test
    void compatScriptIsPerf61s() {
        String want = Fixtures.golden("python-perf", "script");
        assertTrue(want.contains(" py::leaf:/tmp/perfj-pyperf/pyperf.py+0x9 (/tmp/perf-"), "a trampoline frame in perf 6.1's golden");
        assertEquals(want, run("script", "--compat", "perf-6.1"));
    }

    /**
     * The report without children byte for byte; with children its rows: among the call graphs'
     * branches of equal percentage, one pair comes in another order than perf 6.1's, which orders
     * them by the addresses of their dso structures and keeps the chroot's libc.so.6 (another
     * device and inode than the host's of that path) as a dso made after python3.13's.
     */
    @Test
    void compatReportsArePerf61s() {
        assertEquals(String.join("\n", ReportGoldenTest.withoutTip(Fixtures.golden("python-perf", "report-no-children"))),
                String.join("\n", ReportGoldenTest.withoutTip(run("report", "--stdio", "--no-children", "--compat", "perf-6.1"))));
        assertEquals(rows(Fixtures.golden("python-perf", "report")), rows(run("report", "--stdio", "--compat", "perf-6.1")));
    }

    /**
     * The python3.13 samples' stacks are perf 7.2's but for class {@code dwarf-unopened-object}
     * (fixtures/README.md, "Default mode against perf 7.2"): perf 7.2 ends a DWARF stack before the
     * first frame whose object it cannot open (here a perf-map trampoline, or libm, which is not in
     * the tree), the sample's own frame included; perfj keeps that frame as the last one. The
     * samples of the chroot command before its exec are left out: its libc and ld.so are not the tree's.
     */
    @Test
    void defaultStacksArePerf72sWithTheirLastFrame() {
        List<List<String>> want = pythonStacks(Fixtures.golden("python-perf", "script.perf72"));
        String script = run("script");
        List<List<String>> got = pythonStacks(script);
        int kept = 0;
        for (List<String> s : got) {
            if (s.size() > 1 && !inTree(s.getLast())) {
                s.removeLast();
                kept++;
            }
        }
        assertEquals(String.join("\n", want.stream().map(s -> String.join("\n", s)).toList()),
                String.join("\n", got.stream().map(s -> String.join("\n", s)).toList()));
        assertTrue(kept > 100, "stacks ending in a frame perf 7.2 drops: " + kept);
        assertTrue(script.contains(" py::leaf:/tmp/perfj-pyperf/pyperf.py+0x9 (/tmp/perf-"), "the trampolines' names");
    }

    /** Whether a script frame line ({@code ADDR NAME (OBJECT)}) is in an object of the tree. */
    private static boolean inTree(String frame) {
        String object = frame.substring(frame.lastIndexOf(" (") + 2, frame.length() - 1);
        return object.startsWith("/") && Files.isRegularFile(tree().resolve(object.substring(1)));
    }

    /** Each python3.13 sample as its header line (spaces squeezed) and its frames. */
    private static List<List<String>> pythonStacks(String script) {
        List<List<String>> out = new ArrayList<>();
        List<String> cur = null;
        for (String l : script.split("\n")) {
            if (!l.isEmpty() && !l.startsWith("\t")) {
                cur = null;
                if (l.startsWith("python3.13 ")) {
                    cur = new ArrayList<>(List.of(l.replaceAll(" +", " ")));
                    out.add(cur);
                }
            } else if (cur != null && l.startsWith("\t")) {
                cur.add(l.strip());
            }
        }
        return out;
    }

    /** The sample rows are perf 7.2's (its call graphs lack the frames above). */
    @Test
    void defaultReportRowsArePerf72s() {
        assertEquals(rows(Fixtures.golden("python-perf", "report-no-children.perf72")), rows(run("report", "--stdio", "--no-children")));
    }
}
