package io.perfj.cli;

import io.perfj.bpf.BpfListing;
import io.perfj.bpf.BpfSamples;
import io.perfj.bpf.KernelSymbols;
import io.perfj.bpf.RecordedBpf;
import io.perfj.bpf.Syntax;
import io.perfj.bpf.XlatedPrinter;
import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.feature.BpfProg;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code perfj bpf}: the BPF programs of a recording (what {@code bpftool prog show} says about
 * them, with sample counts per sub-program), or one program's translated instructions as
 * {@code bpftool prog dump xlated} prints them.
 */
public final class BpfCommand implements Callable<Integer> {
    final InputOptions in = new InputOptions();
    boolean json;
    boolean pretty;
    String xlated;
    Path xlatedFile;
    boolean linum;
    boolean opcodes;
    String syntax;
    Path kallsyms;
    boolean noSystem;
    boolean samplesColumn;
    boolean noSamples;
    final CommandSpec spec;

    BpfCommand() {
        CommandModel m = CommandModel.command(this, "bpf",
                "List the BPF programs recorded in BPF_PROG_INFO with their sub-programs and samples,",
                "or print a program's xlated instructions like 'bpftool prog dump xlated'.");
        in.declare(m);
        m.option("--json").describe("Print the listing as JSON; with --xlated, the dump as bpftool --json prints it.")
                .flag(v -> json = v);
        m.option("-p", "--pretty").describe("With --xlated --json: indented JSON, like bpftool -p.")
                .flag(v -> pretty = v);
        m.option("--xlated").arity("0..1").fallbackValue("").label("PROG")
                .describe("Print the xlated instructions of program PROG (id or name; all programs when omitted).")
                .value(String.class, v -> xlated = v);
        m.option("--xlated-file").label("FILE")
                .describe("With --xlated PROG: the program's raw xlated instructions, from",
                        "'bpftool prog dump xlated id N file FILE' (perf does not record them).")
                .value(Path.class, v -> xlatedFile = v);
        m.option("--linum").describe("With --xlated: add [file:F line_num:N line_col:C] to source lines.")
                .flag(v -> linum = v);
        m.option("--opcodes").describe("With --xlated: print each instruction's bytes.").flag(v -> opcodes = v);
        m.option("--syntax").label("SYNTAX").defaultValue("kernel")
                .describe("Disassembler to follow: 'kernel' (Linux 6.18 disasm.c, cpu v4 instructions) or "
                        + "'bpftool-7.1' (what bpftool 7.1 prints). Default: ${DEFAULT-VALUE}.")
                .value(String.class, v -> syntax = v);
        m.option("-k", "--kallsyms").label("FILE")
                .describe("kallsyms of the recording machine, to name helper and kfunc calls (default /proc/kallsyms).")
                .value(Path.class, v -> kallsyms = v);
        m.option("--no-system-files").describe("Do not read /proc/kallsyms.").flag(v -> noSystem = v);
        m.option("--samples").describe("With --xlated: prefix each instruction with the samples of the source line",
                "it starts (jited addresses mapped through jited_line_info), like an annotation.")
                .flag(v -> samplesColumn = v);
        m.option("--no-samples").describe("Do not read the samples (faster on big recordings).")
                .flag(v -> noSamples = v);
        spec = m.spec();
    }

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Syntax sx = switch (syntax) {
            case "kernel" -> Syntax.KERNEL;
            case "bpftool-7.1", "bpftool" -> Syntax.BPFTOOL_7_1;
            default -> throw new ParameterException(spec.commandLine(),
                    "--syntax: expected 'kernel' or 'bpftool-7.1', not '" + syntax + "'");
        };
        try (PerfData data = PerfData.open(in.input)) {
            boolean wantSamples = xlated != null ? samplesColumn : !noSamples;
            BpfSamples samples = null;
            RecordedBpf[] read = new RecordedBpf[1];
            if (wantSamples) {
                samples = BpfSamples.count(data, () -> read[0] = RecordedBpf.read(data));
            } else if (data.isPipe()) {
                // a pipe's features come as records: read them all first
                io.perfj.perfdata.RecordInput records = data.records();
                while (records.next() != null) {
                    // draining
                }
            }
            RecordedBpf bpf = read[0] != null ? read[0] : RecordedBpf.read(data);
            if (xlated != null) {
                return xlated(bpf, samples, sx, out, err);
            }
            List<BpfListing.Prog> rows = BpfListing.rows(bpf, samples);
            out.print(json ? BpfListing.json(rows, samples != null) : BpfListing.text(rows, samples != null));
            out.flush();
            InputOptions.warn(out, err, data.warnings());
        }
        return 0;
    }

    private int xlated(RecordedBpf bpf, BpfSamples samples, Syntax sx, PrintWriter out, PrintWriter err)
            throws IOException {
        List<BpfProg> progs;
        if (xlated.isEmpty()) {
            progs = bpf.programs();
        } else {
            progs = bpf.find(xlated).map(List::of).orElse(List.of());
            if (progs.isEmpty()) {
                err.println("perfj: no BPF program '" + xlated + "' in " + in.input);
                err.flush();
                return 1;
            }
        }
        if (xlatedFile != null) {
            if (progs.size() != 1) {
                throw new ParameterException(spec.commandLine(), "--xlated-file needs one program: --xlated PROG");
            }
            progs = List.of(RecordedBpf.withXlated(progs.get(0), Files.readAllBytes(xlatedFile)));
        }
        KernelSymbols syms = kernelSymbols();
        XlatedPrinter.Options o = XlatedPrinter.Options.DEFAULT.withLinum(linum).withOpcodes(opcodes)
                .withSyntax(sx).withOrder(bpf.order());
        boolean many = progs.size() > 1;
        for (BpfProg p : progs) {
            if (many) {
                out.println("# prog " + p.info().id() + " " + p.info().name());
            }
            if (!p.hasArray(BpfProg.XLATED_INSNS) || p.xlatedInsns().length == 0) {
                out.println("# prog " + p.info().id() + ": no xlated instructions recorded (perf does not record them);"
                        + " pass --xlated-file FILE from 'bpftool prog dump xlated id " + p.info().id() + " file FILE'");
            } else {
                if (json || pretty) {
                    io.perfj.bpf.XlatedJson.print(p, bpf.btfText(p), syms, o, pretty, out);
                } else if (samples == null) {
                    XlatedPrinter.print(p, bpf.btfText(p), syms, o, out);
                } else {
                    annotated(p, bpf, samples, syms, o, out);
                }
            }
            if (many) {
                out.println();
            }
        }
        out.flush();
        return 0;
    }

    /** The dump with a samples column: count and percent of the program's samples, or blanks. */
    private static void annotated(BpfProg p, RecordedBpf bpf, BpfSamples samples, KernelSymbols syms,
                                  XlatedPrinter.Options o, PrintWriter out) {
        java.util.Map<Integer, Long> per = samples.perXlatedInsn(p);
        long total = samples.sum(p.info().id());
        String blank = " ".repeat(17);
        for (io.perfj.bpf.XlatedInsn x : XlatedPrinter.instructions(p, bpf.btfText(p), syms, o)) {
            for (String s : x.before()) {
                out.println(blank + s);
            }
            Long n = per.get(x.index());
            out.println((n == null ? blank : String.format(java.util.Locale.ROOT, "%7d %7.2f%%  ", n,
                    total == 0 ? 0.0 : 100.0 * n / total)) + x.numbered(o.syntax()));
            if (o.opcodes()) {
                out.println(blank + "       " + x.opcodes());
            }
        }
    }

    private KernelSymbols kernelSymbols() throws IOException {
        if (kallsyms != null) {
            return KernelSymbols.readKallsyms(kallsyms);
        }
        Path proc = Path.of("/proc/kallsyms");
        if (!noSystem && Files.isReadable(proc)) {
            return KernelSymbols.readKallsyms(proc);
        }
        return KernelSymbols.empty();
    }
}
