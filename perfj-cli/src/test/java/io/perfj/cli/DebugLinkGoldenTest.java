package io.perfj.cli;

import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * debuglink-beside.data and debuglink-dotdebug.data: a stripped program and library whose
 * symbols and DWARF are only in separate debug files named by their .gnu_debuglink, beside them
 * or in .debug/ beside them (fixtures/make-debuglink.sh). The fixture tree is the --symfs root
 * and the build-id cache is empty, so every name comes from a debug file found through the link.
 */
class DebugLinkGoldenTest {
    @TempDir
    static Path emptyCache;

    private static CliFixtures.Run run(String variant, String... args) {
        List<String> a = new ArrayList<>(List.of(args));
        a.addAll(List.of("-i", Fixtures.recording("debuglink-" + variant).toString(),
                "--symfs", Fixtures.file("debuglink").toString(),
                "--buildid-dir", emptyCache.toString(), "--no-system-files"));
        CliFixtures.Run r = CliFixtures.run(a.toArray(String[]::new));
        assertEquals(0, r.rc(), r.err());
        return r;
    }

    private static String golden(String variant, String kind) {
        return Fixtures.golden("debuglink-" + variant, kind);
    }

    private static String noTip(String text) {
        return String.join("\n", ReportGoldenTest.withoutTip(text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"beside", "dotdebug"})
    void compatReportIsPerf61s(String variant) {
        CliFixtures.Run r = run(variant, "report", "--stdio", "--compat", "perf-6.1");
        assertEquals(noTip(golden(variant, "report")), noTip(r.out()));
        assertTrue(r.out().contains("[.] cmp_u32") && r.out().contains("[.] poly_pass"), r.out());
    }

    @ParameterizedTest
    @ValueSource(strings = {"beside", "dotdebug"})
    void compatScriptIsPerf61s(String variant) {
        CliFixtures.Run r = run(variant, "script", "--compat", "perf-6.1");
        assertEquals(golden(variant, "script"), r.out());
    }

    @ParameterizedTest
    @ValueSource(strings = {"beside", "dotdebug"})
    void reportBySymbolIsPerf72s(String variant) {
        CliFixtures.Run r = run(variant, "report", "--stdio", "--no-children", "-g", "none", "--sort", "dso,symbol");
        assertEquals(noTip(golden(variant, "report-dso-sym.perf72")), noTip(r.out()));
        assertTrue(r.out().matches("(?s).*dlprog +\\[\\.\\] main .*"), r.out());
    }

    /**
     * By default script is perf 7.2's: every frame named from the debug file found through the
     * link, the functions inlined at frame-pointer frames ({@code mix_block (inlined)}) included.
     */
    @ParameterizedTest
    @ValueSource(strings = {"beside", "dotdebug"})
    void scriptIsPerf72sByDefault(String variant) {
        Assumptions.assumeTrue(ScriptGoldenTest.addr2line(), "addr2line (binutils) is not installed");
        String want = golden(variant, "script.perf72");
        assertTrue(want.contains(" cmp_u32+") && want.contains(" poly_pass+"), "names in perf 7.2's golden");
        assertTrue(want.contains(" (inlined)\n"), "inlined functions in perf 7.2's golden");
        assertEquals(want, run(variant, "script").out());
    }

    /** By default the report, call graphs and children rows included, is perf 7.2's. */
    @ParameterizedTest
    @ValueSource(strings = {"beside", "dotdebug"})
    void reportIsPerf72sByDefault(String variant) {
        Assumptions.assumeTrue(ScriptGoldenTest.addr2line(), "addr2line (binutils) is not installed");
        assertEquals(noTip(golden(variant, "report.perf72")), noTip(run(variant, "report", "--stdio").out()));
    }

    /**
     * debuglink-dwarf.data (DWARF call chains): the frames in the program and the library, and
     * the functions inlined at them (mix_block in main, from the DWARF of the debug file), are
     * perf's. Only those frames are compared: libc is not under the symfs, where perf's unwinder
     * stops (perf 6.1 then prints no frame at all) and perfj still prints the sampled address.
     */
    @ParameterizedTest
    @ValueSource(strings = {"perf-6.1", "perf-7.2"})
    void dwarfFramesOfTheLinkedObjectsAndTheirInlinesArePerfs(String perf) {
        boolean compat = perf.equals("perf-6.1");
        CliFixtures.Run r = compat ? run("dwarf", "script", "--compat", "perf-6.1") : run("dwarf", "script");
        List<String> want = ownFrames(golden("dwarf", compat ? "script" : "script.perf72"));
        assertEquals(want, ownFrames(r.out()));
        assertTrue(want.contains("mix_block+0xe9 (inlined)"), want.toString());
    }

    private static List<String> ownFrames(String script) {
        List<String> out = new ArrayList<>();
        for (String l : script.split("\n")) {
            if (l.startsWith("\t") && (l.contains("/perfj-debuglink/") || l.endsWith(" (inlined)"))) {
                out.add(l.strip().replaceFirst("^[0-9a-f]+ ", ""));
            }
        }
        return out;
    }
}
