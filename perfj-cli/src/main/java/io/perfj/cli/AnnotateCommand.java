package io.perfj.cli;

import io.perfj.annotate.Annotate;
import io.perfj.annotate.AnnotationPrinter;
import io.perfj.annotate.Disassembler;
import io.perfj.annotate.PercentType;
import io.perfj.perfdata.PerfData;
import io.perfj.session.Session;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

/** {@code perfj annotate}: instructions of the sampled functions with their share of samples. */
@Command(name = "annotate", mixinStandardHelpOptions = true,
        description = "Annotate functions and BPF programs with their samples (like 'perf annotate --stdio2').")
public final class AnnotateCommand implements Callable<Integer> {
    @Mixin
    InputOptions in = new InputOptions();

    @Mixin
    SymbolCliOptions sym = new SymbolCliOptions();

    @Parameters(paramLabel = "SYMBOL", arity = "0..*", description = "Symbols to annotate (default: every symbol with samples).")
    List<String> symbols = new ArrayList<>();

    @Option(names = {"-s", "--symbol"}, paramLabel = "SYMBOL", description = "Annotate only this symbol.")
    String symbol;

    @Option(names = "--stdio", description = "perf's classic layout (every address, numbered listing lines).")
    boolean stdio;

    @Option(names = "--stdio2", description = "perf's browser layout as text (the default).")
    boolean stdio2;

    @Option(names = "--json", description = "JSON: one object per symbol with its lines, samples and percentages.")
    boolean json;

    @Option(names = "--hide-src", description = "Hide source lines and listing text (the browser's 's' key).")
    boolean hideSrc;

    @Option(names = "--show-offsets", description = "Show every instruction's offset, not only jump targets ('O').")
    boolean showOffsets;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Write the annotation to FILE ('P').")
    Path output;

    @Option(names = "--percent-type", paramLabel = "TYPE", defaultValue = "local-period",
            description = "local-period (default), global-period, local-hits or global-hits.")
    String percentType = "local-period";

    @Option(names = "--asm-raw", description = "Show the instructions' raw bytes.")
    boolean asmRaw;

    @Option(names = "--source", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Interleave source code with the disassembly (default on; --no-source turns it off).")
    boolean source = true;

    @Option(names = "--prefix", paramLabel = "DIR", description = "Prefix added to absolute source paths (with --prefix-strip).")
    String prefix;

    @Option(names = "--prefix-strip", paramLabel = "N", description = "Leading directories removed from absolute source paths.")
    String prefixStrip;

    @Option(names = "--objdump", paramLabel = "PATH", description = "The objdump (or llvm-objdump) program to run.")
    String objdump;

    @Option(names = {"-M", "--disassembler-style"}, paramLabel = "STYLE", description = "objdump's -M option (e.g. intel).")
    String style;

    @Option(names = "--disassembler", paramLabel = "NAME", defaultValue = "objdump",
            description = "Backend: objdump (default, as perf), llvm-objdump or capstone.")
    String disassembler = "objdump";

    @Option(names = "--bpf-view", paramLabel = "VIEW", defaultValue = "jited",
            description = "BPF programs: jited (the JIT image, default) or xlated (eBPF bytecode).")
    String bpfView = "jited";

    @Option(names = "--xlated-file", paramLabel = "FILE",
            description = "With --bpf-view xlated: the program's translated instructions from 'bpftool prog dump xlated id N file FILE' (perf does not record them).")
    Path xlatedFile;

    @Option(names = {"-n", "--show-nr-samples"}, description = "Show sample counts instead of percentages.")
    boolean showNrSamples;

    @Option(names = "--show-total-period", description = "Show periods instead of percentages.")
    boolean showTotalPeriod;

    @Option(names = {"-P", "--full-paths"}, description = "Full object paths in the --stdio header.")
    boolean fullPaths;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        return run(spec.commandLine().getErr(), Main.stdout(spec));
    }

    /** A usage error: picocli's (usage hint, exit 2). */
    private RuntimeException usage(String msg) {
        return new ParameterException(spec.commandLine(), msg);
    }

    private int run(PrintWriter err, OutputStream stdout) throws IOException {
        if (stdio && stdio2) {
            throw usage("--stdio and --stdio2 exclude each other");
        }
        if (showNrSamples && showTotalPeriod) {
            throw usage("--show-nr-samples and --show-total-period exclude each other");
        }
        PercentType pt;
        try {
            pt = PercentType.parse(percentType);
        } catch (IllegalArgumentException e) {
            throw usage("--percent-type: " + e.getMessage());
        }
        boolean xlated = switch (bpfView) {
            case "jited" -> false;
            case "xlated" -> true;
            default -> throw usage("--bpf-view: jited or xlated, not '" + bpfView + "'");
        };
        Disassembler dis;
        try {
            dis = Disassembler.named(disassembler, objdump);
        } catch (IllegalArgumentException e) {
            throw usage("--disassembler: " + e.getMessage());
        }
        Set<String> wanted = new LinkedHashSet<>(symbols);
        if (symbol != null) {
            wanted.add(symbol);
        }
        var print = new AnnotationPrinter.Options(pt, hideSrc, showOffsets, showTotalPeriod, showNrSamples, fullPaths);
        var request = new Disassembler.Request(true, source, asmRaw, style, prefix, prefixStrip, null);
        byte[] xlatedInsns = xlatedFile == null ? null : Files.readAllBytes(xlatedFile);
        io.perfj.bpf.KernelSymbols ksyms = io.perfj.bpf.KernelSymbols.empty();
        if (xlated) {
            Path k = sym.kallsyms != null ? sym.kallsyms : (!sym.noSystem ? Path.of("/proc/kallsyms") : null);
            if (k != null && Files.isReadable(k)) {
                ksyms = io.perfj.bpf.KernelSymbols.readKallsyms(k);
            }
        }
        var opts = new Annotate.Options(wanted, dis, request, print, stdio, xlated, xlatedInsns, ksyms, json);
        OutputStream os = output != null ? Files.newOutputStream(output) : stdout;
        Writer w = new OutputStreamWriter(os, StandardCharsets.UTF_8);
        List<String> warnings = new ArrayList<>();
        int printed;
        try (PerfData data = PerfData.open(in.input)) {
            Session session = sym.session(data);
            printed = new Annotate(session, opts, warnings::add).run(sb -> {
                try {
                    w.append(sb);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            w.flush();
            for (String s : warnings) {
                err.println("perfj: " + s);
            }
            for (String s : data.warnings()) {
                err.println("perfj: warning: " + s);
            }
            for (String s : session.machine().warnings()) {
                err.println("perfj: warning: " + s);
            }
        } finally {
            if (output != null) {
                os.close();
            }
        }
        err.flush();
        if (printed == 0) {
            err.println("perfj: nothing to annotate" + (wanted.isEmpty() ? "" : " for " + String.join(", ", wanted)));
            return 1;
        }
        return 0;
    }
}
