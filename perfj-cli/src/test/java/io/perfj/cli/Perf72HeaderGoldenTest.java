package io.perfj.cli;

import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * {@code perfj header [-I]} and {@code dump --stats} against perf 7.2's {@code report
 * --header-only [-I]} and {@code --stats} (part "header" of fixtures/make-perf72-goldens.sh) in the
 * default mode, and against perf 6.1's under {@code --compat perf-6.1}; the warnings on standard
 * error against both (part "stderr"); the two recordings perf 7.2 made (make-perf72-record.sh:
 * its newer features, a pipe whose tracing data follows its features) against perf 7.2 alone.
 * The "captured on" line is the file's mtime, which a
 * checkout resets: it is left out. Outputs listed in {@code golden/perf72-differences.txt} must
 * differ from perf 7.2's.
 */
class Perf72HeaderGoldenTest {
    /** NAME: the kinds perf 6.1 and 7.2 made of it. */
    private static final List<String> HEADERS = List.of(
            "c-fp bpf-sys bpf-dwarf pipe zstd java two-events : header header-I stats",
            "record-clock : header header-I",
            "record-hot record-pipe : header",
            "tp-sched tp-proc tp-syscalls tp-irq-timer tp-uprobe tp-tcp tp-pipe tp-chain tp-tree tp-btrfs : header-I",
            "p72-record : header header-I stats",
            "p72-pipe : header header-I");

    /** Recorded by perf 7.2 (fixtures/make-perf72-record.sh): perf 6.1 cannot read them, there is no golden of it. */
    private static final java.util.Set<String> PERF72_ONLY = java.util.Set.of("p72-record", "p72-pipe");

    record Case(String name, String kind) {
        String[] args(boolean perf61) {
            List<String> a = new ArrayList<>(switch (kind) {
                case "header" -> List.of("header");
                case "header-I" -> List.of("header", "-I");
                default -> List.of("dump", "--stats");
            });
            if (perf61) {
                a.addAll(List.of("--compat", "perf-6.1"));
            }
            a.addAll(List.of("-i", Fixtures.recording(name).toString()));
            return a.toArray(new String[0]);
        }
    }

    static List<Case> cases() {
        List<Case> all = new ArrayList<>();
        for (String row : HEADERS) {
            String[] parts = row.split(" : ");
            for (String name : parts[0].split(" ")) {
                for (String kind : parts[1].split(" ")) {
                    all.add(new Case(name, kind));
                }
            }
        }
        return all;
    }

    static String withoutCapturedOn(String s) {
        return s.replaceFirst("# captured on    : [^\n]*\n", "");
    }

    @TestFactory
    Stream<DynamicTest> defaultModeIsPerf72sExceptTheListedDifferences() {
        Map<String, String> listed = Perf72GoldenTest.differences();
        return cases().stream().map(c -> {
            String why = listed.get(c.name() + " " + c.kind());
            return DynamicTest.dynamicTest(c.name() + " " + c.kind() + (why == null ? "" : " (differs: " + why + ")"), () -> {
                CliFixtures.Run r = CliFixtures.run(c.args(false));
                assertEquals(0, r.rc(), r.err());
                assertEquals("", r.err());
                String want = withoutCapturedOn(Fixtures.golden(c.name(), c.kind() + ".perf72"));
                if (why == null) {
                    assertEquals(want, withoutCapturedOn(r.out()));
                } else {
                    assertNotEquals(want, withoutCapturedOn(r.out()),
                            "listed as differing (" + why + ") but equal now: remove it from the list");
                }
            });
        });
    }

    @TestFactory
    Stream<DynamicTest> compatModeIsPerf61s() {
        return cases().stream().filter(c -> !PERF72_ONLY.contains(c.name())).map(c -> DynamicTest.dynamicTest(
                c.name() + " " + c.kind(), () -> {
            CliFixtures.Run r = CliFixtures.run(c.args(true));
            assertEquals(0, r.rc(), r.err());
            assertEquals(withoutCapturedOn(Fixtures.golden(c.name(), c.kind())), withoutCapturedOn(r.out()));
        }));
    }

    /**
     * The warnings of a recording that lost events and the refusal of fields the samples lack:
     * perf 7.2 prints what perf 6.1 prints, and so does perfj in both modes.
     */
    @TestFactory
    Stream<DynamicTest> warningsOnStandardErrorAreBothPerfs() {
        List<DynamicTest> tests = new ArrayList<>();
        record Warn(String name, String kind, int rc, String prefix, String... args) {
        }
        List<Warn> warns = List.of(
                new Warn("lost", "warnings", 0, "", "report", "--stdio"),
                new Warn("lost", "warnings", 0, "", "script"),
                new Warn("lost", "warnings", 0, "", "dump"),
                new Warn("lost", "script-lost", 0, "", "script", "--show-lost-events", "--show-task-events"),
                new Warn("c-fp", "script-cpu-not-recorded", 2, "perfj: ", "script", "-F", "cpu,ip,sym"),
                new Warn("c-fp", "script-addr-not-recorded", 2, "perfj: ", "script", "-F", "comm,tid,ip,sym,addr"));
        for (Warn w : warns) {
            for (boolean perf61 : new boolean[] {false, true}) {
                String what = w.name() + " " + String.join(" ", w.args()) + (perf61 ? " --compat perf-6.1" : "");
                tests.add(DynamicTest.dynamicTest(what, () -> {
                    String[] args = OptionsGoldenTest.withFixture(w.name(), w.args());
                    CliFixtures.Run r = perf61 ? CliFixtures.runPerf(args) : CliFixtures.run(args);
                    assertEquals(w.rc() == 0, r.rc() == 0, r.err());
                    String golden = Fixtures.golden(w.name(), w.kind() + ".stderr" + (perf61 ? "" : ".perf72"));
                    assertEquals(w.prefix() + golden, r.err());
                }));
            }
        }
        return tests.stream();
    }
}
