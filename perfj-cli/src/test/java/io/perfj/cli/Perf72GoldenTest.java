package io.perfj.cli;

import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * perfj's default mode against perf 7.2 on the first fixtures (fixtures/make-perf72-goldens.sh):
 * each output equals perf 7.2's, except those listed in {@code golden/perf72-differences.txt}
 * with the class of the difference (the table "Default mode against perf 7.2" in
 * fixtures/README.md says what each class is and why). Listed outputs must still differ, so the
 * list can neither hide a new difference nor keep one that is gone.
 *
 * <p>Two of perf 7.2's own differences are undone before comparing, as the table says: the random
 * tip at the end (perfj prints none, and 7.2 puts two blank lines before it), and 7.2's {@code [.]}
 * on kernel and BPF rows that come from call chains only (it prints {@code [k]} for the same
 * symbols' own samples).
 */
class Perf72GoldenTest {
    private static final List<String> KINDS = List.of("report", "report-nochildren-comm-dso-sym", "report-dso",
            "report-sym", "report-children", "script");

    private static List<String> args(String name, String kind) {
        List<String> a = new ArrayList<>();
        switch (kind) {
            case "report" -> a.addAll(List.of("report", "--stdio"));
            case "report-nochildren-comm-dso-sym" -> a.addAll(List.of("report", "--stdio", "--no-children", "-g", "none",
                    "--sort", "comm,dso,symbol"));
            case "report-dso" -> a.addAll(List.of("report", "--stdio", "--no-children", "-g", "none", "--sort", "dso"));
            case "report-sym" -> a.addAll(List.of("report", "--stdio", "--no-children", "-g", "none", "--sort", "symbol"));
            case "report-children" -> a.addAll(List.of("report", "--stdio", "--children", "-g", "none",
                    "--sort", "comm,dso,symbol"));
            case "script" -> a.add("script");
            default -> throw new IllegalArgumentException(kind);
        }
        a.addAll(List.of("-i", Fixtures.recording(name).toString(), "--buildid-dir", BuildIdCacheFixture.dir().toString(),
                "--no-system-files", "--perf-map-dir", Fixtures.file("perf-maps").toString()));
        if (name.equals("java")) {
            a.addAll(List.of("--symfs", ReportGoldenTest.javaSysroot()));
        }
        return a;
    }

    private static final Pattern TIP = Pattern.compile("^# \\((Tip:|Cannot load tips).*");
    private static final Pattern KERNEL_ROW_LEVEL = Pattern.compile("(\\[kernel\\.kallsyms]|bpf_prog_[0-9a-f]+_\\w+)( +)\\[\\.] ");

    /** The text without its tip block, trailing blank and {@code #} lines removed. */
    static String withoutTip(String text) {
        List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
        lines.removeIf(l -> TIP.matcher(l).matches());
        while (!lines.isEmpty() && (lines.getLast().isEmpty() || lines.getLast().equals("#"))) {
            lines.removeLast();
        }
        return String.join("\n", lines);
    }

    /** perf 7.2's output with its two documented slips undone. */
    static String perf72Normalized(String text) {
        return KERNEL_ROW_LEVEL.matcher(withoutTip(text)).replaceAll("$1$2[k] ");
    }

    /** {@code golden/perf72-differences.txt}: "NAME KIND CLASS..." per line, each CLASS a name from the table. */
    static Map<String, String> differences() {
        return CorpusKnownDifferences.read(Fixtures.file("golden/perf72-differences.txt"));
    }

    @TestFactory
    Stream<DynamicTest> defaultModeIsPerf72sExceptTheListedDifferences() {
        Map<String, String> listed = differences();
        List<DynamicTest> tests = new ArrayList<>();
        for (String name : ReportGoldenTest.NAMES) {
            for (String kind : KINDS) {
                String why = listed.get(name + " " + kind);
                tests.add(DynamicTest.dynamicTest(name + " " + kind + (why == null ? "" : " (differs: " + why + ")"), () -> {
                    CliFixtures.Run r = CliFixtures.run(args(name, kind).toArray(new String[0]));
                    assertEquals(0, r.rc(), r.err());
                    String want = perf72Normalized(Fixtures.golden(name, kind + ".perf72"));
                    String got = withoutTip(r.out());
                    if (why == null) {
                        assertEquals(want, got);
                    } else {
                        assertNotEquals(want, got, "listed as differing (" + why + ") but equal now: remove it from the list");
                    }
                }));
            }
        }
        return tests.stream();
    }

    private static final Pattern FRAME = Pattern.compile("^\t +([0-9a-f]+) .*");

    /**
     * perf 7.2's script output with its {@code self-as-inlined} frames undone: the last frame at a
     * callchain address, when perf 7.2 prints it as {@code NAME+OFF (inlined)}, becomes the line
     * perfj prints for that address's own frame (its symbol and object).
     */
    static String selfFramesOf(String perf72, String perfj) {
        Map<String, String> own = new java.util.HashMap<>();
        List<String> ours = List.of(perfj.split("\n", -1));
        for (int i = 0; i < ours.size(); i++) {
            java.util.regex.Matcher m = FRAME.matcher(ours.get(i));
            if (m.matches() && !ours.get(i).endsWith(" (inlined)")
                    && (i + 1 == ours.size() || !ours.get(i + 1).startsWith(ours.get(i).substring(0, m.end(1) + 1)))) {
                own.putIfAbsent(m.group(1), ours.get(i));
            }
        }
        List<String> lines = new ArrayList<>(List.of(perf72.split("\n", -1)));
        for (int i = 0; i < lines.size(); i++) {
            java.util.regex.Matcher m = FRAME.matcher(lines.get(i));
            if (m.matches() && lines.get(i).endsWith(" (inlined)")
                    && (i + 1 == lines.size() || !lines.get(i + 1).startsWith(lines.get(i).substring(0, m.end(1) + 1)))
                    && own.containsKey(m.group(1))) {
                lines.set(i, own.get(m.group(1)));
            }
        }
        return String.join("\n", lines);
    }

    /**
     * The scripts that differ from perf 7.2's by {@code self-as-inlined} alone equal them once
     * those frames are undone: every other frame, the functions inlined at frame-pointer
     * addresses included, is perf 7.2's.
     */
    @TestFactory
    Stream<DynamicTest> scriptsDifferOnlyInSelfFrames() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Map.Entry<String, String> e : differences().entrySet()) {
            if (!e.getKey().endsWith(" script") || !e.getValue().equals("self-as-inlined")) {
                continue;
            }
            String name = e.getKey().substring(0, e.getKey().indexOf(' '));
            tests.add(DynamicTest.dynamicTest(name, () -> {
                org.junit.jupiter.api.Assumptions.assumeTrue(ScriptGoldenTest.addr2line(),
                        "addr2line (binutils) is not installed");
                CliFixtures.Run r = CliFixtures.run(args(name, "script").toArray(new String[0]));
                assertEquals(0, r.rc(), r.err());
                String got = withoutTip(r.out());
                assertEquals(selfFramesOf(perf72Normalized(Fixtures.golden(name, "script.perf72")), got), got);
            }));
        }
        assertTrue(tests.size() >= 3, "scripts listed as self-as-inlined alone: " + tests.size());
        return tests.stream();
    }

    @Test
    void everyListedDifferenceNamesAClassOfTheTable() throws IOException {
        String table = Files.readString(Fixtures.file("README.md"), StandardCharsets.UTF_8);
        int at = table.indexOf("## Default mode against perf 7.2");
        assertTrue(at >= 0, "fixtures/README.md has the table");
        for (Map.Entry<String, String> e : differences().entrySet()) {
            for (String c : e.getValue().split("\\s+")) {
                assertTrue(table.indexOf("`" + c + "`", at) >= 0, e.getKey() + ": class " + c + " is not in the table");
            }
        }
    }
}
