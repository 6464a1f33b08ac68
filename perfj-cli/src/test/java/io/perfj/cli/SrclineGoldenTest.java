package io.perfj.cli;

import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Source lines of srcline.data (fixtures/make-srcline.sh: a static program without libc, a
 * header function inlined into the hot loop, a function built without debug info): report's
 * srcline and srcfile sort keys, script's srcline field and annotate's --print-line, against
 * perf 6.1 ({@code --compat perf-6.1}) and perf 7.2 (by default).
 */
class SrclineGoldenTest {
    private static CliFixtures.Run run(boolean compat, String command, String... args) {
        List<String> a = new ArrayList<>(List.of(command));
        if (compat) {
            a.addAll(List.of("--compat", "perf-6.1"));
        }
        a.addAll(List.of("-i", Fixtures.recording("srcline").toString(),
                "--buildid-dir", BuildIdCacheFixture.unpacked("srcline.buildid-cache").toString(), "--no-system-files"));
        a.addAll(Arrays.asList(args));
        CliFixtures.Run r = CliFixtures.run(a.toArray(String[]::new));
        assertEquals(0, r.rc(), r.err());
        return r;
    }

    private static String golden(String kind, boolean perf72) {
        return Fixtures.golden("srcline", kind + (perf72 ? ".perf72" : ""));
    }

    private static String noTip(String text) {
        return String.join("\n", ReportGoldenTest.withoutTip(text));
    }

    private static String[] sort(String kind) {
        return switch (kind) {
            case "report-srcline" -> new String[] {"-s", "srcline"};
            case "report-sym-srcline" -> new String[] {"-s", "sym,srcline"};
            case "report-srcline-sym" -> new String[] {"-s", "srcline,sym"};
            case "report-dso-srcfile" -> new String[] {"-s", "dso,srcfile"};
            case "report-srcfile-srcline" -> new String[] {"-s", "srcfile,srcline"};
            default -> throw new IllegalArgumentException(kind);
        };
    }

    private static CliFixtures.Run report(boolean compat, String kind) {
        List<String> a = new ArrayList<>(List.of("--stdio", "--no-children", "-g", "none"));
        a.addAll(Arrays.asList(sort(kind)));
        return run(compat, "report", a.toArray(String[]::new));
    }

    @ParameterizedTest
    @ValueSource(strings = {"report-srcline", "report-sym-srcline", "report-srcline-sym", "report-dso-srcfile",
            "report-srcfile-srcline"})
    void reportIsPerf61sWithCompat(String kind) {
        assertEquals(noTip(golden(kind, false)), noTip(report(true, kind).out()));
    }

    /**
     * The inlined function's lines are its header's (the line table's row at the address), the
     * code without debug info is {@code ??:0}, the kernel without symbols the object and the
     * address; perf 7.2's srcfile of {@code ??:0} is {@code ??} (perf 6.1's empty).
     */
    @ParameterizedTest
    @ValueSource(strings = {"report-srcline", "report-sym-srcline", "report-srcline-sym", "report-dso-srcfile",
            "report-srcfile-srcline"})
    void reportIsPerf72sByDefault(String kind) {
        String out = report(false, kind).out();
        assertEquals(noTip(golden(kind, true)), noTip(out));
        if (kind.contains("srcline")) {
            assertTrue(out.contains("mix.h:6") && out.contains("??:0") && out.contains("[kernel.kallsyms]["), out);
        }
    }

    @Test
    void childrenAreLookedUpAtEachCallchainAddressAsPerf61DoesNotWithCompat() {
        CliFixtures.Run r = run(true, "report", "--stdio", "--children", "-g", "none", "-s", "srcline");
        assertEquals(noTip(golden("report-children-srcline", false)), noTip(r.out()));
    }

    /**
     * Each callchain address's entry has that address's line (perf 6.1 looks up the raw address
     * and prints churn+4194334), a level of an inline chain its level's: {@code churn}'s frame
     * at {@code mix()}'s addresses the call site {@code srcline.c:14}, as perf 7.2's. A sample
     * counts once in an entry, where perf 7.2 counts a sample's own line twice (its entry and
     * its leaf's are told apart by address).
     */
    @Test
    void childrenHaveEachCallchainAddressesLineByDefault() {
        String out = run(false, "report", "--stdio", "--children", "-g", "none", "-s", "srcline").out();
        String perf72 = golden("report-children-srcline", true);
        assertEquals("73.01%     0.00%", row(perf72, "srcline.c:14"));
        for (String line : List.of("srcline.c:46", "srcline.c:41", "srcline.c:14", "mix.h:6", "mix.h:4")) {
            assertEquals(row(perf72, line), row(out, line), out);
        }
        assertEquals("13.27%    13.27%", row(out, "srcline.c:13"), out);
        assertTrue(!out.contains("+4194"), out);
    }

    /** The Children and Self columns of the row of {@code key}. */
    private static String row(String text, String key) {
        for (String l : text.split("\n")) {
            if (l.endsWith("  " + key)) {
                return l.substring(0, l.length() - key.length()).strip();
            }
        }
        return null;
    }

    @ParameterizedTest
    @ValueSource(strings = {"script-srcline", "script-ip-sym-srcline"})
    void scriptIsPerf61sWithCompat(String kind) {
        String[] args = kind.equals("script-srcline") ? new String[] {"-F", "+srcline"}
                : new String[] {"-F", "ip,sym,srcline", "-G"};
        assertEquals(golden(kind, false), run(true, "script", args).out());
    }

    @Test
    void scriptWithoutCallchainsIsPerf72sByDefault() {
        assertEquals(golden("script-ip-sym-srcline", true), run(false, "script", "-F", "ip,sym,srcline", "-G").out());
    }

    /**
     * perf 7.2's output: {@code ??:0} where perf 6.1 prints no line, and the functions inlined at
     * frame-pointer addresses, each level with its own line from {@code addr2line -i} (the
     * frame's own function at the call site, {@code churn+0x1e} with {@code srcline.c:14}).
     */
    @Test
    void scriptPrintsUnknownLinesAsPerf72() {
        String out = run(false, "script", "-F", "+srcline").out();
        assertTrue(java.util.regex.Pattern.compile(
                "mix\\+0x1e\n  mix\\.h:6 \\(inlined\\)\n\t +40103e churn\\+0x1e \\([^)]*\\)\n  srcline\\.c:14\n")
                .matcher(out).find(), out);
        assertEquals(golden("script-srcline", true), out);
    }

    /**
     * script in the fixtures directory, where the line table's relative source paths
     * ({@code ./src/srcline/mix.h}) resolve: in a JVM of its own, started there.
     */
    private static String scriptInFixtures(boolean compat, String... fields) throws Exception {
        List<String> a = new ArrayList<>(List.of("script"));
        if (compat) {
            a.addAll(List.of("--compat", "perf-6.1"));
        }
        a.addAll(List.of("-i", "srcline.data", "--buildid-dir",
                BuildIdCacheFixture.unpacked("srcline.buildid-cache").toString(), "--no-system-files"));
        a.addAll(Arrays.asList(fields));
        ChildJvm.Result r = ChildJvm.run(Fixtures.dir(), "script", List.of(), true, Main.class.getName(),
                a.toArray(String[]::new));
        assertEquals(0, r.rc(), r.err());
        return r.out();
    }

    /**
     * {@code -F srccode}: after a sample, its line's source text ({@code |6            return x + i;}),
     * not again while the thread stays on that line; nothing for {@code fill} (no line) or the
     * kernel.
     */
    @ParameterizedTest
    @ValueSource(strings = {"script-srccode", "script-ip-sym-srccode"})
    void scriptSrccodeIsPerf61sWithCompat(String kind) throws Exception {
        String[] fields = kind.equals("script-srccode") ? new String[] {"-F", "+srccode"}
                : new String[] {"-F", "ip,sym,srccode", "-G"};
        String out = scriptInFixtures(true, fields);
        assertEquals(golden(kind, false), out);
        assertTrue(out.contains("|6            return x + i;\n"), out);
    }

    /** perf 7.2's source lines, in perf 7.2's script layout (with the frames inlined at frame-pointer addresses). */
    @Test
    void scriptSrccodeIsPerf72sByDefault() throws Exception {
        assertEquals(golden("script-ip-sym-srccode", true), scriptInFixtures(false, "-F", "ip,sym,srccode", "-G"));
        String want = golden("script-srccode", true);
        assertTrue(want.contains(" mix+0x1e (inlined)\n"), "perf 7.2 adds the inlined mix()");
        assertEquals(want, scriptInFixtures(false, "-F", "+srccode"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"--stdio", "--stdio2"})
    void annotatePrintLineIsPerf61sWithCompat(String layout) {
        AnnotateGoldenTest.assumeObjdump();
        String kind = layout.equals("--stdio") ? "annotate-print-line" : "annotate-print-line-stdio2";
        assertEquals(golden(kind, false), run(true, "annotate", layout, "--print-line", "churn").out());
    }

    /**
     * perf 7.2's summary, {@code // file:line} ends and layout (objdump without {@code -l}: no
     * {@code mix():} or {@code ./src/srcline/mix.h:5} lines; --stdio2 without text lines).
     */
    @ParameterizedTest
    @ValueSource(strings = {"--stdio", "--stdio2"})
    void annotatePrintLineIsPerf72sByDefault(String layout) {
        AnnotateGoldenTest.assumeObjdump();
        String kind = layout.equals("--stdio") ? "annotate-print-line" : "annotate-print-line-stdio2";
        String out = run(false, "annotate", layout, "--print-line", "churn").out();
        assertEquals(golden(kind, true), out);
        assertTrue(summary(out).contains("   51.28 mix.h:6\n"), out);
        if (layout.equals("--stdio")) {
            assertEquals(3, lineEnds(out).size(), out);
        }
    }

    /** The text before the listing's title ({@code --stdio}'s header or {@code --stdio2}'s Samples line). */
    private static String summary(String text) {
        int stdio = text.indexOf(" Percent |");
        return text.substring(0, stdio >= 0 ? stdio : text.indexOf("Samples: "));
    }

    private static List<String> lineEnds(String text) {
        return Arrays.stream(text.split("\n")).filter(l -> l.contains(" // ")).map(String::strip).toList();
    }
}
