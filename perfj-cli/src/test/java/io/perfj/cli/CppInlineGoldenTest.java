package io.perfj.cli;

import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * cpp-inline.data: a C++ program calling lambdas through std::function, recorded with
 * {@code --call-graph dwarf} (fixtures/make-cpp-inline.sh). Each lambda's
 * {@code _Function_handler<...>::_M_invoke} is a function of its own with the lambda and
 * {@code std::__invoke_r} inlined into it, so the same inlined names ({@code _M_invoke},
 * {@code operator()}, {@code fold<long unsigned int>}) come from different functions: perf 6.1
 * and perf 7.2 both make one callchain node of them (inlined frames match by name), and order
 * equal siblings by name.
 */
class CppInlineGoldenTest {
    private static CliFixtures.Run run(String... args) {
        List<String> a = new ArrayList<>(List.of(args));
        a.addAll(List.of("-i", Fixtures.recording("cpp-inline").toString(), "--buildid-dir",
                BuildIdCacheFixture.unpacked("cpp-inline.buildid-cache").toString(), "--no-system-files"));
        CliFixtures.Run r = CliFixtures.run(a.toArray(String[]::new));
        assertEquals(0, r.rc(), r.err());
        return r;
    }

    private static String noTip(String text) {
        return String.join("\n", ReportGoldenTest.withoutTip(text));
    }

    private static String golden(String kind) {
        return Fixtures.golden("cpp-inline", kind);
    }

    @ParameterizedTest
    @ValueSource(strings = {"report", "report-no-children"})
    void compatIsPerf61s(String kind) {
        List<String> a = new ArrayList<>(List.of("report", "--stdio", "--compat", "perf-6.1"));
        if (kind.endsWith("no-children")) {
            a.add("--no-children");
        }
        CliFixtures.Run r = run(a.toArray(String[]::new));
        assertEquals(noTip(golden(kind)), noTip(r.out()));
        assertTrue(kind.endsWith("no-children") || r.out().contains("--76.79%--_M_invoke (inlined)\n"), "one _M_invoke node");
    }

    /**
     * The same entries, graphs and names as perf 7.2's: functions and the inlined functions
     * addr2line gives linkage names for carry their parameter lists
     * ({@code std::function<unsigned long (unsigned long)>::operator()(unsigned long) const (inlined)}),
     * in the column's width. perf 7.2 also makes no callchain of a sample in an object it cannot
     * read (ld.so, not in the cache), where perfj's keeps the sampled address: those children
     * rows are left out.
     */
    @ParameterizedTest
    @ValueSource(strings = {"report", "report-no-children"})
    void defaultIsPerf72s(String kind) {
        CliFixtures.Run r = kind.endsWith("no-children") ? run("report", "--stdio", "--no-children")
                : run("report", "--stdio");
        String want = golden(kind + ".perf72");
        assertEquals(comparable(want), comparable(r.out()));
        assertTrue(kind.endsWith("no-children") || r.out().contains("--76.79%--_M_invoke (inlined)\n"), "one _M_invoke node");
        assertTrue(r.out().contains("[.] std::_Function_handler<unsigned long (unsigned long), main::{lambda(unsigned long)#3}>"
                + "::_M_invoke(std::_Any_data const&, unsigned long&&)\n"), "a function with its parameters");
    }

    private static String comparable(String report) {
        List<String> out = new ArrayList<>();
        for (String l : noTip(report).split("\n")) {
            if (!l.matches(" +[0-9.]+% +0\\.00% .*ld-linux-x86-64\\.so\\.2 +(0x\\p{XDigit}+ +! )?\\[\\.\\] 0x00007f.*")) {
                out.add(l);
            }
        }
        return String.join("\n", out).stripTrailing();
    }

    /**
     * {@code -v}: perf 6.1 demangles C++ names with their parameter lists, as perf 7.2 always does
     * (functions and callchain entries alike; the inlined functions keep the names addr2line
     * gives). Under {@code --compat perf-6.1} perfj prints perf 6.1's reports byte for byte but
     * the letter of where the program's symbols came from: perf read it under {@code --symfs}
     * ({@code d}), perfj from the build-id cache ({@code B}).
     */
    @ParameterizedTest
    @ValueSource(strings = {"report-verbose", "report-verbose-children", "report-verbose-children-graph"})
    void verboseCompatIsPerf61s(String kind) {
        CliFixtures.Run r = run(verboseArgs(kind, true));
        assertEquals(fromCache(noTip(golden(kind))), noTip(r.out()));
        assertTrue(r.out().contains("[.] std::_Function_handler<unsigned long (unsigned long), main::{lambda(unsigned long)#1}>"
                + "::_M_invoke(std::_Any_data const&, unsigned long&&)\n"), "a function with its parameters");
    }

    /** By default {@code -v} prints perf 7.2's (perf 6.1's too: the two agree here). */
    @ParameterizedTest
    @ValueSource(strings = {"report-verbose", "report-verbose-children"})
    void verboseDefaultIsPerf72s(String kind) {
        CliFixtures.Run r = run(verboseArgs(kind, false));
        assertEquals(fromCache(comparable(golden(kind + ".perf72"))), comparable(r.out()));
        assertEquals(fromCache(noTip(golden(kind))), noTip(r.out()));
    }

    private static String[] verboseArgs(String kind, boolean compat) {
        List<String> a = new ArrayList<>(List.of("report", "--stdio", "-v"));
        if (kind.equals("report-verbose")) {
            a.add("--no-children");
        } else if (kind.equals("report-verbose-children")) {
            a.addAll(List.of("-g", "none"));
        }
        if (compat) {
            a.addAll(List.of("--compat", "perf-6.1"));
        }
        return a.toArray(String[]::new);
    }

    /** A golden's origin letter of the program's symbols as when read from the build-id cache. */
    private static String fromCache(String golden) {
        return golden.replaceAll("(bin/cppinline +0x[0-9a-f]+ +)d \\[", "$1B [");
    }

    /**
     * Each level of a DWARF chain's inline expansion prints its own source line, as
     * {@code addr2line -i} gives it: the innermost function the address's line, the others the
     * call site of the next inner one ({@code operator()+0x2e} at {@code cppinline.cc:35}), the
     * frame's own function included; a level addr2line knows no line of prints {@code ??:0},
     * which perf 6.1 prints nowhere else. Both perfs print the same lines, each in its layout.
     * The samples in ld.so (resolved from the system's files by perf) are left out.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void scriptPrintsEachInlineLevelsLine(boolean compat) {
        CliFixtures.Run r = compat ? run("script", "--compat", "perf-6.1", "-F", "+srcline") : run("script", "-F", "+srcline");
        String want = golden(compat ? "script-srcline" : "script-srcline.perf72");
        assertTrue(r.out().contains("operator()+0x2e\n  cppinline.cc:35 (inlined)\n"), r.out());
        assertTrue(r.out().contains("\n  ??:0\n"), "_start's line from addr2line");
        assertEquals(withoutLdSo(want), withoutLdSo(r.out()));
    }

    /** Script text without the samples that have a frame in ld.so or no frame at all. */
    private static String withoutLdSo(String script) {
        List<String> out = new ArrayList<>();
        for (String sample : script.split("\n\n")) {
            if (!sample.contains("ld-linux-x86-64.so.2") && sample.contains("\n\t")) {
                out.add(sample);
            }
        }
        return String.join("\n\n", out);
    }
}
