package io.perfj.cli;

import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * minidebuginfo.data: a stripped program whose functions are named only by the xz-compressed
 * symbol table of its .gnu_debugdata (MiniDebugInfo, made as Fedora's find-debuginfo makes it;
 * fixtures/make-minidebuginfo.sh). The fixture tree is the --symfs root, the build-id cache is
 * empty. perf 7.2 names the functions from it; perf 6.1 does not read .gnu_debugdata and prints
 * addresses, which {@code --compat perf-6.1} reproduces.
 */
class MiniDebugInfoGoldenTest {
    @TempDir
    static Path emptyCache;

    private static String run(String... args) {
        List<String> a = new ArrayList<>(List.of(args));
        a.addAll(List.of("-i", Fixtures.recording("minidebuginfo").toString(), "--symfs", Fixtures.file("minidebuginfo").toString(),
                "--buildid-dir", emptyCache.toString(), "--no-system-files"));
        CliFixtures.Run r = CliFixtures.run(a.toArray(String[]::new));
        assertEquals(0, r.rc(), r.err());
        return r.out();
    }

    private static String noTip(String text) {
        return String.join("\n", ReportGoldenTest.withoutTip(text));
    }

    @Test
    void defaultNamesTheFunctionsAsPerf72() {
        String script = run("script");
        assertEquals(Fixtures.golden("minidebuginfo", "script.perf72"), script);
        assertTrue(script.contains(" scramble+0x") && script.contains(" step+0x"), "names from .gnu_debugdata");
        assertEquals(noTip(Fixtures.golden("minidebuginfo", "report.perf72")), noTip(run("report", "--stdio")));
        assertEquals(noTip(Fixtures.golden("minidebuginfo", "report-no-children.perf72")),
                noTip(run("report", "--stdio", "--no-children")));
    }

    @Test
    void compatLeavesTheMiniDebugInfoAsPerf61() {
        String script = run("script", "--compat", "perf-6.1");
        assertEquals(Fixtures.golden("minidebuginfo", "script"), script);
        assertFalse(script.contains("scramble"), "perf 6.1 does not read .gnu_debugdata");
        assertEquals(noTip(Fixtures.golden("minidebuginfo", "report")), noTip(run("report", "--stdio", "--compat", "perf-6.1")));
        assertEquals(noTip(Fixtures.golden("minidebuginfo", "report-no-children")),
                noTip(run("report", "--stdio", "--no-children", "--compat", "perf-6.1")));
    }
}
