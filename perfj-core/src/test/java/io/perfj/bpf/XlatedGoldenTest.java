package io.perfj.bpf;

import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.feature.BpfProg;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * perfj's xlated dumps against {@code bpftool prog dump xlated} (bpftool 7.1) for every program
 * of the fixtures: the program info, func_info, line_info, jited ksyms, tags and BTF come from
 * the recording; the instructions from bpftool's raw dump of the same program (perf does not
 * record them); helper names from the kallsyms lines the fixture script kept.
 */
class XlatedGoldenTest {

    static Path xdir() {
        Path d = Fixtures.file("bpf-xlated");
        return Fixtures.require(d);
    }

    static BpfProg program(RecordedBpf bpf, String name, Path bin) throws IOException {
        Optional<BpfProg> p = bpf.find(name);
        assertTrue(p.isPresent(), name + " is not in the recording");
        return RecordedBpf.withXlated(p.get(), Files.readAllBytes(bin));
    }

    static String read(Path p) throws IOException {
        return Files.readString(p, StandardCharsets.UTF_8);
    }

    @ParameterizedTest
    @CsvSource({
        "perfj_xlated, xlated", "perfj_xlated, xlated-linum", "perfj_xlated, xlated-opcodes",
        "perfj_tail, xlated", "perfj_tail, xlated-linum", "perfj_tail, xlated-opcodes",
    })
    void newFixtureEqualsBpftool(String name, String kind) throws IOException {
        Path dir = xdir();
        KernelSymbols syms = KernelSymbols.readKallsyms(dir.resolve("golden/kallsyms.txt"));
        try (PerfData data = PerfData.open(dir.resolve("xlated.data"))) {
            RecordedBpf bpf = RecordedBpf.read(data);
            BpfProg p = program(bpf, name, dir.resolve("golden/" + name + ".xlated.bin"));
            XlatedPrinter.Options o = XlatedPrinter.Options.DEFAULT.withSyntax(Syntax.BPFTOOL_7_1)
                    .withLinum(kind.endsWith("linum")).withOpcodes(kind.endsWith("opcodes"));
            String got = XlatedPrinter.toString(p, bpf.btfText(p), syms, o);
            assertEquals(read(dir.resolve("golden/" + name + "." + kind + ".txt")), got);
        }
    }

    @ParameterizedTest
    @CsvSource({
        "perfj_xlated, xlated.json", "perfj_xlated, xlated-opcodes.json", "perfj_xlated, xlated-linum.pretty.json",
        "perfj_tail, xlated.json", "perfj_tail, xlated-opcodes.json", "perfj_tail, xlated-linum.pretty.json",
    })
    void newFixtureJsonEqualsBpftool(String name, String kind) throws IOException {
        Path dir = xdir();
        KernelSymbols syms = KernelSymbols.readKallsyms(dir.resolve("golden/kallsyms.txt"));
        try (PerfData data = PerfData.open(dir.resolve("xlated.data"))) {
            RecordedBpf bpf = RecordedBpf.read(data);
            BpfProg p = program(bpf, name, dir.resolve("golden/" + name + ".xlated.bin"));
            XlatedPrinter.Options o = XlatedPrinter.Options.DEFAULT.withSyntax(Syntax.BPFTOOL_7_1)
                    .withLinum(kind.contains("linum")).withOpcodes(kind.contains("opcodes"));
            StringBuilder sb = new StringBuilder();
            XlatedJson.print(p, bpf.btfText(p), syms, o, kind.contains("pretty"), sb);
            assertEquals(read(dir.resolve("golden/" + name + "." + kind)), sb.toString());
        }
    }

    @ParameterizedTest
    @CsvSource({"xlated, false", "xlated-linum, true"})
    void bpfSysEqualsBpftool(String kind, boolean linum) throws IOException {
        Path bin = xdir().resolve("golden/bpf-sys.xlated.bin");
        try (PerfData data = PerfData.open(Fixtures.recording("bpf-sys"))) {
            RecordedBpf bpf = RecordedBpf.read(data);
            BpfProg p = program(bpf, "perfj_xdp", bin);
            XlatedPrinter.Options o = XlatedPrinter.Options.DEFAULT.withSyntax(Syntax.BPFTOOL_7_1).withLinum(linum);
            String got = XlatedPrinter.toString(p, bpf.btfText(p), KernelSymbols.empty(), o);
            assertEquals(Fixtures.golden("bpf-sys", kind), got);
        }
    }

    /** The kernel 6.18 syntax differs from bpftool 7.1's only where 6.18 knows more: the per-CPU move. */
    @ParameterizedTest
    @CsvSource({"perfj_xlated", "perfj_tail"})
    void kernelSyntaxDiffersOnlyInNewerInstructions(String name) throws IOException {
        Path dir = xdir();
        KernelSymbols syms = KernelSymbols.readKallsyms(dir.resolve("golden/kallsyms.txt"));
        try (PerfData data = PerfData.open(dir.resolve("xlated.data"))) {
            RecordedBpf bpf = RecordedBpf.read(data);
            BpfProg p = program(bpf, name, dir.resolve("golden/" + name + ".xlated.bin"));
            List<XlatedInsn> k = XlatedPrinter.instructions(p, bpf.btfText(p), syms, XlatedPrinter.Options.DEFAULT);
            List<XlatedInsn> old = XlatedPrinter.instructions(p, bpf.btfText(p), syms,
                    XlatedPrinter.Options.DEFAULT.withSyntax(Syntax.BPFTOOL_7_1));
            assertEquals(old.size(), k.size());
            for (int i = 0; i < k.size(); i++) {
                XlatedInsn a = k.get(i);
                XlatedInsn b = old.get(i);
                if (!a.text().equals(b.text())) {
                    assertEquals(0xbf, a.insn().code());
                    assertEquals(BpfInsn.ADDR_PERCPU, a.insn().off());
                    assertEquals("(bf) r" + a.insn().dst() + " = &(void __percpu *)(r" + a.insn().src() + ")", a.text());
                }
            }
        }
    }

    /** The per-instruction view: indices, widths, sub-programs and line info as annotation needs them. */
    @ParameterizedTest
    @CsvSource({"perfj_xlated"})
    void instructionView(String name) throws IOException {
        Path dir = xdir();
        try (PerfData data = PerfData.open(dir.resolve("xlated.data"))) {
            RecordedBpf bpf = RecordedBpf.read(data);
            BpfProg p = program(bpf, name, dir.resolve("golden/" + name + ".xlated.bin"));
            List<XlatedInsn> insns = XlatedPrinter.instructions(p, bpf.btfText(p), KernelSymbols.empty(),
                    XlatedPrinter.Options.DEFAULT);
            int next = 0;
            int lastSub = 0;
            for (XlatedInsn x : insns) {
                assertEquals(next, x.index());
                next += x.slots();
                assertTrue(x.subprog() >= lastSub);
                lastSub = x.subprog();
                assertEquals(x.subprog() < p.funcInfo().size() && p.funcInfo().get(x.subprog()).insnOff() == x.index(),
                        x.function().isPresent());
                x.line().ifPresent(l -> assertTrue(l.insnOff() <= x.index()));
                x.printedLine().ifPresent(l -> assertTrue(x.sourceLine().isPresent()));
            }
            assertEquals(p.xlatedInsns().length / 8, next);
            assertEquals(p.funcInfo().size() - 1, lastSub);
        }
    }
}
