package io.perfj.print;

import io.perfj.perfdata.PerfData;
import io.perfj.session.Session;
import io.perfj.session.SessionOptions;
import io.perfj.symbols.SymbolOptions;
import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * perfj's dump against {@code perf report -D} (golden/NAME.D.txt) and its stats against
 * {@code perf report --stats} (golden/NAME.stats.txt), line by line.
 *
 * <p>Dropped from perf's output before comparing, because they come from perf's thread and map
 * model, not from the file (see {@link DumpPrinter}): lines starting with
 * {@code " ... thread: "} and {@code " ...... dso: "}. Every other line must be identical.
 */
class DumpGoldenTest {
    static List<String> recordings() {
        return Fixtures.RECORDINGS;
    }

    /** Whether a perf -D line depends on perf's symbol/thread state. */
    static boolean symbolDependent(String line) {
        return line.startsWith(" ... thread: ") || line.startsWith(" ...... dso: ");
    }

    /**
     * The whole of perf report -D, line for line, with perf's thread and DSO lines taken from the
     * machine model built from the recording and the committed build-id cache alone.
     */
    @ParameterizedTest
    @MethodSource("recordings")
    void dumpMatchesPerf(String name) {
        Path file = Fixtures.recording(name);
        String golden = Fixtures.golden(name, "D");
        ByteArrayOutputStream w = new ByteArrayOutputStream();
        SymbolOptions opts = SymbolOptions.builder().buildIdDir(BuildIdCacheFixture.dir()).perfMapDir(Fixtures.file("perf-maps")).noSystemFiles().build();
        try (PerfData d = PerfData.open(file)) {
            new DumpPrinter(d, name + ".data", w, HeaderLayout.PERF_6_1).print(Session.of(d, SessionOptions.of(opts)));
        }
        List<String> expected = List.of(golden.split("\n", -1));
        int compared = compare(name + ".D", expected, List.of(w.toString(StandardCharsets.UTF_8).split("\n", -1)));
        assertTrue(expected.stream().anyMatch(DumpGoldenTest::symbolDependent));
        System.out.println(name + ".D: " + compared + " lines identical");
    }

    /** Without the model everything but perf's thread/DSO lines is still identical. */
    @ParameterizedTest
    @MethodSource("recordings")
    void dumpWithoutModelMatchesPerfButThreadLines(String name) {
        Path file = Fixtures.recording(name);
        String golden = Fixtures.golden(name, "D");
        ByteArrayOutputStream w = new ByteArrayOutputStream();
        try (PerfData d = PerfData.open(file)) {
            new DumpPrinter(d, name + ".data", w, HeaderLayout.PERF_6_1).print();
        }
        List<String> expected = new ArrayList<>();
        for (String l : golden.split("\n", -1)) {
            if (!symbolDependent(l)) {
                expected.add(l);
            }
        }
        compare(name + ".D", expected, List.of(w.toString(StandardCharsets.UTF_8).split("\n", -1)));
    }

    @ParameterizedTest
    @MethodSource("recordings")
    void statsMatchPerf(String name) {
        Path file = Fixtures.recording(name);
        String golden = Fixtures.golden(name, "stats");
        ByteArrayOutputStream w = new ByteArrayOutputStream();
        try (PerfData d = PerfData.open(file)) {
            StatsPrinter.print(d, w, HeaderLayout.PERF_6_1);
        }
        int compared = compare(name + ".stats", List.of(golden.split("\n", -1)), List.of(w.toString(StandardCharsets.UTF_8).split("\n", -1)));
        assertTrue(compared > 3);
    }

    /** Compares line lists; fails at the first difference with context. Returns lines compared. */
    static int compare(String what, List<String> expected, List<String> actual) {
        int n = Math.min(expected.size(), actual.size());
        for (int i = 0; i < n; i++) {
            if (!expected.get(i).equals(actual.get(i))) {
                StringBuilder sb = new StringBuilder(what + ": first difference at line " + (i + 1) + "\n");
                for (int k = Math.max(0, i - 4); k < i; k++) {
                    sb.append("    ").append(expected.get(k)).append('\n');
                }
                sb.append("perf:  ").append(expected.get(i)).append('\n');
                sb.append("perfj: ").append(actual.get(i)).append('\n');
                fail(sb.toString());
            }
        }
        if (expected.size() != actual.size()) {
            fail(what + ": perf printed " + expected.size() + " lines, perfj " + actual.size() + "; first extra: "
                    + (expected.size() > n ? "perf: " + expected.get(n) : "perfj: " + actual.get(n)));
        }
        return n;
    }
}
