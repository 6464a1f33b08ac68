package io.perfj.cli;

import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Branch stacks and LBR call stacks against perf 6.1, beyond the corpus's default commands:
 * report's branch mode with other sort keys and with {@code --no-branch-stack}, script's
 * {@code -F brstack}/{@code brstacksym}, and LBR callchains in callee order. The goldens are
 * {@code corpus/golden/NAME.TAG.txt}, made by {@code fixtures/make-corpus.sh} (its
 * {@code BRANCH_GOLDENS}), with the same empty symbol sources as the corpus test.
 */
class BranchGoldenTest {
    record Case(String name, String tag, boolean symfs, List<String> args) {
    }

    static final List<Case> CASES = List.of(
            new Case("q-branch-4.14", "report-no-branch-stack", false, List.of("report", "--stdio", "--no-branch-stack")),
            new Case("q-branch-4.14", "report-s-dso_from,dso_to,mispredict,in_tx,abort", false,
                    List.of("report", "--stdio", "-s", "dso_from,dso_to,mispredict,in_tx,abort")),
            new Case("q-branch-4.14", "report-s-comm,dso_to,cycles", false,
                    List.of("report", "--stdio", "-s", "comm,dso_to,cycles")),
            new Case("q-branch_stack_hw_index", "report-s-symbol_to", false,
                    List.of("report", "--stdio", "-s", "symbol_to")),
            new Case("q-branch_stack_hw_index", "report-s-dso_to,symbol_from,mispredict", false,
                    List.of("report", "--stdio", "-s", "dso_to,symbol_from,mispredict")),
            new Case("q-branch_stack_hw_index", "report-no-branch-stack", false,
                    List.of("report", "--stdio", "--no-branch-stack")),
            new Case("q-branch-4.14", "script-F-ip,brstack", false, List.of("script", "-F", "ip,brstack")),
            new Case("q-branch-4.14", "script-F-ip,brstacksym", false, List.of("script", "-F", "ip,brstacksym")),
            new Case("q-branch_stack_hw_index", "script-F-ip,brstack", false, List.of("script", "-F", "ip,brstack")),
            new Case("q-branch_stack_hw_index", "script-F-ip,brstacksym", false,
                    List.of("script", "-F", "ip,brstacksym")),
            new Case("pp-vector-gcc-lbr", "report-no-children", false, List.of("report", "--stdio", "--no-children")),
            new Case("pp-vector-gcc-lbr", "report-g-caller-no-children", false,
                    List.of("report", "--stdio", "--no-children", "-g", "caller")),
            new Case("pp-vector-gcc-lbr", "report-symfs-no-children", true,
                    List.of("report", "--stdio", "--no-children")),
            // --stitch-lbr on a recording without the LBR's hardware index (perf 5.4's): the
            // stacks stay as recorded, in perf as in perfj
            new Case("pp-vector-gcc-lbr", "report-stitch-lbr-no-children", false,
                    List.of("report", "--stdio", "--no-children", "--stitch-lbr")),
            new Case("pp-vector-gcc-lbr", "report-symfs-stitch-lbr", true, List.of("report", "--stdio", "--stitch-lbr")),
            new Case("pp-vector-gcc-lbr", "script-symfs-stitch-lbr", true, List.of("script", "--stitch-lbr")),
            // the IPC columns a --sort naming symbol adds: "-" where perf has no cycles
            // (NO_CYCLES) or no symbol to annotate (q-branch-4.14's objects are not in the corpus)
            new Case("q-branch-4.14", "report-no-branch-stack-s-symbol", false,
                    List.of("report", "--stdio", "--no-branch-stack", "--sort", "symbol")),
            new Case("pp-vector-gcc-lbr", "report-symfs-no-children-s-symbol", true,
                    List.of("report", "--stdio", "--no-children", "--sort", "symbol")),
            // -g's branch word on LBR call stacks, which are the callchains: perf prints the same without it
            new Case("pp-vector-gcc-lbr", "report-g-caller-function-branch-no-children", false,
                    List.of("report", "--stdio", "--no-children", "-g", "graph,0.5,caller,function,branch")));

    @TestFactory
    Stream<DynamicTest> matchesPerf() {
        return CASES.stream().map(c -> DynamicTest.dynamicTest(c.name() + " " + c.tag(), () -> check(c)));
    }

    /**
     * perf 6.1's --stitch-lbr warning where its callchain mode is not LBR (report prints
     * "Warning:" above it; script's branch-stack recordings without callchains count as LBR),
     * and none where it is; the report itself is the one without the option.
     */
    @TestFactory
    Stream<DynamicTest> stitchLbrWarnsAsPerf() {
        String text = "Can't find LBR callchain. Switch off --stitch-lbr.\nPlease apply --call-graph lbr when recording.\n";
        record W(String name, String command, String warning) {
        }
        return Stream.of(new W("here-period", "report", "Warning:\n" + text), new W("here-period", "script", text),
                        new W("q-branch-4.14", "report", "Warning:\n" + text), new W("q-branch-4.14", "script", ""),
                        new W("pp-vector-gcc-lbr", "report", ""), new W("pp-vector-gcc-lbr", "script", ""))
                .map(w -> DynamicTest.dynamicTest(w.name() + " " + w.command(), () -> {
                    Path e = CorpusGoldenTest.empty();
                    String file = Fixtures.file("corpus/" + w.name() + ".data").toString();
                    List<String> args = new ArrayList<>(List.of(w.command(), "-i", file, "--symfs", e.toString(),
                            "--buildid-dir", e.toString(), "--kallsyms", e.resolve("kallsyms").toString(),
                            "--perf-map-dir", e.toString(), "--no-system-files"));
                    if (w.command().equals("report")) {
                        args.add("--stdio");
                    }
                    CliFixtures.Run plain = CliFixtures.runPerf(args.toArray(new String[0]));
                    args.add("--stitch-lbr");
                    CliFixtures.Run r = CliFixtures.runPerf(args.toArray(new String[0]));
                    assertEquals(0, r.rc(), r.err());
                    assertEquals(w.warning(), r.err().substring(0, r.err().length() - plain.err().length()));
                    assertEquals(plain.out(), r.out());
                }));
    }

    static void check(Case c) throws IOException {
        String kind = c.args().getFirst();
        Path golden = Fixtures.require(Fixtures.dir().resolve("corpus/golden/" + c.name() + "." + c.tag() + ".txt"));
        String expected = CorpusGoldenTest.normalize(CorpusGoldenTest.read(golden), "corpus/" + c.name() + ".data", kind);
        Path e = CorpusGoldenTest.empty();
        String file = Fixtures.file("corpus/" + c.name() + ".data").toString();
        List<String> args = new ArrayList<>(c.args());
        args.addAll(List.of("-i", file, "--symfs", c.symfs() ? Fixtures.file("corpus/symfs").toString() : e.toString(),
                "--buildid-dir", e.toString(), "--kallsyms", e.resolve("kallsyms").toString(), "--perf-map-dir",
                e.toString(), "--no-system-files"));
        CliFixtures.Run r = CliFixtures.runPerf(args.toArray(new String[0]));
        String actual = CorpusGoldenTest.normalize(r.out(), file, kind);
        assertEquals(expected, actual, c.name() + " " + c.tag() + " (stderr: " + r.err().strip() + ")");
    }
}
