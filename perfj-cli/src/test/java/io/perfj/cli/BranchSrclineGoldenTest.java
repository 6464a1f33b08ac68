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
 * report's srcline_from and srcline_to sort keys in branch mode, on the corpus's branch-stack
 * recordings (fixtures/make-branch-srcline.sh): each branch end's source line, the symbol and
 * offset where the line table has no row outside a function ({@code _init+80} in perf 6.1, whose
 * zero-sized {@code _init} reaches over the PLT) or the object and address without one, against
 * perf 6.1 ({@code --compat perf-6.1}) and perf 7.2 (by default).
 */
class BranchSrclineGoldenTest {
    record Case(String name, String tag, boolean symfs, boolean perf61, List<String> args) {
    }

    static final List<Case> CASES = List.of(
            new Case("pp-vector-gcc-lbr", "report-symfs-b-s-srcline_from,srcline_to", true, true,
                    List.of("report", "--stdio", "-b", "-s", "srcline_from,srcline_to")),
            new Case("pp-vector-gcc-lbr", "report-symfs-b-s-srcline_to,dso_from,srcline_from", true, true,
                    List.of("report", "--stdio", "-b", "-s", "srcline_to,dso_from,srcline_from")),
            // perf 6.1 cannot print these (its addr2line pipe breaks on the missing objects)
            new Case("pp-vector-gcc-lbr", "report-b-s-srcline_from", false, false,
                    List.of("report", "--stdio", "-b", "-s", "srcline_from")),
            new Case("q-branch-4.14", "report-s-srcline_from,srcline_to", false, false,
                    List.of("report", "--stdio", "-s", "srcline_from,srcline_to")));

    @TestFactory
    Stream<DynamicTest> isPerf61sWithCompat() {
        return CASES.stream().filter(Case::perf61)
                .map(c -> DynamicTest.dynamicTest(c.name() + " " + c.tag(), () -> check(c, false)));
    }

    /** perf 7.2's rows and columns; its "Samples" line counts the samples, not the branches. */
    @TestFactory
    Stream<DynamicTest> isPerf72sByDefault() {
        return CASES.stream().map(c -> DynamicTest.dynamicTest(c.name() + " " + c.tag(), () -> check(c, true)));
    }

    private static void check(Case c, boolean perf72) throws IOException {
        String kind = c.args().getFirst();
        Path golden = Fixtures.require(Fixtures.dir().resolve("corpus/golden/" + c.name() + "." + c.tag()
                + (perf72 ? ".perf72" : "") + ".txt"));
        String file = Fixtures.file("corpus/" + c.name() + ".data").toString();
        Path e = CorpusGoldenTest.empty();
        List<String> args = new ArrayList<>(c.args());
        args.addAll(List.of("-i", file, "--symfs", c.symfs() ? Fixtures.file("corpus/symfs").toString() : e.toString(),
                "--buildid-dir", e.toString(), "--kallsyms", e.resolve("kallsyms").toString(), "--perf-map-dir",
                e.toString(), "--no-system-files"));
        CliFixtures.Run r = perf72 ? CliFixtures.run(args.toArray(new String[0]))
                : CliFixtures.runPerf(args.toArray(new String[0]));
        String expected = CorpusGoldenTest.normalize(CorpusGoldenTest.read(golden), "corpus/" + c.name() + ".data", kind);
        String actual = CorpusGoldenTest.normalize(r.out(), file, kind);
        assertEquals(expected, actual, c.name() + " " + c.tag() + " (stderr: " + r.err().strip() + ")");
    }
}
