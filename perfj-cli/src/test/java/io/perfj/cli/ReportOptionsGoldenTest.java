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
 * perf report's options of the output's shape: {@code -g}'s value field (percent, period,
 * count), sort key and print limit; {@code -F}'s columns and order; the parent symbols of
 * {@code --sort parent}, {@code -p} and {@code -x}. Under {@code --compat perf-6.1} against perf 6.1's output;
 * by default against perf 7.2's where perf 7.2 prints the same recording as perf 6.1 does
 * (fixtures/make-options.sh makes both; fixtures/README.md, "Options and filters", says where
 * they differ).
 */
class ReportOptionsGoldenTest {
    /** One case: fixture, golden kind, whether perf 7.2's golden is the default's answer, perfj's arguments. */
    record Case(String name, String kind, boolean perf72, String... args) {
    }

    static final List<Case> CASES = List.of(
            new Case("c-fp", "report-g-count", true, "--no-children", "-g", "graph,0.5,callee,count"),
            new Case("c-fp", "report-g-flat-period", true, "--no-children", "-g", "flat,period"),
            new Case("c-fp", "report-g-caller-function-period", false, "-g", "graph,0.5,caller,function,period"),
            new Case("c-fp", "report-g-fractal-count", false, "-g", "fractal,0.5,caller,count"),
            new Case("bpf-sys", "report-g-callee-period", false, "--no-children", "-g", "callee,period"),
            new Case("bpf-sys", "report-g-folded-count", false, "--no-children", "-g", "folded,count"),
            new Case("bpf-sys", "report-g-limit2-count", false, "--no-children", "-g", "graph,0.5,2,callee,count"),
            // -F: the fields as columns, rows keyed by its sort keys and sorted by it, field by field
            new Case("c-fp", "report-F-strict-children", false, "-F", "overhead,sample,period,sym", "-g", "none"),
            new Case("c-fp", "report-F-values", true, "--no-children", "-F",
                    "overhead,overhead_sys,overhead_us,sample,period,comm,dso,sym"),
            // '+': added to the default columns, rows as without it
            new Case("c-fp", "report-F-plus", true, "--no-children", "-F", "+period,sample"),
            new Case("c-fp", "report-F-plus-children", false, "-F", "+period"),
            // --sort first, then the fields; a key --sort names and -F does not is a column after them
            new Case("c-fp", "report-F-sort-sym", true, "--no-children", "-F", "sym,overhead", "-s", "sym"),
            new Case("c-fp", "report-F-sort-dso", true, "--no-children", "-F", "overhead,sym", "-s", "dso"),
            new Case("c-fp", "report-F-children-na", true, "--no-children", "-F", "overhead_children,sym"),
            new Case("c-fp", "report-F-sort-symbol-ipc", true, "--no-children", "-F", "overhead,sym", "-s", "symbol"),
            new Case("bpf-sys", "report-F-sys-us-comm", true, "--no-children", "-F",
                    "overhead,overhead_sys,overhead_us,comm", "-g", "none"),
            new Case("bpf-sys", "report-F-children-dso-sym", false, "-F", "overhead_children,overhead,sample,dso,sym",
                    "-g", "none"),
            new Case("two-events", "report-F-period-sym", true, "--no-children", "-F", "overhead,period,sym",
                    "-g", "none"),
            // parent symbols: the first callchain symbol matching the pattern, "[other]" without one
            new Case("bpf-sys", "report-sort-parent", true, "--no-children", "-g", "none", "--sort", "parent"),
            new Case("bpf-sys", "report-p-pattern", false, "--no-children", "-g", "none", "-p", "^__sys_bpf|^do_idle"),
            new Case("bpf-sys", "report-p-x-comm", true, "--no-children", "-g", "none", "-p", "^__sys_bpf|^do_idle",
                    "-x", "-s", "comm"),
            new Case("bpf-sys", "report-p-x-children", true, "-p", "^__sys_bpf|^do_idle", "-x", "-s", "comm,dso"),
            new Case("bpf-sys", "report-p-parent-comm-graph", false, "--no-children", "-p", "bpf", "-s", "parent,comm"),
            new Case("c-fp", "report-p-main", false, "-p", "main", "-s", "parent", "-g", "none"),
            new Case("bpf-sys", "report-F-parent", false, "--no-children", "-p", "^__sys_bpf|^do_idle", "-F",
                    "overhead,parent,sym", "-g", "none"));

    /** perfj report on a fixture with the committed build-id cache, under perf 6.1's compatibility or not. */
    static CliFixtures.Run report(String name, boolean compat, String... args) {
        List<String> all = new ArrayList<>(List.of("report", "--stdio"));
        if (compat) {
            all.addAll(List.of("--compat", "perf-6.1"));
        }
        all.addAll(List.of(args));
        all.addAll(List.of("-i", Fixtures.recording(name).toString(), "--buildid-dir",
                BuildIdCacheFixture.dir().toString(), "--no-system-files",
                "--perf-map-dir", Fixtures.file("perf-maps").toString()));
        return CliFixtures.run(all.toArray(new String[0]));
    }

    private static String noTip(String s) {
        return String.join("\n", ReportGoldenTest.withoutTip(s));
    }

    @TestFactory
    Stream<DynamicTest> compatIsPerf61s() {
        return CASES.stream().map(c -> DynamicTest.dynamicTest(c.name() + " " + c.kind(), () -> {
            CliFixtures.Run r = report(c.name(), true, c.args());
            assertEquals(0, r.rc(), r.err());
            assertEquals(noTip(Fixtures.golden(c.name(), c.kind())), noTip(r.out()));
        }));
    }

    @TestFactory
    Stream<DynamicTest> defaultIsPerf72s() {
        return CASES.stream().filter(Case::perf72).map(c -> DynamicTest.dynamicTest(c.name() + " " + c.kind(), () -> {
            CliFixtures.Run r = report(c.name(), false, c.args());
            assertEquals(0, r.rc(), r.err());
            assertEquals(noTip(Fixtures.golden(c.name(), c.kind() + ".perf72")), noTip(r.out()));
        }));
    }

    /**
     * perf takes any prefix of -g's words, the first in its order of them: "f" is flat, "calle"
     * caller (not callee).
     */
    @Test
    void gWordsMayBeCutShort() {
        CliFixtures.Run full = report("c-fp", true, "--no-children", "-g", "graph,0.5,caller,count");
        CliFixtures.Run cut = report("c-fp", true, "--no-children", "-g", "gr,0.5,calle,co");
        assertEquals(0, cut.rc(), cut.err());
        assertEquals(full.out(), cut.out());
        assertTrue(cut.out().contains("---__libc_start_call_main"), cut.out());
        CliFixtures.Run flat = report("c-fp", true, "--no-children", "-g", "flat,period");
        assertEquals(flat.out(), report("c-fp", true, "--no-children", "-g", "f,peri").out());
    }

    /** A field perf does not have is a usage error naming it. */
    @Test
    void unknownFieldsFail() {
        CliFixtures.Run r = report("c-fp", false, "-F", "overhead,nosuch");
        assertNotEquals(0, r.rc());
        assertTrue(r.err().contains("unknown field 'nosuch'"), r.err());
    }

    /** A word -g lacks is an error (CallchainKeyGoldenTest has the address and srcline keys). */
    @Test
    void unknownCallGraphWordsFail() {
        CliFixtures.Run w = report("c-fp", false, "-g", "graph,sideways");
        assertNotEquals(0, w.rc());
        assertTrue(w.err().contains("'sideways'"), w.err());
    }
}
