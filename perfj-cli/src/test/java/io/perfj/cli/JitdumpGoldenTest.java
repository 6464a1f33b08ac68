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
        String[] g = annotated(true, "annotate-stdio");
        assertEquals(instructions(g[0]), instructions(g[1]));
        assertEquals(titles(g[0]), titles(g[1]));
        assertTrue(g[1].contains("/tmp/perfj-jitdump/hot.js:") || g[1].contains(":6"), "source positions shown");
    }

    /**
     * perf 7.2's annotate of the same function (its own perf inject, Debian sid's objdump):
     * every instruction line and title of perfj's default, once objdump 2.47's {@code shr $1,REG}
     * is spelled as the host's objdump spells it.
     */
    @Test
    void annotateInstructionsMatchPerf72() throws java.io.IOException {
        String[] g = annotated(false, "annotate-stdio.perf72");
        assertTrue(instructions(g[0]).contains(" shr    $1,%r15d"), "perf 7.2's objdump spells the count");
        assertEquals(instructions(RustLldGoldenTest.implicitShiftCount(g[0])), instructions(g[1]));
        assertEquals(titles(g[0]), titles(g[1]));
    }

    /** The golden {@code KIND} (objdump printed node's damaged file names as they are: not UTF-8) and perfj's annotate of its function. */
    private static String[] annotated(boolean perf61, String kind) throws java.io.IOException {
        AnnotateGoldenTest.assumeObjdump();
        String symbol = Fixtures.golden(NAME, "annotate-symbol").strip();
        String[] a = args("annotate", "--stdio", symbol).toArray(new String[0]);
        CliFixtures.Run r = perf61 ? CliFixtures.runPerf(a) : CliFixtures.run(a);
        assertEquals(0, r.rc(), r.err());
        return new String[] {java.nio.file.Files.readString(Fixtures.goldenFile(NAME + "." + kind + ".txt"),
                java.nio.charset.StandardCharsets.ISO_8859_1), r.out()};
    }

    private static final String[] SRCLINE = {"--no-children", "-g", "none", "--sort", "symbol,srcline"};

    /**
     * A golden of {@code --sort symbol,srcline} as text: node's damaged file names (not UTF-8)
     * read with U+FFFD for each byte that is not, and, on their rows, the blanks after them as one
     * (perf pads by bytes, so a name's width in the golden is not that of its replacement).
     */
    static String srclineText(String kind, String text) throws java.io.IOException {
        if (text == null) {
            text = new String(java.nio.file.Files.readAllBytes(Fixtures.goldenFile(NAME + "." + kind + ".txt")),
                    java.nio.charset.StandardCharsets.UTF_8);
        }
        return String.join("\n", text.lines().map(l -> l.indexOf('\ufffd') >= 0 ? l.replaceAll("(?<=\\S)  +", " ") : l).toList());
    }

    /**
     * perf 7.2's {@code --sort symbol,srcline}: the JIT code's lines from the dump's debug
     * info, node's damaged file names as they are (perf reads them from the {@code .debug_line}
     * inject wrote of them), the symbol and offset in code without debug info, the object and
     * the address elsewhere; the same rows and percentages (ties in perfj's order,
     * {@code equal-rows-order}).
     */
    @Test
    void srclineIsPerf72s() throws java.io.IOException {
        CliFixtures.Run r = CliFixtures.run(args("report", SRCLINE).toArray(new String[0]));
        assertEquals(0, r.rc(), r.err());
        ReportGoldenTest.compare(srclineText("report-sym-srcline.perf72", null), srclineText(null, r.out()));
    }

    /**
     * perf 6.1's {@code --sort symbol,srcline}, its rows of JIT code ({@code ??:0} in code
     * without the runtime's line entries): those of the other code are not compared (perf 6.1
     * read this machine's libc and node, which {@code --no-system-files} keeps perfj from).
     */
    @Test
    void srclineOfJitCodeIsPerf61s() throws java.io.IOException {
        CliFixtures.Run r = CliFixtures.runPerf(args("report", SRCLINE).toArray(new String[0]));
        assertEquals(0, r.rc(), r.err());
        List<String> want = jsRows(srclineText("report-sym-srcline", null));
        assertTrue(want.size() >= 7, "JIT rows: " + want);
        assertEquals(want, jsRows(srclineText(null, r.out())));
    }

    private static List<String> jsRows(String text) {
        return text.lines().filter(l -> ReportGoldenTest.isRow(l) && (l.contains("] JS:") || l.contains("] Builtin:")))
                .sorted().toList();
    }

    private static String instructions(String text) {
        return String.join("\n", text.lines().filter(l -> l.matches("^ +[0-9.]+ : +[0-9a-f]+:.*")).toList());
    }

    private static String titles(String text) {
        return String.join("\n", text.lines().filter(l -> l.startsWith(" Percent |")).toList());
    }
}
