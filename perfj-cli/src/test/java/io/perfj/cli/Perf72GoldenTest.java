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
 * perfj's default mode against perf 7.2 on the first fixtures, the tracepoint recordings,
 * OptionsGoldenTest's cases, rust-v0, perfj record's files and node-jit (fixtures/make-perf72-goldens.sh):
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

    /** One output: perf 7.2's {@code golden/NAME.KIND.perf72.txt} and the perfj arguments that make it. */
    record Case(String name, String kind, List<String> args) {
    }

    /**
     * The tracepoint goldens of make-tracepoints.sh that perf 7.2 made too, as {@code NAME KIND
     * OPTIONS...} (the command is the kind's first word).
     */
    private static final List<String> TRACEPOINTS = List.of(
            "tp-sched tp-proc tp-syscalls tp-irq-timer tp-uprobe tp-tcp tp-pipe tp-chain tp-tree tp-btrfs : script",
            "tp-sched tp-proc tp-syscalls tp-irq-timer tp-uprobe tp-tcp tp-pipe tp-chain tp-tree tp-btrfs : report --stdio",
            "tp-sched tp-syscalls : report-trace --stdio -s trace",
            "tp-sched tp-syscalls tp-chain tp-btrfs tp-tree : report-trace_fields --stdio -s trace_fields",
            "tp-tree : report-no-children --stdio --no-children",
            "tp-tree : report-callee --stdio -g callee",
            "tp-tree : report-G --stdio -G",
            "tp-tree : report-trace-sym --stdio -s trace,sym",
            "tp-tree : report-trace-sym-no-children --stdio -s trace,sym --no-children",
            "tp-tree : report-percent-limit --stdio --percent-limit 30",
            "tp-tree : report-folded --stdio --no-children -g folded",
            "tp-tree : report-trace_fields-no-children --stdio -s trace_fields --no-children",
            "tp-tree : report-trace_fields-sym --stdio -s trace_fields,sym",
            "tp-tree : report-symbols --stdio --symbols nap",
            "tp-tree : report-comms-trace-comm --stdio --comms tptree -s trace,comm");

    static List<Case> cases() {
        List<Case> all = new ArrayList<>();
        for (String name : ReportGoldenTest.NAMES) {
            for (String kind : KINDS) {
                all.add(new Case(name, kind, firstFixturesArgs(name, kind)));
            }
        }
        for (String row : TRACEPOINTS) {
            String[] names = row.substring(0, row.indexOf(" : ")).split(" ");
            List<String> options = List.of(row.substring(row.indexOf(" : ") + 3).split(" "));
            String kind = options.getFirst();
            for (String name : names) {
                List<String> a = new ArrayList<>();
                a.add(kind.startsWith("report") ? "report" : kind);
                a.addAll(options.subList(1, options.size()));
                a.addAll(List.of("-i", Fixtures.recording(name).toString(), "--buildid-dir",
                        BuildIdCacheFixture.unpacked("tracepoints.buildid-cache").toString(), "--no-system-files"));
                all.add(new Case(name, kind, a));
            }
        }
        // OptionsGoldenTest's cases (its second -U case is the same output)
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (OptionsGoldenTest.Case c : OptionsGoldenTest.CASES) {
            if (seen.add(c.name() + " " + c.kind())) {
                all.add(new Case(c.name(), c.kind(), List.of(OptionsGoldenTest.withFixture(c.name(), c.args()))));
            }
        }
        // the user-space views of rust-v0 (RustV0ReportTest) and of perfj record's files (RecordedFixtureTest)
        all.add(new Case("rust-v0", "report-sym", List.of("report", "--stdio", "--no-children", "-g", "none",
                "--sort", "symbol", "--dsos", "rv0", "-i", Fixtures.recording("rust-v0").toString(), "--buildid-dir",
                BuildIdCacheFixture.unpacked("rust-v0.buildid-cache").toString(), "--no-system-files")));
        all.add(new Case("record-hot", "report", List.of("report", "--stdio", "-i", Fixtures.recording("record-hot").toString(),
                "--buildid-dir", BuildIdCacheFixture.dir().toString(), "--no-system-files")));
        all.add(new Case("record-pipe", "report-dso", List.of("report", "--stdio", "--no-children", "-g", "none", "--sort",
                "dso", "-i", Fixtures.recording("record-pipe").toString(), "--buildid-dir",
                BuildIdCacheFixture.dir().toString(), "--no-system-files")));
        // node-jit's views of make-jitdump.sh (perf reads the injected file, perfj the jitdump)
        for (String row : List.of("report :", "report-dso-sym : --no-children -g none --sort dso,symbol",
                "report-sym : --no-children -g none --sort symbol", "report-children : --children -g none --sort comm,dso,symbol",
                "script :")) {
            String kind = row.substring(0, row.indexOf(" :"));
            List<String> a = new ArrayList<>(List.of(kind.equals("script") ? "script" : "report"));
            if (!kind.equals("script")) {
                a.add("--stdio");
            }
            a.addAll(List.of(row.substring(row.indexOf(":") + 1).strip().split(" ")));
            a.removeIf(String::isEmpty);
            a.addAll(List.of("-i", Fixtures.recording("node-jit").toString(), "--no-system-files",
                    "--jitdump-dir", Fixtures.file("jitdump").toString()));
            all.add(new Case("node-jit", kind, a));
        }
        return all;
    }

    private static List<String> firstFixturesArgs(String name, String kind) {
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
        for (Case c : cases()) {
            String why = listed.get(c.name() + " " + c.kind());
            tests.add(DynamicTest.dynamicTest(c.name() + " " + c.kind() + (why == null ? "" : " (differs: " + why + ")"), () -> {
                CliFixtures.Run r = CliFixtures.run(c.args().toArray(new String[0]));
                assertEquals(0, r.rc(), r.err());
                String want = perf72Normalized(Fixtures.golden(c.name(), c.kind() + ".perf72"));
                String got = withoutTip(r.out());
                if (why == null) {
                    assertEquals(want, got);
                } else {
                    assertNotEquals(want, got, "listed as differing (" + why + ") but equal now: remove it from the list");
                }
            }));
        }
        return tests.stream();
    }

    private static final Pattern FRAME = Pattern.compile("^\t +([0-9a-f]+) .*");
    /** A source line {@code -F srcline} prints after a frame (on a line of its own, indented by two spaces). */
    private static final String SRCLINE = "  ";

    /**
     * perf 7.2's script output with its {@code self-as-inlined} frames undone: the last frame at a
     * callchain or unwound address, when perf 7.2 prints it as {@code NAME+OFF (inlined)}, becomes
     * the line perfj prints for that address's own frame (its symbol and object); with
     * {@code -F srcline} perf 7.2 marks the source line after the frame instead, and that mark goes.
     */
    static String selfFramesOf(String perf72, String perfj) {
        Map<String, String> own = new java.util.HashMap<>();
        List<String> ours = List.of(perfj.split("\n", -1));
        for (int i = 0; i < ours.size(); i++) {
            java.util.regex.Matcher m = FRAME.matcher(ours.get(i));
            if (m.matches() && !inlined(ours, i) && lastAtAddress(ours, i, m)) {
                own.putIfAbsent(m.group(1), ours.get(i));
            }
        }
        List<String> lines = new ArrayList<>(List.of(perf72.split("\n", -1)));
        for (int i = 0; i < lines.size(); i++) {
            java.util.regex.Matcher m = FRAME.matcher(lines.get(i));
            if (m.matches() && inlined(lines, i) && lastAtAddress(lines, i, m)
                    && own.containsKey(m.group(1))) {
                lines.set(i, own.get(m.group(1)));
                if (i + 1 < lines.size() && lines.get(i + 1).startsWith(SRCLINE) && lines.get(i + 1).endsWith(" (inlined)")) {
                    lines.set(i + 1, lines.get(i + 1).substring(0, lines.get(i + 1).length() - " (inlined)".length()));
                }
            }
        }
        return String.join("\n", lines);
    }

    /** Whether the frame line {@code i} is marked inlined: at its end, or at its source line's ({@code -F srcline}). */
    private static boolean inlined(List<String> lines, int i) {
        return lines.get(i).endsWith(" (inlined)")
                || i + 1 < lines.size() && lines.get(i + 1).startsWith(SRCLINE) && lines.get(i + 1).endsWith(" (inlined)");
    }

    /** Whether the frame line {@code i} (matched by {@code m}) is the last at its address, source lines skipped. */
    private static boolean lastAtAddress(List<String> lines, int i, java.util.regex.Matcher m) {
        int next = i + 1;
        while (next < lines.size() && lines.get(next).startsWith(SRCLINE)) {
            next++;
        }
        return next == lines.size() || !lines.get(next).startsWith(lines.get(i).substring(0, m.end(1) + 1));
    }

    /**
     * The scripts that differ from perf 7.2's by {@code self-as-inlined} alone equal them once
     * those frames are undone: every other frame, the functions inlined at frame-pointer
     * addresses included, is perf 7.2's.
     */
    @TestFactory
    Stream<DynamicTest> scriptsDifferOnlyInSelfFrames() {
        List<DynamicTest> tests = new ArrayList<>();
        Map<String, Case> byOutput = new java.util.HashMap<>();
        cases().forEach(c -> byOutput.putIfAbsent(c.name() + " " + c.kind(), c));
        for (Map.Entry<String, String> e : differences().entrySet()) {
            if (!e.getKey().endsWith(" script") || !e.getValue().equals("self-as-inlined")) {
                continue;
            }
            Case c = byOutput.get(e.getKey());
            String name = c.name();
            tests.add(DynamicTest.dynamicTest(name, () -> {
                org.junit.jupiter.api.Assumptions.assumeTrue(ScriptGoldenTest.addr2line(),
                        "addr2line (binutils) is not installed");
                CliFixtures.Run r = CliFixtures.run(c.args().toArray(new String[0]));
                assertEquals(0, r.rc(), r.err());
                String got = withoutTip(r.out());
                assertEquals(selfFramesOf(perf72Normalized(Fixtures.golden(name, "script.perf72")), got), got);
            }));
        }
        assertTrue(tests.size() >= 3, "scripts listed as self-as-inlined alone: " + tests.size());
        return tests.stream();
    }

    /** The objects of bpf-dwarf's class {@code installed-binaries} (and the programs bash exec'd into them). */
    private static final Pattern INSTALLED = Pattern.compile("/usr/sbin/bpftool|/usr/bin/date|/usr/bin/perf|execve");

    /**
     * bpf-dwarf's DWARF-unwound script, its samples of other classes ({@code installed-binaries})
     * left out and the headers of {@code exited-thread} not compared, equals perf 7.2's once its
     * {@code self-as-inlined} frames are undone ({@code __GI__Fork+0x23 (inlined)} for
     * {@code _Fork+0x23 (libc.so.6)}).
     */
    @Test
    void dwarfScriptDiffersOnlyInSelfFramesBesideItsOtherClasses() {
        org.junit.jupiter.api.Assumptions.assumeTrue(ScriptGoldenTest.addr2line(), "addr2line (binutils) is not installed");
        Case c = cases().stream().filter(k -> k.name().equals("bpf-dwarf") && k.kind().equals("script")).findFirst().orElseThrow();
        CliFixtures.Run r = CliFixtures.run(c.args().toArray(new String[0]));
        assertEquals(0, r.rc(), r.err());
        String got = withoutTip(r.out());
        String[] want = selfFramesOf(perf72Normalized(Fixtures.golden("bpf-dwarf", "script.perf72")), got).split("\n\n");
        String[] ours = got.split("\n\n");
        assertEquals(want.length, ours.length, "samples");
        int compared = 0;
        for (int i = 0; i < want.length; i++) {
            if (INSTALLED.matcher(want[i]).find() || INSTALLED.matcher(ours[i]).find()) {
                continue;
            }
            compared++;
            assertEquals(frames(want[i]), frames(ours[i]), ours[i]);
        }
        assertTrue(compared > 100, compared + " samples compared");
        assertTrue(String.join("\n", ours).contains(" _Fork+0x23 (/usr/lib/x86_64-linux-gnu/libc.so.6)\n"), "a frame kept");
    }

    /** A script sample's lines after its header. */
    private static String frames(String sample) {
        int nl = sample.indexOf('\n');
        return nl < 0 ? "" : sample.substring(nl);
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
