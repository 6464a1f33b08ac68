package io.perfj.cli;

import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * perf report's and perf script's options and filters (-C, --time, -n, --show-total-period, -q,
 * --percentage, --hide-unresolved, --header, script's CPU column, fixed period, -F +/-field,
 * --ns, --reltime, -G, the thread and symbol filters, the fields a recording lacks) against
 * perf 6.1's own output, made by fixtures/make-options.sh. Symbols come from the committed
 * build-id cache and, for the two recordings of this set, the committed trimmed kallsyms.
 */
class OptionsGoldenTest {
    /**
     * One case: fixture, golden kind, perfj's arguments after the command, and whether rows
     * are compared line for line (else as in {@link ReportGoldenTest#compare}: equal
     * percentages may come in another order).
     */
    record Case(String name, String kind, boolean exact, String... args) {
    }

    static final List<Case> CASES = List.of(
            new Case("sample-cpu", "report", true, "report", "--stdio"),
            new Case("sample-cpu", "script", true, "script"),
            new Case("fixed-period", "report", true, "report", "--stdio"),
            new Case("fixed-period", "script", true, "script"),
            new Case("sample-cpu", "report-cpu1", true, "report", "--stdio", "-C", "1"),
            new Case("sample-cpu", "report-cpu0-nochildren", true, "report", "--stdio", "--no-children", "-g", "none",
                    "-C", "0"),
            new Case("sample-cpu", "report-time-slice", true, "report", "--stdio", "--no-children", "-g", "none",
                    "--time", "10%/2"),
            new Case("sample-cpu", "report-time-slices", true, "report", "--stdio", "--no-children",
                    "--time", "0%-30%,50%-60%"),
            new Case("sample-cpu", "report-time-abs", true, "report", "--stdio", "--no-children", "-g", "none",
                    "--time", "38570.96,38571.1 38571.2,"),
            new Case("sample-cpu", "report-nr-period", true, "report", "--stdio", "-n", "--show-total-period",
                    "-g", "none"),
            new Case("sample-cpu", "report-nr-nochildren", true, "report", "--stdio", "-n", "--no-children", "-g",
                    "none", "--sort", "dso"),
            new Case("sample-cpu", "report-quiet", true, "report", "--stdio", "-q"),
            new Case("sample-cpu", "report-relative", true, "report", "--stdio", "--percentage", "relative",
                    "--dsos", "hot", "--no-children", "-g", "none"),
            new Case("bpf-sys", "report-hide-unresolved", false, "report", "--stdio", "--hide-unresolved",
                    "--no-children", "-g", "none"),
            // perf's short form of --hide-unresolved
            new Case("bpf-sys", "report-hide-unresolved", false, "report", "--stdio", "-U", "--no-children",
                    "-g", "none"),
            new Case("bpf-sys", "report-relative-kernel", false, "report", "--stdio", "--percentage", "relative",
                    "--dsos", "[kernel.kallsyms]", "--no-children", "-g", "none"),
            new Case("bpf-sys", "report-relative-comm", false, "report", "--stdio", "--percentage", "relative",
                    "--comms", "perf", "--no-children", "-g", "none"),
            new Case("bpf-sys", "report-cpu1", false, "report", "--stdio", "-C", "1", "--no-children", "-g", "none"),
            new Case("sample-cpu", "script-cpu1", true, "script", "-C", "1"),
            new Case("sample-cpu", "script-time-slice", true, "script", "--time", "10%/2"),
            new Case("sample-cpu", "script-reltime-ns", true, "script", "--reltime", "--ns"),
            new Case("sample-cpu", "script-filters", true, "script", "--comms", "hot", "--tid", "20889", "-S",
                    "compute_a"),
            new Case("fixed-period", "script-hide-call-graph", true, "script", "-G"),
            new Case("fixed-period", "script-fields-plus-minus", true, "script", "-F", "+pid,-time,-period"),
            new Case("bpf-sys", "script-cpu0-hide-call-graph", true, "script", "-C", "0", "-G"),
            // --percent-limit is also the callchain threshold unless a -g after it sets one
            new Case("bpf-sys", "report-percent-limit2", true, "report", "--stdio", "--percent-limit", "2"),
            new Case("bpf-sys", "report-percent-limit2-nochildren", true, "report", "--stdio", "--no-children",
                    "--percent-limit", "2"),
            new Case("bpf-sys", "report-percent-limit2-then-g", true, "report", "--stdio", "--no-children",
                    "--percent-limit", "2", "-g", "graph,0.1"),
            new Case("bpf-sys", "report-g-then-percent-limit2", true, "report", "--stdio", "--no-children",
                    "-g", "graph,0.5", "--percent-limit", "2"),
            // perf 6.1's -G is the caller-based graph
            new Case("c-fp", "report-inverted", true, "report", "--stdio", "--no-children", "-G"),
            // the callchain threshold is a share of all samples' period, the filtered ones too
            new Case("bpf-sys", "report-nochildren-symbols", true, "report", "--stdio", "--no-children",
                    "--symbols", "pvm_irq_enable"),
            new Case("bpf-sys", "report-nochildren-comms", true, "report", "--stdio", "--no-children",
                    "--comms", "perf"),
            new Case("bpf-sys", "report-nochildren-dsos", true, "report", "--stdio", "--no-children",
                    "--dsos", "bash"),
            new Case("bpf-sys", "report-callee", true, "report", "--stdio", "--no-children", "-g", "callee"),
            // the records other than samples, as perf script --show-*-events prints them among the samples
            new Case("sideband", "script-sideband", true, "script", "--show-task-events", "--show-mmap-events",
                    "--show-switch-events", "--show-namespace-events", "--show-cgroup-events"),
            // --show-round-events: perf turns its ordering off, records come in file order
            new Case("sideband", "script-rounds-deltatime", true, "script", "--show-round-events",
                    "--show-task-events", "--deltatime"),
            new Case("sideband", "script-mmap-reltime-fields", true, "script", "--show-mmap-events", "--reltime",
                    "-F", "comm,tid,time,event,ip,sym"),
            new Case("sideband", "script-switch-hide-call-graph", true, "script", "--show-switch-events", "-G", "--ns"),
            new Case("lost", "script-lost", true, "script", "--show-lost-events", "--show-task-events"),
            new Case("bpf-sys", "script-bpf-cpu0", true, "script", "--show-bpf-events", "--show-task-events",
                    "-C", "0", "-G"),
            // -I alone changes nothing: it details --header's header
            new Case("sample-cpu", "script-show-info", true, "script", "-I"));

    /**
     * report's view options, each against perf 6.1's golden both by default and under
     * {@code --compat perf-6.1}: perf 7.2 treats them alike (its goldens differ only where it
     * resolves or names other frames differently), except --hierarchy, below.
     */
    private static final java.util.regex.Pattern PLT_ROW = java.util.regex.Pattern.compile("\\[\\.] \\S*@plt\\s*$");

    static final List<Case> VIEW_CASES = List.of(
            new Case("c-fp", "report-symbol-filter", true, "report", "--stdio", "--symbol-filter=a"),
            new Case("bpf-sys", "report-symbol-filter-nochildren", true, "report", "--stdio", "--no-children",
                    "--symbol-filter", "pvm"),
            // relative: the rows' percentages are of the rows left, the callchains' of all samples kept
            new Case("bpf-sys", "report-symbol-filter-relative", true, "report", "--stdio", "--no-children",
                    "--symbol-filter", "pvm", "--percentage", "relative"),
            // the callers walked before a matching frame (from the root with children) are dropped
            new Case("c-fp", "report-ignore-callees", true, "report", "--stdio", "--ignore-callees", "^work$"),
            new Case("c-fp", "report-ignore-callees-nochildren", true, "report", "--stdio", "--no-children",
                    "--ignore-callees", "main"),
            new Case("bpf-sys", "report-ignore-callees-nochildren", true, "report", "--stdio", "--no-children",
                    "--ignore-callees", "syscall"),
            new Case("c-fp", "report-verbose", true, "report", "--stdio", "-v", "--no-children"),
            new Case("c-fp", "report-verbose-children", true, "report", "--stdio", "-v", "-g", "none"),
            new Case("bpf-sys", "report-verbose", true, "report", "--stdio", "--verbose", "--no-children", "-g", "none"),
            // --hierarchy turns --children off, as perf 6.1 does
            new Case("c-fp", "report-hierarchy", true, "report", "--stdio", "--hierarchy"),
            new Case("c-fp", "report-hierarchy-children", true, "report", "--stdio", "--hierarchy", "--children"),
            new Case("c-fp", "report-hierarchy-sym-dso", true, "report", "--stdio", "--hierarchy", "-s", "sym,dso"),
            new Case("c-fp", "report-hierarchy-ipc", true, "report", "--stdio", "--hierarchy", "-s",
                    "comm,dso,symbol", "-g", "none"),
            new Case("c-fp", "report-hierarchy-nr-period", true, "report", "--stdio", "--hierarchy", "-n",
                    "--show-total-period", "-s", "dso,sym", "-g", "none"),
            new Case("bpf-sys", "report-hierarchy-percent-limit", true, "report", "--stdio", "--hierarchy",
                    "--percent-limit", "1", "-g", "none"),
            new Case("bpf-sys", "report-hierarchy-pid-sym", true, "report", "--stdio", "--hierarchy", "-s", "pid,sym",
                    "-g", "none"),
            new Case("two-events", "report-hierarchy-group", true, "report", "--stdio", "--hierarchy", "--group", "-n",
                    "-g", "none"),
            // --symbol-filter in the hierarchy where the entry that made each level passes it
            new Case("c-fp", "report-hierarchy-symbol-filter-all-levels", true, "report", "--stdio", "--hierarchy",
                    "--symbol-filter", "a"));

    /**
     * --hierarchy with --symbol-filter where perf 6.1's levels differ from perfj's default: perf
     * tests each level's row on the entry that made it, so levels above printed rows are missing.
     */
    static final List<Case> HIERARCHY_FILTER_CASES = List.of(
            new Case("c-fp", "report-hierarchy-symbol-filter", true, "report", "--stdio", "--hierarchy",
                    "--symbol-filter", "leaf"),
            new Case("bpf-sys", "report-hierarchy-symbol-filter", true, "report", "--stdio", "--hierarchy",
                    "--symbol-filter", "pvm", "-g", "none"),
            new Case("bpf-sys", "report-hierarchy-symbol-filter-relative", true, "report", "--stdio", "--hierarchy",
                    "--symbol-filter", "pvm", "--percentage", "relative", "-g", "none"),
            new Case("bpf-sys", "report-hierarchy-symbol-filter-dso-sym", true, "report", "--stdio", "--hierarchy",
                    "--symbol-filter", "e", "-s", "dso,sym", "-g", "none"));

    @TestFactory
    Stream<DynamicTest> hierarchyWithSymbolFilterAsPerf61() {
        return HIERARCHY_FILTER_CASES.stream().map(c -> DynamicTest.dynamicTest(c.name() + " " + c.kind(), () -> {
            CliFixtures.Run r = run(c.name(), c.args());
            assertEquals(0, r.rc(), r.err());
            assertEquals(String.join("\n", ReportGoldenTest.withoutTip(Fixtures.golden(c.name(), c.kind()))),
                    String.join("\n", ReportGoldenTest.withoutTip(r.out())));
        }));
    }

    /**
     * By default a level's row is printed when a row the filter keeps is under it, with the
     * period of all its samples, as without the filter (perf 7.2 prints the same levels with
     * other totals; perf 6.1 leaves out a level whose first entry does not pass).
     */
    @Test
    void hierarchyWithSymbolFilterByDefault() {
        assertTrue(Fixtures.golden("c-fp", "report-hierarchy-symbol-filter").contains("#\n       99.40%        hot"),
                "perf 6.1 leaves the command out");
        CliFixtures.Run d = runDefault("c-fp", "report", "--stdio", "--hierarchy", "--symbol-filter", "leaf", "-g",
                "none");
        assertEquals(0, d.rc(), d.err());
        assertTrue(d.out().contains("   100.00%        hot    \n       99.40%        hot          \n"
                + "          38.65%        [.] leaf_mix\n\n"), d.out());
        String golden = Fixtures.golden("bpf-sys", "report-hierarchy-symbol-filter");
        assertTrue(golden.contains("          26.85%        [k] pvm_safe_halt_hc\n           0.09%        [k] pvm_irq_enable\n"
                + "           2.60%        [k] pvm_irq_enable\n"), "perf 6.1's rows without their levels");
        CliFixtures.Run b = runDefault("bpf-sys", "report", "--stdio", "--hierarchy", "--symbol-filter", "pvm",
                "-g", "none");
        assertEquals(0, b.rc(), b.err());
        assertTrue(b.out().contains("          26.85%        [k] pvm_safe_halt_hc\n           0.09%        [k] pvm_irq_enable\n"
                + "     9.34%        bpf-driver.sh  \n        5.76%        [kernel.kallsyms]\n"
                + "           2.60%        [k] pvm_irq_enable\n"), b.out());
    }

    @TestFactory
    Stream<DynamicTest> viewOptionsMatchPerf61() {
        return VIEW_CASES.stream().flatMap(c -> Stream.of(false, true)
                .map(compat -> DynamicTest.dynamicTest(c.name() + " " + c.kind() + (compat ? " compat" : ""), () -> {
                    CliFixtures.Run r = compat ? run(c.name(), c.args()) : runDefault(c.name(), noInline(c.args()));
                    assertEquals(0, r.rc(), r.err());
                    // the default adds the functions inlined at frame-pointer addresses as perf 7.2
                    // does (FpInlinesTest, Perf72GoldenTest): --no-inline leaves them out here;
                    // the default names ld.so's PLT entry as perf 7.2 does (__tunable_get_val@plt,
                    // perf 6.1: @plt; PltGotGoldenTest, Perf72GoldenTest): that row is left out here
                    java.util.function.Function<String, String> rows = t -> String.join("\n",
                            ReportGoldenTest.withoutTip(t).stream().filter(l -> compat || !PLT_ROW.matcher(l).find()).toList());
                    assertEquals(rows.apply(Fixtures.golden(c.name(), c.kind())), rows.apply(r.out()));
                })));
    }

    /**
     * perf (6.1 and 7.2 alike) applies --symbol-filter only when a sort key needs its collapse
     * step (comm): with {@code -s sym} it filters nothing. perfj filters by default, and
     * reproduces perf under {@code --compat perf-6.1}.
     */
    @Test
    void symbolFilterWithoutCommKey() {
        String golden = Fixtures.golden("c-fp", "report-symbol-filter-sym");
        assertTrue(golden.contains("[.] main\n") && golden.contains("[.] work\n"), "perf left them in");
        assertTrue(Fixtures.golden("c-fp", "report-symbol-filter-sym.perf72").contains("[.] main\n"), "perf 7.2 too");
        String[] args = {"report", "--stdio", "--symbol-filter=_", "-s", "sym", "-g", "none"};
        CliFixtures.Run compat = run("c-fp", args);
        assertEquals(0, compat.rc(), compat.err());
        assertEquals(String.join("\n", ReportGoldenTest.withoutTip(golden)),
                String.join("\n", ReportGoldenTest.withoutTip(compat.out())));
        CliFixtures.Run r = runDefault("c-fp", noInline(args));
        assertEquals(0, r.rc(), r.err());
        String kept = golden.replace("    99.60%     0.00%  [.] main\n", "").replace("    39.04%     0.20%  [.] work\n", "");
        assertEquals(String.join("\n", ReportGoldenTest.withoutTip(kept)),
                String.join("\n", ReportGoldenTest.withoutTip(r.out())));
    }

    /**
     * perf 7.2 keeps --children in the hierarchy, with wrong upper-level Children and callchains
     * of bare addresses: perfj's default is perf 6.1's (--children off).
     */
    @Test
    void hierarchyIsPerf61sByDefault() {
        String p72 = Fixtures.golden("c-fp", "report-hierarchy.perf72");
        assertTrue(p72.contains("#       Children  Overhead  Command / Shared Object / Symbol")
                && p72.contains("---0x"), "perf 7.2's golden as the README describes it");
        CliFixtures.Run r = runDefault("c-fp", "report", "--stdio", "--hierarchy");
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.out().contains("#       Overhead  Command / Shared Object / Symbol\n"), r.out());
    }

    /** A bad --ignore-callees is a usage error. */
    @Test
    void viewOptionsRefusals() {
        CliFixtures.Run bad = runDefault("c-fp", "report", "--stdio", "--ignore-callees", "(");
        assertEquals(2, bad.rc());
        assertTrue(bad.err().contains("--ignore-callees: '(' is not a regular expression"), bad.err());
    }

    /** Under {@code --compat perf-6.1}. */
    static CliFixtures.Run run(String name, String... args) {
        return CliFixtures.runPerf(withFixture(name, args));
    }

    /** The arguments with {@code --no-inline}: the default mode without perf 7.2's inlined frames on frame-pointer chains. */
    private static String[] noInline(String... args) {
        String[] all = java.util.Arrays.copyOf(args, args.length + 1);
        all[args.length] = "--no-inline";
        return all;
    }

    /** In perfj's default mode. */
    static CliFixtures.Run runDefault(String name, String... args) {
        return CliFixtures.run(withFixture(name, args));
    }

    static String[] withFixture(String name, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("-i", Fixtures.recording(name).toString(), "--buildid-dir",
                BuildIdCacheFixture.dir().toString(), "--no-system-files",
                "--perf-map-dir", Fixtures.file("perf-maps").toString()));
        if (List.of("sample-cpu", "fixed-period", "sideband", "lost").contains(name)) {
            all.addAll(List.of("-k", Fixtures.file("kallsyms-sample-cpu.txt").toString()));
        }
        return all.toArray(new String[0]);
    }

    @TestFactory
    Stream<DynamicTest> matchesPerf() {
        return CASES.stream().map(c -> DynamicTest.dynamicTest(c.name() + " " + c.kind(), () -> {
            String golden = Fixtures.golden(c.name(), c.kind());
            CliFixtures.Run r = run(c.name(), c.args());
            assertEquals(0, r.rc(), r.err());
            if (c.exact()) {
                assertEquals(String.join("\n", ReportGoldenTest.withoutTip(golden)),
                        String.join("\n", ReportGoldenTest.withoutTip(r.out())));
            } else {
                ReportGoldenTest.compare(golden, r.out());
            }
        }));
    }

    /** The file's mtime is in perf's "captured on" line: that line is left out. */
    static String withoutCapturedOn(String s) {
        return s.replaceFirst("# captured on    : [^\n]*\n", "");
    }

    @Test
    void reportHeaderIsTheHeaderThenTheReport() {
        CliFixtures.Run r = run("sample-cpu", "report", "--stdio", "--header", "--no-children", "-g", "none");
        assertEquals(0, r.rc(), r.err());
        String golden = Fixtures.golden("sample-cpu", "report-header");
        assertTrue(golden.contains("# captured on    : "), "golden has a captured-on line");
        assertEquals(String.join("\n", ReportGoldenTest.withoutTip(withoutCapturedOn(golden))),
                String.join("\n", ReportGoldenTest.withoutTip(withoutCapturedOn(r.out()))));
    }

    /** script --header is the header then the samples, --header-only the header alone. */
    @Test
    void scriptHeaderIsTheHeaderThenTheSamples() {
        for (String[] c : new String[][] {{"fixed-period", "script-header", "--header"},
            {"sample-cpu", "script-header-only", "--header-only"}}) {
            CliFixtures.Run r = run(c[0], "script", c[2]);
            assertEquals(0, r.rc(), r.err());
            String golden = Fixtures.golden(c[0], c[1]);
            assertTrue(golden.contains("# captured on    : "), "golden has a captured-on line");
            assertEquals(withoutCapturedOn(golden), withoutCapturedOn(r.out()), c[2]);
        }
    }

    /**
     * perf's warnings at the end of a run over a recording that lost events, on standard error:
     * the lost chunks (not when script printed the LOST records) and the share of lost samples.
     */
    @Test
    void aRecordingThatLostEventsWarnsAsPerf() {
        CliFixtures.Run r = run("lost", "script", "--show-lost-events", "--show-task-events");
        assertEquals(0, r.rc(), r.err());
        assertEquals(Fixtures.golden("lost", "script-lost.stderr"), r.err());
        for (String[] args : new String[][] {{"report", "--stdio"}, {"script"}, {"dump"}}) {
            CliFixtures.Run w = run("lost", args);
            assertEquals(0, w.rc(), w.err());
            assertEquals(Fixtures.golden("lost", "warnings.stderr"), w.err(), String.join(" ", args));
        }
        CliFixtures.Run s = run("lost", "dump", "--stats");
        assertEquals("", s.err(), "perf report --stats prints no such warning");
    }

    /** report --header-only, -D and --stats are perfj header, dump and dump --stats: perf's goldens of those. */
    @Test
    void reportAliasesOfHeaderAndDump() {
        CliFixtures.Run h = run("c-fp", "report", "--header-only");
        assertEquals(0, h.rc(), h.err());
        assertEquals(withoutCapturedOn(Fixtures.golden("c-fp", "header")), withoutCapturedOn(h.out()));
        CliFixtures.Run hi = run("c-fp", "report", "--header-only", "-I");
        assertEquals(withoutCapturedOn(Fixtures.golden("c-fp", "header-I")), withoutCapturedOn(hi.out()));
        CliFixtures.Run s = run("c-fp", "report", "--stats");
        assertEquals(0, s.rc(), s.err());
        assertEquals(Fixtures.golden("c-fp", "stats"), s.out());
        CliFixtures.Run d = run("two-events", "report", "-D");
        assertEquals(0, d.rc(), d.err());
        // perf names the file as it was given: the golden's was given from fixtures/
        assertEquals(Fixtures.golden("two-events", "D"),
                d.out().replace("@" + Fixtures.recording("two-events") + " [", "@two-events.data ["));
    }

    /** -F with a field the samples lack: nothing printed, perf's message, a failure. */
    @Test
    void fieldsNotRecordedAreRefusedWithPerfsMessage() {
        for (String[] c : new String[][] {{"cpu-not-recorded", "cpu,ip,sym"}, {"addr-not-recorded", "comm,tid,ip,sym,addr"}}) {
            CliFixtures.Run r = run("c-fp", "script", "-F", c[1]);
            assertNotEquals(0, r.rc());
            assertEquals("", r.out());
            assertEquals("perfj: " + Fixtures.golden("c-fp", "script-" + c[0] + ".stderr"), r.err());
        }
    }

    /** Options perf has and perfj cannot honour: one line naming the reason, a failure. */
    @Test
    void refusedOptionsSayWhy() {
        for (String[] args : new String[][] {{"report", "-T"},
            {"script", "-s", "x.py"}, {"script", "--dlfilter", "f.so"}}) {
            CliFixtures.Run r = run("c-fp", args);
            assertNotEquals(0, r.rc(), String.join(" ", args));
            assertEquals("", r.out());
            assertTrue(r.err().startsWith("perfj: " + args[0] + " " + args[1]) && r.err().strip().lines().count() == 1,
                    r.err());
        }
    }

    /** A --time perf cannot read fails with perf's words; -C on a recording without CPUs too. */
    @Test
    void badTimeAndCpuSelectionsFail() {
        CliFixtures.Run t = run("sample-cpu", "report", "--stdio", "--time", "1.2.3,4");
        assertNotEquals(0, t.rc());
        assertTrue(t.err().contains("Invalid time string: '1.2.3,4'"), t.err());
        CliFixtures.Run c = run("c-fp", "script", "-C", "1");
        assertNotEquals(0, c.rc());
        assertTrue(c.err().contains("does not contain CPU events"), c.err());
    }
}
