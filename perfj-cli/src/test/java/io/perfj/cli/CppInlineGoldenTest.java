package io.perfj.cli;

import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * cpp-inline.data: a C++ program calling lambdas through std::function, recorded with
 * {@code --call-graph dwarf} (fixtures/make-cpp-inline.sh). Each lambda's
 * {@code _Function_handler<...>::_M_invoke} is a function of its own with the lambda and
 * {@code std::__invoke_r} inlined into it, so the same inlined names ({@code operator()},
 * {@code fold<long unsigned int>}) come from different functions: perf 6.1 and perf 7.2 both
 * make one callchain node of them (inlined frames match by name), and order equal siblings by
 * name. addr2line names each handler itself, at the outer end of its chains, by its DWARF name
 * {@code _M_invoke}: both perfs print that as an inlined function in place of the frame, so all
 * handlers are one {@code _M_invoke (inlined)} node; perfj's default keeps the handler's own
 * frame (class {@code self-as-inlined} of fixtures/README.md).
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

    /** perf 7.2's rows of a handler as inlined in itself (class {@code self-as-inlined}). */
    private static final String SELF_AS_INLINED = "_M_invoke (inlined)";

    /**
     * The same entries, graphs and names as perf 7.2's but where perf 7.2 prints a handler as
     * {@code _M_invoke (inlined)}: its children rows of that name are gone (the handler's own
     * rows have those samples), and the graphs through a handler are not compared here
     * ({@link #unwoundHandlerKeepsItsFrame}). Functions and the inlined functions addr2line gives
     * linkage names for carry their parameter lists
     * ({@code std::function<unsigned long (unsigned long)>::operator()(unsigned long) const (inlined)}),
     * in the column's width. perf 7.2 also makes no callchain of a sample in an object it cannot
     * read (ld.so, not in the cache), where perfj's keeps the sampled address: those children
     * rows are left out.
     */
    @ParameterizedTest
    @ValueSource(strings = {"report", "report-no-children"})
    void defaultIsPerf72sButForSelfFrames(String kind) {
        CliFixtures.Run r = kind.endsWith("no-children") ? run("report", "--stdio", "--no-children")
                : run("report", "--stdio");
        List<String> want = List.of(comparable(golden(kind + ".perf72")).split("\n"));
        List<String> got = List.of(comparable(r.out()).split("\n"));
        assertEquals(want.stream().filter(ReportGoldenTest::isRow).filter(l -> !l.endsWith("[.] " + SELF_AS_INLINED)).toList(),
                got.stream().filter(ReportGoldenTest::isRow).toList());
        List<String> same = ReportGoldenTest.blocks(want).stream().filter(b -> !b.contains(SELF_AS_INLINED)).toList();
        assertTrue(same.size() >= 3, same.size() + " entries whose graphs meet no handler");
        List<String> ours = ReportGoldenTest.blocks(got);
        for (String b : same) {
            assertTrue(ours.contains(b), b);
        }
        assertTrue(r.out().contains("[.] std::_Function_handler<unsigned long (unsigned long), main::{lambda(unsigned long)#3}>"
                + "::_M_invoke(std::_Any_data const&, unsigned long&&)\n"), "a function with its parameters");
    }

    /**
     * An unwound frame whose function addr2line names otherwise than its symbol (each handler's
     * {@code _M_invoke}) keeps its symbol and object, in script and in report's graphs: the
     * handlers are three nodes, not one {@code _M_invoke (inlined)} (perf 6.1's node under
     * {@code --compat perf-6.1}, {@link #compatIsPerf61s}); the functions really inlined at the
     * address stay before it. With {@code --no-inline} the frame alone.
     */
    @Test
    void unwoundHandlerKeepsItsFrame() {
        String handler1 = "std::_Function_handler<unsigned long (unsigned long), main::{lambda(unsigned long)#1}>"
                + "::_M_invoke(std::_Any_data const&, unsigned long&&)";
        String report = run("report", "--stdio").out();
        assertFalse(report.contains(SELF_AS_INLINED), "no handler as inlined in itself");
        assertTrue(report.contains("|--40.27%--" + handler1 + "\n"), "handler #1 a node of its own");
        String script = run("script").out();
        assertFalse(script.contains(SELF_AS_INLINED), "no handler as inlined in itself");
        String frame = "\t    55abe556d48e " + handler1 + "+0x2e (";
        String invoke = "\t    55abe556d48e __invoke_r<long unsigned int, main(int, char**)::<lambda(long unsigned int)>&,"
                + " long unsigned int>+0x2e (inlined)\n";
        int at = script.indexOf(invoke + frame);
        assertTrue(at >= 0, "the function inlined last, then the handler's frame");
        String own = script.substring(at + invoke.length(), script.indexOf('\n', at + invoke.length()));
        assertTrue(own.endsWith("/cppinline)"), "the handler's frame with its object: " + own);
        String compat = run("script", "--compat", "perf-6.1").out();
        assertTrue(compat.contains(" _M_invoke+0x2e (inlined)\n"), "perf 6.1's name");
        String noInline = run("script", "--no-inline").out();
        assertTrue(noInline.contains(frame) && !noInline.contains("(inlined)"), "--no-inline: the frame alone");
    }

    /**
     * perf's report of cpp-inline against perfj's default, which keeps each handler's own frame
     * where perf prints {@code _M_invoke} as inlined in itself (fixtures/README.md, class
     * {@code self-as-inlined}): the same rows but perf's rows of that name, and every entry whose
     * callchains meet no such frame the same, callchains included.
     */
    static void assertSameButForSelfFrames(String perf, String perfj) {
        java.util.function.Predicate<String> self = l -> l.matches(".*(^|[\\s;-])_M_invoke\\b.*\\(inlined\\).*");
        List<String> want = List.of(perf.split("\n"));
        List<String> got = List.of(perfj.split("\n"));
        assertTrue(want.stream().anyMatch(self), "perf's output has the frames this rule is about");
        assertFalse(got.stream().anyMatch(self), "perfj's has none");
        assertEquals(want.stream().filter(ReportGoldenTest::isRow).filter(self.negate()).toList(),
                got.stream().filter(ReportGoldenTest::isRow).toList());
        List<String> same = ReportGoldenTest.blocks(want).stream().filter(b -> b.lines().noneMatch(self)).toList();
        assertFalse(same.isEmpty(), "entries whose callchains meet no handler");
        List<String> ours = ReportGoldenTest.blocks(got);
        for (String b : same) {
            assertTrue(ours.contains(b), b);
        }
    }

    /**
     * A report without its tip and the children rows of the two ld.so samples, of which perf 7.2
     * makes no callchain (perfj keeps the sampled address).
     */
    static String comparable(String report) {
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

    /** By default {@code -v} prints perf 7.2's (perf 6.1's too: the two agree here), but for the handlers' own frames. */
    @ParameterizedTest
    @ValueSource(strings = {"report-verbose", "report-verbose-children"})
    void verboseDefaultIsPerf72s(String kind) {
        CliFixtures.Run r = run(verboseArgs(kind, false));
        assertSameButForSelfFrames(fromCache(comparable(golden(kind + ".perf72"))), comparable(r.out()));
        assertSameButForSelfFrames(fromCache(noTip(golden(kind))), noTip(r.out()));
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
     * which perf 6.1 prints nowhere else. Both perfs print the same lines, each in its layout;
     * the default keeps each handler's own frame where perf 7.2 prints {@code _M_invoke+OFF}
     * marked inlined ({@link Perf72GoldenTest#selfFramesOf}), the outer level's line without the
     * mark. The samples in ld.so (resolved from the system's files by perf) are left out.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void scriptPrintsEachInlineLevelsLine(boolean compat) {
        CliFixtures.Run r = compat ? run("script", "--compat", "perf-6.1", "-F", "+srcline") : run("script", "-F", "+srcline");
        String want = compat ? golden("script-srcline")
                : Perf72GoldenTest.selfFramesOf(golden("script-srcline.perf72"), r.out());
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
