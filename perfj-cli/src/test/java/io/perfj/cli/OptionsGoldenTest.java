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

    static CliFixtures.Run run(String name, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("-i", Fixtures.recording(name).toString(), "--buildid-dir",
                BuildIdCacheFixture.dir().toString(), "--no-system-files",
                "--perf-map-dir", Fixtures.file("perf-maps").toString()));
        if (List.of("sample-cpu", "fixed-period", "sideband", "lost").contains(name)) {
            all.addAll(List.of("-k", Fixtures.file("kallsyms-sample-cpu.txt").toString()));
        }
        return CliFixtures.runPerf(all.toArray(new String[0]));
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
        for (String[] args : new String[][] {{"report", "--stdio", "-s", "srcline"}, {"report", "--stdio", "-s", "sym,srcline"},
            {"report", "--stdio", "-s", "srcfile"}, {"script", "-F", "ip,sym,srcline"}}) {
            CliFixtures.Run r = run("c-fp", args);
            assertNotEquals(0, r.rc(), String.join(" ", args));
            assertTrue(r.err().startsWith("perfj: " + args[0]) && r.err().contains("is not supported")
                    && r.err().strip().lines().count() == 1, r.err());
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
