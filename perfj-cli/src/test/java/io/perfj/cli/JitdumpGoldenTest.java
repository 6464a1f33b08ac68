package io.perfj.cli;

import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * perfj on node's raw recording and its jitdump against perf 6.1 on {@code perf inject --jit} of
 * the same recording (fixtures/make-jitdump.sh): the JIT code's objects and symbols come from
 * the dump alone (--jitdump-dir), everything else stays unresolved on both sides (no system
 * files; perf read a symfs holding only the jitted-*.so files inject wrote).
 */
class JitdumpGoldenTest {
    private static final String NAME = "node-jit";

    private static List<String> args(String command, String... more) {
        List<String> a = new ArrayList<>(List.of(command, "-i", Fixtures.recording(NAME).toString(), "--no-system-files",
                "--jitdump-dir", Fixtures.file("jitdump").toString()));
        if (command.equals("report")) {
            a.add(1, "--stdio");
        }
        a.addAll(List.of(more));
        return a;
    }

    record Variant(String kind, String[] args) {
    }

    static final List<Variant> REPORTS = List.of(
            new Variant("report", new String[0]),
            new Variant("report-dso-sym", new String[] {"--no-children", "-g", "none", "--sort", "dso,symbol"}),
            new Variant("report-sym", new String[] {"--no-children", "-g", "none", "--sort", "symbol"}),
            new Variant("report-children", new String[] {"--children", "-g", "none", "--sort", "comm,dso,symbol"}));

    /** With perf's own order of equal rows (--compat perf-6.1): every line equal. */
    @TestFactory
    Stream<DynamicTest> reportMatchesPerfOnTheInjectedFileLineForLine() {
        return REPORTS.stream().map(v -> DynamicTest.dynamicTest(v.kind(), () -> {
            CliFixtures.Run r = CliFixtures.runPerf(args("report", v.args()).toArray(new String[0]));
            assertEquals(0, r.rc(), r.err());
            assertEquals(String.join("\n", ReportGoldenTest.withoutTip(Fixtures.golden(NAME, v.kind()))),
                    String.join("\n", ReportGoldenTest.withoutTip(r.out())));
        }));
    }

    /** The default (a total order of equal rows): the same rows and percentages. */
    @TestFactory
    Stream<DynamicTest> reportHasPerfsRows() {
        return REPORTS.stream().skip(1).map(v -> DynamicTest.dynamicTest(v.kind(), () -> {
            CliFixtures.Run r = CliFixtures.run(args("report", v.args()).toArray(new String[0]));
            assertEquals(0, r.rc(), r.err());
            ReportGoldenTest.compare(Fixtures.golden(NAME, v.kind()), r.out());
        }));
    }

    @Test
    void scriptMatchesPerfOnTheInjectedFile() {
        CliFixtures.Run r = CliFixtures.runPerf(args("script").toArray(new String[0]));
        assertEquals(0, r.rc(), r.err());
        String golden = Fixtures.golden(NAME, "script");
        assertTrue(golden.contains("JS:*run /tmp/perfj-jitdump/hot.js:6:13+0x"), "the golden names node's JIT code");
        ScriptGoldenTest.assertSameLines(golden, r.out());
    }

    @Test
    void withoutTheDumpTheCodeIsUnnamedAndTheUserIsTold() {
        CliFixtures.Run r = CliFixtures.run("report", "--stdio", "-i", Fixtures.recording(NAME).toString(),
                "--no-system-files", "--no-children", "-g", "none", "--sort", "dso,symbol");
        assertEquals(0, r.rc(), r.err());
        assertTrue(!r.out().contains("jitted-"), "no jitted objects without a dump");
        assertTrue(r.err().contains("jit-") && r.err().contains("not found"), r.err());
    }

    /**
     * Annotate of the hottest JIT function (two pieces of code carry its name) from the code in
     * the dump: every instruction line (percent, offset, text) as perf printed it from objdump's
     * listing of inject's object. Source lines differ: perf's come from the .debug_line inject
     * wrote, where objdump shows node's damaged file names and the header lines of an ELF listing;
     * perfj shows the dump's positions as they are.
     */
    @Test
    void annotateInstructionsMatchPerf() throws java.io.IOException {
        AnnotateGoldenTest.assumeObjdump();
        String symbol = Fixtures.golden(NAME, "annotate-symbol").strip();
        CliFixtures.Run r = CliFixtures.runPerf(args("annotate", "--stdio", symbol).toArray(new String[0]));
        assertEquals(0, r.rc(), r.err());
        // objdump printed node's damaged file names as they are: not UTF-8
        String golden = java.nio.file.Files.readString(Fixtures.goldenFile(NAME + ".annotate-stdio.txt"),
                java.nio.charset.StandardCharsets.ISO_8859_1);
        assertEquals(instructions(golden), instructions(r.out()));
        assertEquals(titles(golden), titles(r.out()));
        assertTrue(r.out().contains("/tmp/perfj-jitdump/hot.js:") || r.out().contains(":6"), "source positions shown");
    }

    private static String instructions(String text) {
        return String.join("\n", text.lines().filter(l -> l.matches("^ +[0-9.]+ : +[0-9a-f]+:.*")).toList());
    }

    private static String titles(String text) {
        return String.join("\n", text.lines().filter(l -> l.startsWith(" Percent |")).toList());
    }
}
