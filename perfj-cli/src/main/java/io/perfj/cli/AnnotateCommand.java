package io.perfj.cli;

import io.perfj.annotate.Annotate;
import io.perfj.annotate.AnnotateLayout;
import io.perfj.annotate.AnnotationPrinter;
import io.perfj.annotate.Disassembler;
import io.perfj.annotate.PercentType;
import io.perfj.perfdata.PerfData;
import io.perfj.report.ReportView;
import io.perfj.session.Session;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

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
public final class AnnotateCommand implements Callable<Integer> {
    final InputOptions in = new InputOptions();
    final SymbolCliOptions sym = new SymbolCliOptions();
    List<String> symbols = new ArrayList<>();
    String symbol;
    boolean stdio;
    boolean stdio2;
    boolean json;
    /** {@code --hide-src} (true), {@code --no-hide-src} (false), or neither (null: the layout's default). */
    Boolean hideSrc;
    boolean showOffsets;
    Path output;
    String percentType = "local-period";
    boolean asmRaw;
    boolean source = true;
    String prefix;
    String prefixStrip;
    String objdump;
    String style;
    String disassembler = "objdump";
    String bpfView = "jited";
    Path xlatedFile;
    boolean showNrSamples;
    boolean showTotalPeriod;
    boolean fullPaths;
    boolean printLine;
    /** {@code --group} (true), {@code --no-group} (false), or neither (null: the recorded groups). */
    Boolean group;
    final CommandSpec spec;

    AnnotateCommand() {
        CommandModel m = CommandModel.command(this, "annotate",
                "Annotate functions and BPF programs with their samples (like 'perf annotate --stdio2').");
        in.declare(m);
        sym.declare(m);
        m.positional(null, "SYMBOL").arity("0..*").describe("Symbols to annotate (default: every symbol with samples).")
                .list(String.class, v -> symbols = v);
        m.option("-s", "--symbol").label("SYMBOL").describe("Annotate only this symbol.")
                .value(String.class, v -> symbol = v);
        m.option("--stdio").describe("perf's classic layout (every address, numbered listing lines).")
                .flag(v -> stdio = v);
        m.option("--stdio2").describe("perf's browser layout as text (the default).").flag(v -> stdio2 = v);
        m.option("--json").describe("JSON: one object per symbol with its lines, samples and percentages.")
                .flag(v -> json = v);
        m.option("--hide-src").negatable()
                .describe("Hide source lines and listing text (the browser's 's' key; default: hidden in --stdio2, "
                        + "shown in --stdio; --no-hide-src shows them).")
                .value(Boolean.class, v -> hideSrc = v);
        m.option("--show-offsets").describe("Show every instruction's offset, not only jump targets ('O').")
                .flag(v -> showOffsets = v);
        m.option("-o", "--output").label("FILE").describe("Write the annotation to FILE ('P').")
                .value(Path.class, v -> output = v);
        m.option("--percent-type").label("TYPE").defaultValue("local-period")
                .describe("local-period (default), global-period, local-hits or global-hits.")
                .value(String.class, v -> percentType = v);
        m.option("--asm-raw").describe("Show the instructions' raw bytes.").flag(v -> asmRaw = v);
        m.option("--source").negatable().defaultValue("true").fallbackValue("true")
                .describe("Interleave source code with the disassembly (default on; --no-source turns it off).")
                .flag(v -> source = v);
        m.option("--prefix").label("DIR").describe("Prefix added to absolute source paths (with --prefix-strip).")
                .value(String.class, v -> prefix = v);
        m.option("--prefix-strip").label("N").describe("Leading directories removed from absolute source paths.")
                .value(String.class, v -> prefixStrip = v);
        m.option("--objdump").label("PATH").describe("The objdump (or llvm-objdump) program to run.")
                .value(String.class, v -> objdump = v);
        m.option("-M", "--disassembler-style").label("STYLE").describe("objdump's -M option (e.g. intel).")
                .value(String.class, v -> style = v);
        m.option("--disassembler").label("NAME").defaultValue("objdump")
                .describe("Backend: objdump (default, as perf), llvm-objdump or capstone.")
                .value(String.class, v -> disassembler = v);
        m.option("--bpf-view").label("VIEW").defaultValue("jited")
                .describe("BPF programs: jited (the JIT image, default) or xlated (eBPF bytecode).")
                .value(String.class, v -> bpfView = v);
        m.option("--xlated-file").label("FILE")
                .describe("With --bpf-view xlated: the program's translated instructions from 'bpftool prog dump xlated id N file FILE' (perf does not record them).")
                .value(Path.class, v -> xlatedFile = v);
        m.option("-n", "--show-nr-samples").describe("Show sample counts instead of percentages.")
                .flag(v -> showNrSamples = v);
        m.option("--show-total-period").describe("Show periods instead of percentages.")
                .flag(v -> showTotalPeriod = v);
        m.option("-P", "--full-paths").describe("Full object paths in the --stdio header.").flag(v -> fullPaths = v);
        m.option("-l", "--print-line")
                .describe("Print the hot instructions' source lines with their percentages first ('// file:line' in --stdio).")
                .flag(v -> printLine = v);
        m.option("--group").negatable()
                .describe("Annotate an event group's events together, a column per event (default: on for the "
                        + "groups the recording has; --group makes all events one group when it has none).")
                .value(Boolean.class, v -> group = v);
        spec = m.spec();
    }

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
        // perf 7.2's text layout by default; JSON keeps the full listing (its line markers too)
        AnnotateLayout layout = json || sym.compat.perf61() ? AnnotateLayout.PERF_6_1 : AnnotateLayout.CURRENT;
        boolean hide = hideSrc != null ? hideSrc : layout.hidesSource(stdio);
        var print = new AnnotationPrinter.Options(pt, hide, showOffsets, showTotalPeriod, showNrSamples, fullPaths, layout);
        var request = new Disassembler.Request(layout.lineMarkers(), source, asmRaw, style, prefix, prefixStrip, null);
        byte[] xlatedInsns = xlatedFile == null ? null : Files.readAllBytes(xlatedFile);
        io.perfj.bpf.KernelSymbols ksyms = io.perfj.bpf.KernelSymbols.empty();
        if (xlated) {
            Path k = sym.kallsyms != null ? sym.kallsyms : (!sym.noSystem ? Path.of("/proc/kallsyms") : null);
            if (k != null && Files.isReadable(k)) {
                ksyms = io.perfj.bpf.KernelSymbols.readKallsyms(k);
            }
        }
        // JSON keeps one annotation per event, as report's JSON keeps one report per event
        io.perfj.perfdata.feature.EventGroups.Mode groups = json || Boolean.FALSE.equals(group) ? io.perfj.perfdata.feature.EventGroups.Mode.NONE
                : group != null ? io.perfj.perfdata.feature.EventGroups.Mode.FORCED : io.perfj.perfdata.feature.EventGroups.Mode.RECORDED;
        var opts = new Annotate.Options(wanted, dis, request, print, stdio, xlated, xlatedInsns, ksyms, json, printLine,
                groups);
        OutputStream os = output != null ? Files.newOutputStream(output) : stdout;
        Writer w = new OutputStreamWriter(os, StandardCharsets.UTF_8);
        List<String> warnings = new ArrayList<>();
        int printed;
        try (PerfData data = PerfData.open(in.input); Session session = sym.session(data)) {
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
            // as report and script print them (perf's own words where perf has them)
            session.machine().warnings().forEach(err::println);
            session.lossWarnings().forEach(err::println);
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
