package io.perfj.cli;

import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * perfj report against perf report's own output, for every fixture and the -g none variants the
 * issue names (comm,dso,symbol / dso / symbol, with and without children). Symbols come only from
 * the committed build-id cache and perf map, never from this machine. Compared: every line outside
 * the rows exactly (perf's random closing tip excepted), the sequence of percentages exactly, and
 * the rows as a set; {@link #rowOrderMatchesPerfLineForLine} then checks perf's order of rows
 * with equal percentages where it is reproduced.
 */
class ReportGoldenTest {
    static final List<String> NAMES = List.of("c-fp", "bpf-sys", "bpf-dwarf", "pipe", "zstd", "java", "two-events");

    record Variant(String kind, String[] args) {
    }

    static final List<Variant> VARIANTS = List.of(
            new Variant("report-nochildren-comm-dso-sym", new String[] {"--no-children", "-g", "none", "--sort", "comm,dso,symbol"}),
            new Variant("report-dso", new String[] {"--no-children", "-g", "none", "--sort", "dso"}),
            new Variant("report-sym", new String[] {"--no-children", "-g", "none", "--sort", "symbol"}),
            new Variant("report-children", new String[] {"--children", "-g", "none", "--sort", "comm,dso,symbol"}));

    @TestFactory
    Stream<DynamicTest> matchesPerf() {
        List<DynamicTest> tests = new ArrayList<>();
        for (String name : NAMES) {
            for (Variant v : VARIANTS) {
                if (name.equals("bpf-dwarf") && v.kind().equals("report-children")) {
                    tests.add(DynamicTest.dynamicTest(name + " " + v.kind() + " (commands other than date and perf)",
                            () -> checkExcept(name, v, BPF_DWARF_SYSTEM_COMMS)));
                    continue;
                }
                if (!callchainsComparable(name) && v.kind().equals("report-children")) {
                    continue;
                }
                tests.add(DynamicTest.dynamicTest(name + " " + v.kind(), () -> check(name, v)));
            }
        }
        return tests.stream();
    }

    /**
     * perf's own order of rows with equal percentages, line for line: hist_entry__sort (with
     * --children and callchains the caller first within a thread, then larger Self, then the
     * sort keys ascending) and, where it finds rows equal (symbol-less rows of one object), the
     * order of perf's entry trees. Views whose rows need binaries the archive lacks are compared
     * where those are installed ({@link #javaCallchainViewsWhereTheRecordedJdkIsInstalled},
     * {@link #bpfDwarfViewsWhereTheRecordedBinariesAreInstalled}); here bpf-dwarf's --children
     * rows of every command but date and perf (see {@link #callchainsComparable}).
     */
    static final java.util.Set<String> NEEDS_INSTALLED_BINARIES = java.util.Set.of("bpf-dwarf report",
            "java report-children", "java report");

    @TestFactory
    Stream<DynamicTest> rowOrderMatchesPerfLineForLine() {
        List<DynamicTest> tests = new ArrayList<>();
        List<Variant> all = new ArrayList<>(VARIANTS);
        all.add(new Variant("report", new String[0]));
        for (String name : NAMES) {
            for (Variant v : all) {
                if (NEEDS_INSTALLED_BINARIES.contains(name + " " + v.kind())) {
                    continue;
                }
                java.util.Set<String> except = name.equals("bpf-dwarf") && v.kind().equals("report-children")
                        ? BPF_DWARF_SYSTEM_COMMS : java.util.Set.of();
                tests.add(DynamicTest.dynamicTest(name + " " + v.kind(), () -> {
                    List<String> args = new ArrayList<>(List.of("report", "--stdio", "-i",
                            Fixtures.recording(name).toString(), "--buildid-dir", BuildIdCacheFixture.dir().toString(),
                            "--no-system-files", "--perf-map-dir", Fixtures.file("perf-maps").toString()));
                    args.addAll(List.of(v.args()));
                    CliFixtures.Run r = CliFixtures.runPerf(args.toArray(new String[0]));
                    assertEquals(0, r.rc(), r.err());
                    assertEquals(String.join("\n", withoutTip(String.join("\n", withoutComms(Fixtures.golden(name, v.kind()), except)))),
                            String.join("\n", withoutTip(String.join("\n", withoutComms(r.out(), except)))));
                }));
            }
        }
        return tests.stream();
    }

    /**
     * The default report (children, caller-ordered callchain graphs): each entry's row with its
     * graph as one block; the blocks must be the same as perf's (as a set: ties are ordered
     * differently) and the percentage sequence identical. bpf-dwarf is left out, see
     * {@link #callchainsComparable}.
     */
    @TestFactory
    Stream<DynamicTest> defaultGraphMatchesPerf() {
        List<DynamicTest> tests = new ArrayList<>();
        for (String name : NAMES) {
            if (!callchainsComparable(name)) {
                continue;
            }
            tests.add(DynamicTest.dynamicTest(name + " report", () -> {
                String golden = Fixtures.golden(name, "report");
                CliFixtures.Run r = CliFixtures.runPerf("report", "--stdio", "-i", Fixtures.recording(name).toString(),
                        "--buildid-dir", BuildIdCacheFixture.dir().toString(), "--no-system-files",
                        "--perf-map-dir", Fixtures.file("perf-maps").toString());
                assertEquals(0, r.rc(), r.err());
                List<String> e = blocks(withoutTip(golden));
                List<String> a = blocks(withoutTip(r.out()));
                // Rows with equal "Children" come in perf's internal tree order: compare the first column.
                assertEquals(String.join("\n", e.stream().map(ReportGoldenTest::firstPercent).toList()),
                        String.join("\n", a.stream().map(ReportGoldenTest::firstPercent).toList()), "percentage sequence");
                assertEquals(String.join("\n====\n", e.stream().sorted().toList()),
                        String.join("\n====\n", a.stream().sorted().toList()), "entries with their graphs");
            }));
        }
        return tests.stream();
    }

    /**
     * Whether perf's callchain-derived output for a fixture can be reproduced from the committed
     * files alone. Not for bpf-dwarf: three of its chains run through /usr/bin/date and
     * /usr/bin/perf, which have no samples of their own, so the archive lacks them; perf's hist
     * tree (which decides which inlined frames become rows) then holds other entries, and the
     * rows of every command sharing a key with them can differ. Its rows of the other commands
     * are compared from the committed files, everything where those two binaries are installed
     * ({@link #bpfDwarfViewsWhereTheRecordedBinariesAreInstalled}). Not for java: its chains run
     * through libjli.so and libjava.so, which have no samples of their own, so 'perf archive' did
     * not pack them and the test (which uses no files of this machine) cannot name their frames.
     * Both fixtures' self-only reports are compared.
     */
    static boolean callchainsComparable(String name) {
        return !name.equals("bpf-dwarf") && !name.equals("java");
    }

    /**
     * --children with --dsos/--symbols under {@code --compat perf-6.1}: perf 6.1 adds every sample
     * and hides the entries created by a sample the filters turned away, so callers count samples
     * that landed elsewhere. Line for line: a column a one-value filter elides is no sort key of
     * the output either.
     */
    @TestFactory
    Stream<DynamicTest> childrenWithFiltersMatchPerf() {
        List<Variant> cases = List.of(
                new Variant("report-children-symbols", new String[] {"--symbols", "compute_a"}),
                new Variant("report-children-dsos", new String[] {"--dsos", "hot"}),
                new Variant("report-children-dsos-kernel", new String[] {"--dsos", "[kernel.kallsyms]"}),
                new Variant("report-children-dsos-symbols", new String[] {"--dsos", "hot", "--symbols", "main,compute_a"}));
        return cases.stream().map(v -> DynamicTest.dynamicTest("c-fp " + v.kind(), () -> {
            List<String> args = new ArrayList<>(List.of("report", "--stdio", "--children", "-g", "none", "-i",
                    Fixtures.recording("c-fp").toString(), "--buildid-dir", BuildIdCacheFixture.dir().toString(),
                    "--no-system-files"));
            args.addAll(List.of(v.args()));
            CliFixtures.Run r = CliFixtures.runPerf(args.toArray(new String[0]));
            assertEquals(0, r.rc(), r.err());
            assertEquals(String.join("\n", withoutTip(Fixtures.golden("c-fp", v.kind()))),
                    String.join("\n", withoutTip(r.out())));
        }));
    }

    /**
     * Sample filters with --children in the default mode, as perf 7.2: a sample the filters turn
     * away is left out, and a passing sample counts in every caller's row, whatever its object
     * (fixtures/README.md, "Options and filters"). Whole outputs, but for perf 7.2's {@code [.]}
     * on kernel and BPF rows made from callchains (class {@code kernel-row-level}), where perfj prints
     * {@code [k]}. Not {@code --dsos '[kernel.kallsyms]'}: perf 7.2 leaves ld.so's callers
     * unnamed there and adds libc's inlined functions (class {@code fp-inlines}).
     */
    @TestFactory
    Stream<DynamicTest> childrenWithFiltersMatchPerf72ByDefault() {
        return CHILDREN_FILTERS.stream().map(v -> DynamicTest.dynamicTest(v.kind(), () -> {
            String[] nk = v.kind().split(" ");
            CliFixtures.Run r = CliFixtures.run(childrenFilterArgs(nk[0], v.args()));
            assertEquals(0, r.rc(), r.err());
            String want = Fixtures.golden(nk[0], nk[1] + ".perf72").replaceAll("((?:\\[kernel\\.kallsyms]|bpf_prog_\\w+) +)\\[\\.]", "$1[k]");
            assertEquals(String.join("\n", withoutTip(want)), String.join("\n", withoutTip(r.out())));
        }));
    }

    /**
     * Those cases under {@code --compat perf-6.1}: perf 6.1's outputs (the first three are
     * {@link #childrenWithFiltersMatchPerf}'s).
     */
    @TestFactory
    Stream<DynamicTest> childrenWithFiltersAsPerf61() {
        return CHILDREN_FILTERS.stream().skip(3).map(v -> DynamicTest.dynamicTest(v.kind(), () -> {
            String[] nk = v.kind().split(" ");
            CliFixtures.Run r = CliFixtures.runPerf(childrenFilterArgs(nk[0], v.args()));
            assertEquals(0, r.rc(), r.err());
            assertEquals(String.join("\n", withoutTip(Fixtures.golden(nk[0], nk[1]))), String.join("\n", withoutTip(r.out())));
        }));
    }

    static final List<Variant> CHILDREN_FILTERS = List.of(
            new Variant("c-fp report-children-symbols", new String[] {"--children", "-g", "none", "--symbols", "compute_a"}),
            new Variant("c-fp report-children-dsos", new String[] {"--children", "-g", "none", "--dsos", "hot"}),
            new Variant("c-fp report-children-dsos-symbols",
                    new String[] {"--children", "-g", "none", "--dsos", "hot", "--symbols", "main,compute_a"}),
            new Variant("c-fp report-children-dsos-graph", new String[] {"--dsos", "hot"}),
            new Variant("c-fp report-children-symbol-work", new String[] {"-g", "none", "-S", "work"}),
            new Variant("bpf-sys report-children-pid",
                    new String[] {"-g", "none", "--no-inline", "--pid", "9765", "-s", "dso,sym"}),
            new Variant("bpf-sys report-children-comms",
                    new String[] {"-g", "none", "--no-inline", "--comms", "bpftool", "-s", "dso,sym"}));

    private static String[] childrenFilterArgs(String name, String... args) {
        List<String> all = new ArrayList<>(List.of("report", "--stdio", "-i", Fixtures.recording(name).toString(),
                "--buildid-dir", BuildIdCacheFixture.dir().toString(), "--no-system-files"));
        all.addAll(List.of(args));
        return all.toArray(new String[0]);
    }

    /** More of perf's options, each against its own golden (see fixtures/README.md). */
    static final List<Variant> MORE = List.of(
            new Variant("c-fp report-flat", new String[] {"--no-children", "-g", "flat"}),
            new Variant("c-fp report-folded", new String[] {"--no-children", "-g", "folded"}),
            new Variant("c-fp report-fractal", new String[] {"--no-children", "-g", "fractal"}),
            new Variant("c-fp report-callee", new String[] {"--no-children", "-g", "graph,0.5,callee"}),
            new Variant("c-fp report-percent-limit", new String[] {"--children", "-g", "none", "--percent-limit", "1"}),
            new Variant("bpf-sys report-pid-cpu", new String[] {"--no-children", "-g", "none", "--sort", "pid,cpu"}),
            new Variant("c-fp report-elide-dso", new String[] {"--no-children", "-g", "none", "--dsos", "hot"}),
            new Variant("c-fp report-elide-comm", new String[] {"--no-children", "-g", "none", "--comms", "hot"}),
            new Variant("c-fp report-elide-all", new String[] {"--no-children", "-g", "none", "--comms", "hot",
                "--dsos", "hot", "--symbols", "compute_a"}),
            new Variant("c-fp report-nochildren", new String[] {"--no-children"}),
            new Variant("c-fp report-max-stack", new String[] {"--max-stack", "3"}),
            // --max-stack 1 and 2: graphs under the 0.5% threshold of all samples' period are
            // hidden; a DWARF recording's unwound user frames are limited on their own.
            new Variant("c-fp report-max-stack1", new String[] {"--max-stack", "1"}),
            new Variant("c-fp report-max-stack1-nochildren", new String[] {"--no-children", "--max-stack", "1"}),
            new Variant("c-fp report-max-stack2", new String[] {"--max-stack", "2"}),
            new Variant("c-fp report-max-stack2-nochildren", new String[] {"--no-children", "--max-stack", "2"}),
            new Variant("bpf-dwarf report-max-stack1", new String[] {"--max-stack", "1"}),
            new Variant("bpf-dwarf report-max-stack1-nochildren", new String[] {"--no-children", "--max-stack", "1"}),
            new Variant("bpf-dwarf report-max-stack2", new String[] {"--max-stack", "2"}),
            new Variant("bpf-dwarf report-max-stack2-nochildren", new String[] {"--no-children", "--max-stack", "2"}),
            new Variant("java report-max-stack1-nochildren", new String[] {"--no-children", "--max-stack", "1"}),
            new Variant("java report-max-stack2-nochildren", new String[] {"--no-children", "--max-stack", "2"}),
            new Variant("c-fp report-sort-cpu", new String[] {"--no-children", "-g", "none", "--sort", "cpu"}),
            // perf adds its IPC columns and ipc_null key only when the --sort text says "symbol"
            new Variant("c-fp report-sort-sym-short", new String[] {"--no-children", "-g", "none", "--sort", "sym"}),
            new Variant("bpf-sys report-sort-dso-sym-short", new String[] {"--no-children", "-g", "none", "--sort", "dso,sym"}));

    @TestFactory
    Stream<DynamicTest> moreOptionsMatchPerf() {
        return MORE.stream().map(v -> DynamicTest.dynamicTest(v.kind(), () -> {
            String[] nk = v.kind().split(" ");
            String golden = Fixtures.golden(nk[0], nk[1]);
            List<String> args = new ArrayList<>(List.of("report", "--stdio", "-i", Fixtures.recording(nk[0]).toString(),
                    "--buildid-dir", BuildIdCacheFixture.dir().toString(), "--no-system-files",
                    "--perf-map-dir", Fixtures.file("perf-maps").toString()));
            args.addAll(List.of(v.args()));
            CliFixtures.Run r = CliFixtures.runPerf(args.toArray(new String[0]));
            assertEquals(0, r.rc(), r.err());
            assertEquals(String.join("\n", withoutTip(golden)), String.join("\n", withoutTip(r.out())));
        }));
    }

    /** perf's --symfs for the java recording: the JDK libraries its chains pass through (fixtures/README.md). */
    static String javaSysroot() {
        return BuildIdCacheFixture.unpacked("java-sysroot").toString();
    }

    /**
     * java's callchain-derived views, line for line: the chains run through the JDK's libjli.so
     * and libjava.so, which 'perf archive' did not pack; the committed java-sysroot has them.
     */
    @TestFactory
    Stream<DynamicTest> javaCallchainViews() {
        List<DynamicTest> tests = new ArrayList<>();
        tests.add(DynamicTest.dynamicTest("java report-children", () -> {
            String golden = Fixtures.golden("java", "report-children");
            CliFixtures.Run r = CliFixtures.runPerf("report", "--stdio", "-i", Fixtures.recording("java").toString(),
                    "--buildid-dir", BuildIdCacheFixture.dir().toString(), "--symfs", javaSysroot(), "--no-system-files",
                    "--perf-map-dir", Fixtures.file("perf-maps").toString(),
                    "--children", "-g", "none", "--sort", "comm,dso,symbol");
            assertEquals(0, r.rc(), r.err());
            assertEquals(String.join("\n", withoutTip(golden)), String.join("\n", withoutTip(r.out())));
        }));
        tests.add(DynamicTest.dynamicTest("java report", () -> {
            String golden = Fixtures.golden("java", "report");
            CliFixtures.Run r = CliFixtures.runPerf("report", "--stdio", "-i", Fixtures.recording("java").toString(),
                    "--buildid-dir", BuildIdCacheFixture.dir().toString(), "--symfs", javaSysroot(), "--no-system-files",
                    "--perf-map-dir", Fixtures.file("perf-maps").toString());
            assertEquals(0, r.rc(), r.err());
            assertEquals(String.join("\n", withoutTip(golden)), String.join("\n", withoutTip(r.out())));
        }));
        return tests.stream();
    }

    /**
     * java's --children reports with --max-stack 1 and 2, line for line (rows with equal Children
     * from different threads in perf's tree order). --max-stack 2 reaches libjli.so.
     */
    @TestFactory
    Stream<DynamicTest> javaMaxStackWithChildren() {
        List<DynamicTest> tests = new ArrayList<>();
        for (String depth : List.of("1", "2")) {
            tests.add(DynamicTest.dynamicTest("java report-max-stack" + depth, () -> {
                CliFixtures.Run r = CliFixtures.runPerf("report", "--stdio", "-i", Fixtures.recording("java").toString(),
                        "--buildid-dir", BuildIdCacheFixture.dir().toString(), "--symfs", javaSysroot(),
                        "--no-system-files", "--perf-map-dir", Fixtures.file("perf-maps").toString(),
                        "--max-stack", depth);
                assertEquals(0, r.rc(), r.err());
                assertEquals(withoutTip(Fixtures.golden("java", "report-max-stack" + depth)), withoutTip(r.out()));
            }));
        }
        return tests.stream();
    }

    /** The commands of bpf-dwarf whose chains need /usr/bin/date or /usr/bin/perf. */
    static final java.util.Set<String> BPF_DWARF_SYSTEM_COMMS = java.util.Set.of("date", "perf");

    /**
     * The build-ids of the /usr/bin/date and /usr/bin/perf that perf unwound bpf-dwarf's chains
     * through when the goldens were made (the recording has none for them: they have no samples
     * of their own).
     */
    static final java.util.Map<String, String> BPF_DWARF_SYSTEM_BINARIES = java.util.Map.of(
            "/usr/bin/date", "c89b11207f6479603b0d49bf291c092c2b719293",
            "/usr/bin/perf", "37ae4d5466647f4fca6cbf64a3796a8c78a3cb8a");

    static boolean recordedBinariesInstalled(java.util.Map<String, String> binaries) {
        for (java.util.Map.Entry<String, String> b : binaries.entrySet()) {
            java.nio.file.Path p = java.nio.file.Path.of(b.getKey());
            if (!java.nio.file.Files.isRegularFile(p)) {
                return false;
            }
            try (io.perfj.elf.ElfFile elf = io.perfj.elf.ElfFile.open(p)) {
                if (!elf.buildIdHex().map(b.getValue()::equals).orElse(false)) {
                    return false;
                }
            } catch (RuntimeException e) {
                return false;
            }
        }
        return true;
    }

    /**
     * bpf-dwarf's views that follow its callchains, with the committed archive and this
     * machine's /usr/bin/date and /usr/bin/perf, where those are the builds it was recorded with:
     * --children under three sort orders (perf's hist tree turns inlined frames into rows, some
     * named by the ELF symbol they were inlined into, some twice) and the graph reports with and
     * without children, each line for line.
     */
    @TestFactory
    Stream<DynamicTest> bpfDwarfViewsWhereTheRecordedBinariesAreInstalled() {
        List<DynamicTest> tests = new ArrayList<>();
        List<Variant> views = List.of(
                new Variant("report-children", new String[] {"--children", "-g", "none", "--sort", "comm,dso,symbol"}),
                new Variant("report-children-sym", new String[] {"--children", "-g", "none", "--sort", "symbol"}),
                new Variant("report-children-dso", new String[] {"--children", "-g", "none", "--sort", "dso"}));
        for (Variant v : views) {
            tests.add(DynamicTest.dynamicTest("bpf-dwarf " + v.kind(), () -> {
                org.junit.jupiter.api.Assumptions.assumeTrue(recordedBinariesInstalled(BPF_DWARF_SYSTEM_BINARIES),
                        "this machine's /usr/bin/date or /usr/bin/perf is not the build bpf-dwarf was recorded with");
                List<String> args = new ArrayList<>(List.of("report", "--stdio", "-i",
                        Fixtures.recording("bpf-dwarf").toString(), "--buildid-dir", BuildIdCacheFixture.dir().toString()));
                args.addAll(List.of(v.args()));
                CliFixtures.Run r = CliFixtures.runPerf(args.toArray(new String[0]));
                assertEquals(0, r.rc(), r.err());
                assertEquals(String.join("\n", withoutTip(Fixtures.golden("bpf-dwarf", v.kind()))),
                        String.join("\n", withoutTip(r.out())));
            }));
        }
        for (Variant v : List.of(new Variant("report", new String[0]),
                new Variant("report-nochildren", new String[] {"--no-children"}))) {
        tests.add(DynamicTest.dynamicTest("bpf-dwarf " + v.kind(), () -> {
            org.junit.jupiter.api.Assumptions.assumeTrue(recordedBinariesInstalled(BPF_DWARF_SYSTEM_BINARIES),
                    "this machine's /usr/bin/date or /usr/bin/perf is not the build bpf-dwarf was recorded with");
            List<String> args = new ArrayList<>(List.of("report", "--stdio", "-i", Fixtures.recording("bpf-dwarf").toString(),
                    "--buildid-dir", BuildIdCacheFixture.dir().toString()));
            args.addAll(List.of(v.args()));
            CliFixtures.Run r = CliFixtures.runPerf(args.toArray(new String[0]));
            assertEquals(0, r.rc(), r.err());
            assertEquals(String.join("\n", withoutTip(Fixtures.golden("bpf-dwarf", v.kind()))),
                    String.join("\n", withoutTip(r.out())));
        }));
        }
        return tests.stream();
    }

    /**
     * As {@link #check}, leaving out the rows of some commands (in the golden and in perfj's
     * output): their rows as a set, the percentages of the others in order, the lines outside.
     */
    static void checkExcept(String name, Variant v, java.util.Set<String> comms) {
        String golden = Fixtures.golden(name, v.kind());
        List<String> args = new ArrayList<>(List.of("report", "--stdio", "-i", Fixtures.recording(name).toString(),
                "--buildid-dir", BuildIdCacheFixture.dir().toString(), "--no-system-files",
                "--perf-map-dir", Fixtures.file("perf-maps").toString()));
        args.addAll(List.of(v.args()));
        CliFixtures.Run r = CliFixtures.runPerf(args.toArray(new String[0]));
        assertEquals(0, r.rc(), r.err());
        compare(String.join("\n", withoutComms(golden, comms)), String.join("\n", withoutComms(r.out(), comms)));
    }

    /** The report's lines without the rows whose command (the column after the two percentages) is one of these. */
    static List<String> withoutComms(String report, java.util.Set<String> comms) {
        List<String> out = new ArrayList<>();
        for (String l : report.split("\n", -1)) {
            String[] t = l.trim().split("\\s+");
            if (isRow(l) && t.length > 2 && comms.contains(t[2])) {
                continue;
            }
            out.add(l);
        }
        return out;
    }

    /** Each row with the callchain lines under it, as one string. */
    static List<String> blocks(List<String> lines) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = null;
        for (String l : lines) {
            if (isRow(l) && !l.startsWith("            ")) {
                if (cur != null) {
                    out.add(cur.toString().stripTrailing());
                }
                cur = new StringBuilder(l).append('\n');
            } else if (cur != null && !l.startsWith("#")) {
                cur.append(l).append('\n');
            }
        }
        if (cur != null) {
            out.add(cur.toString().stripTrailing());
        }
        return out;
    }

    static void check(String name, Variant v) {
        String golden = Fixtures.golden(name, v.kind());
        List<String> args = new ArrayList<>(List.of("report", "--stdio", "-i", Fixtures.recording(name).toString(),
                "--buildid-dir", BuildIdCacheFixture.dir().toString(), "--no-system-files",
                "--perf-map-dir", Fixtures.file("perf-maps").toString()));
        args.addAll(List.of(v.args()));
        CliFixtures.Run r = CliFixtures.runPerf(args.toArray(new String[0]));
        assertEquals(0, r.rc(), r.err());
        compare(golden, r.out());
    }

    static boolean isRow(String l) {
        return l.startsWith("  ") && !l.startsWith("            ") && l.contains("%");
    }

    static List<String> withoutTip(String text) {
        List<String> out = new ArrayList<>();
        for (String l : text.split("\n", -1)) {
            if (!l.startsWith("# (Tip:")) {
                out.add(l);
            }
        }
        // perf closes with "#", "# (Tip: ...)", "#": drop the two '#' lines around the tip too.
        while (!out.isEmpty() && (out.getLast().equals("#") || out.getLast().isEmpty())) {
            out.removeLast();
        }
        return out;
    }

    static void compare(String expected, String actual) {
        List<String> e = withoutTip(expected);
        List<String> a = withoutTip(actual);
        List<String> eFrame = e.stream().filter(l -> !isRow(l)).toList();
        List<String> aFrame = a.stream().filter(l -> !isRow(l)).toList();
        assertEquals(String.join("\n", eFrame), String.join("\n", aFrame), "lines outside the rows");
        List<String> ePct = e.stream().filter(ReportGoldenTest::isRow).map(ReportGoldenTest::percents).toList();
        List<String> aPct = a.stream().filter(ReportGoldenTest::isRow).map(ReportGoldenTest::percents).toList();
        assertEquals(String.join("\n", ePct), String.join("\n", aPct), "percentage sequence");
        List<String> eRows = e.stream().filter(ReportGoldenTest::isRow).sorted().toList();
        List<String> aRows = a.stream().filter(ReportGoldenTest::isRow).sorted().toList();
        assertEquals(String.join("\n", eRows), String.join("\n", aRows), "rows");
    }

    static String firstPercent(String row) {
        return row.trim().split("\\s+")[0];
    }

    static String percents(String row) {
        StringBuilder sb = new StringBuilder();
        for (String t : row.trim().split("\\s+")) {
            if (t.endsWith("%")) {
                sb.append(t).append(' ');
            } else {
                break;
            }
        }
        return sb.toString();
    }
}
