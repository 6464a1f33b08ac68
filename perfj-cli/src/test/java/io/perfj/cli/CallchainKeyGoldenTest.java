package io.perfj.cli;

import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * report's callchain keys ({@code -g address}, {@code -g srcline}) on srcline.data
 * (fixtures/make-srcline.sh): callchain nodes told apart by address or by source line, each
 * printed as its symbol and line, in every mode and order, against perf 6.1
 * ({@code --compat perf-6.1}) and perf 7.2 (by default); on cpp-inline.data
 * (fixtures/make-cpp-inline.sh), DWARF chains with inlined functions, how perf merges nodes of
 * one line text and orders siblings of equal value; and {@code -g}'s {@code branch} word.
 */
class CallchainKeyGoldenTest {
    private static String[] args(String kind) {
        return switch (kind) {
            case "report-g-address" -> new String[] {"--no-children", "-g", "address"};
            case "report-g-caller-address-children" -> new String[] {"--children", "-g", "graph,0.5,caller,address"};
            case "report-g-srcline" -> new String[] {"--no-children", "-g", "srcline"};
            case "report-g-srcline-children" -> new String[] {"-g", "srcline,callee"};
            case "report-g-folded-address" -> new String[] {"--no-children", "-g", "folded,address"};
            case "report-g-flat-address-count" -> new String[] {"--no-children", "-g", "flat,0,address,count"};
            case "report-g-fractal-address" -> new String[] {"--no-children", "--call-graph=fractal,0.5,caller,address"};
            case "report-G-address" -> new String[] {"--no-children", "-G", "-g", "address"};
            default -> throw new IllegalArgumentException(kind);
        };
    }

    private static String report(boolean compat, String kind) {
        List<String> a = new ArrayList<>(List.of("report"));
        if (compat) {
            a.addAll(List.of("--compat", "perf-6.1"));
        }
        a.addAll(List.of("-i", Fixtures.recording("srcline").toString(),
                "--buildid-dir", BuildIdCacheFixture.unpacked("srcline.buildid-cache").toString(), "--no-system-files",
                "--stdio"));
        a.addAll(Arrays.asList(args(kind)));
        CliFixtures.Run r = CliFixtures.run(a.toArray(String[]::new));
        assertEquals(0, r.rc(), r.err());
        return r.out();
    }

    private static String noTip(String text) {
        return String.join("\n", ReportGoldenTest.withoutTip(text));
    }

    /**
     * The user-space address in no map that only --children shows as a row: perf 6.1 gives it
     * the kernel's level in callee order whatever the key, perfj the user's (as with -g callee).
     */
    private static String unmappedLevel(String text) {
        return text.replace("[unknown]          [k] 0x00007f", "[unknown]          [.] 0x00007f");
    }

    private static String[] cppInlineArgs(String kind) {
        return switch (kind) {
            case "report-g-address" -> new String[] {"--no-children", "-g", "address"};
            case "report-g-caller-address-children" -> new String[] {"--children", "-g", "graph,0.5,caller,address"};
            case "report-g-srcline" -> new String[] {"--no-children", "-g", "srcline"};
            case "report-g-srcline-children" -> new String[] {"--children", "-g", "srcline"};
            case "report-g-folded-srcline" -> new String[] {"--no-children", "-g", "folded,srcline"};
            case "report-g-caller-function-branch" -> new String[] {"--no-children", "-g", "graph,0.5,caller,function,branch"};
            default -> throw new IllegalArgumentException(kind);
        };
    }

    private static String cppInline(boolean compat, String kind) {
        List<String> a = new ArrayList<>(List.of("report"));
        if (compat) {
            a.addAll(List.of("--compat", "perf-6.1"));
        }
        a.addAll(List.of("-i", Fixtures.recording("cpp-inline").toString(), "--buildid-dir",
                BuildIdCacheFixture.unpacked("cpp-inline.buildid-cache").toString(), "--no-system-files", "--stdio"));
        a.addAll(Arrays.asList(cppInlineArgs(kind)));
        CliFixtures.Run r = CliFixtures.run(a.toArray(String[]::new));
        assertEquals(0, r.rc(), r.err());
        return r.out();
    }

    /**
     * cpp-inline with perf 6.1's answers: {@code -g srcline} makes one node of the frames of one
     * line text whatever their function ({@code cppinline.cc:17} in {@code mix<..., 3>} and in
     * {@code _M_invoke}), printed as the first frame that reached it; siblings of equal value
     * come with the larger key first (the address with {@code -g address}, the text with
     * {@code -g srcline}); {@code branch} changes nothing on a recording without branch stacks.
     */
    @ParameterizedTest
    @ValueSource(strings = {"report-g-address", "report-g-caller-address-children", "report-g-srcline",
            "report-g-srcline-children", "report-g-folded-srcline", "report-g-caller-function-branch"})
    void cppInlineIsPerf61sWithCompat(String kind) {
        assertEquals(noTip(Fixtures.golden("cpp-inline", kind)), noTip(cppInline(true, kind)));
    }

    /**
     * The same on perf 7.2's names and widths, but for the callchains of the two ld.so samples and the
     * handlers' own frames, which perf prints as {@code _M_invoke} inlined in itself (see CppInlineGoldenTest).
     */
    @ParameterizedTest
    @ValueSource(strings = {"report-g-address", "report-g-caller-address-children", "report-g-srcline",
            "report-g-srcline-children", "report-g-folded-srcline", "report-g-caller-function-branch"})
    void cppInlineIsPerf72sByDefault(String kind) {
        CppInlineGoldenTest.assertSameButForSelfFrames(CppInlineGoldenTest.comparable(Fixtures.golden("cpp-inline", kind + ".perf72")),
                CppInlineGoldenTest.comparable(cppInline(false, kind)));
    }

    /**
     * {@code -g ...,branch} where an event samples branches (not LBR call stacks): refused, here
     * with perf's reason (the recording has branch stacks but no callchains).
     */
    @org.junit.jupiter.api.Test
    void branchWordIsRefusedOnSampledBranches() {
        CliFixtures.Run r = CliFixtures.run("report", "--stdio", "-g", "caller,branch", "-i",
                Fixtures.file("corpus/q-branch-4.14.data").toString(), "--no-system-files");
        assertEquals(1, r.rc(), r.out());
        assertTrue(r.err().contains("Selected -g or --branch-history. But no callchain or branch data."), r.err());
    }

    @ParameterizedTest
    @ValueSource(strings = {"report-g-address", "report-g-caller-address-children", "report-g-srcline",
            "report-g-srcline-children", "report-g-folded-address", "report-g-flat-address-count",
            "report-g-fractal-address", "report-G-address"})
    void isPerf61sWithCompat(String kind) {
        String out = report(true, kind);
        String want = noTip(Fixtures.golden("srcline", kind));
        assertEquals(kind.equals("report-g-srcline-children") ? unmappedLevel(want) : want, noTip(out));
        assertTrue(out.contains("churn mix.h:6") && out.contains("fill ??:0"), out);
    }

    /**
     * perf 7.2's output, the functions inlined at frame-pointer addresses included ({@code mix
     * mix.h:6 (inlined)} over {@code churn srcline.c:14}), but for perf 7.2's {@code [.]} on kernel
     * rows made from callchains (fixtures/README.md, class {@code kernel-row-level}), where perfj
     * prints {@code [k]}.
     */
    @ParameterizedTest
    @ValueSource(strings = {"report-g-address", "report-g-caller-address-children", "report-g-srcline",
            "report-g-folded-address", "report-g-flat-address-count", "report-g-fractal-address", "report-G-address"})
    void isPerf72sByDefault(String kind) {
        String want = noTip(Fixtures.golden("srcline", kind + ".perf72"))
                .replace("[kernel.kallsyms]  [.]", "[kernel.kallsyms]  [k]");
        assertTrue(want.contains("mix mix.h:6 (inlined)"), want);
        assertEquals(want, noTip(report(false, kind)));
    }
}
