package io.perfj.cli;

import io.perfj.perfdata.PerfData;
import io.perfj.print.HeaderLayout;
import io.perfj.report.ScriptOptions;
import io.perfj.report.ScriptPrinter;
import io.perfj.session.Session;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/** {@code perfj script}: every sample as {@code perf script} prints it. */
public final class ScriptCommand implements Callable<Integer> {
    final InputOptions in = new InputOptions();
    final SymbolCliOptions sym = new SymbolCliOptions();
    final FilterCliOptions filters = new FilterCliOptions();
    final Refused refused = new Refused();
    String fields;
    int maxStack;
    boolean ns;
    boolean reltime;
    boolean hideCallGraph;
    boolean header;
    boolean headerOnly;
    boolean showInfo;
    boolean deltatime;
    boolean inline = true;
    boolean stitchLbr;
    final java.util.Set<ScriptOptions.SideBand> sideBand = java.util.EnumSet.noneOf(ScriptOptions.SideBand.class);
    String itrace;
    boolean noItrace;
    final CommandSpec spec;

    /** What each --show-*-events option prints among the samples. */
    private static final java.util.Map<ScriptOptions.SideBand, String> SIDE_BAND_HELP = java.util.Map.of(
            ScriptOptions.SideBand.TASK, "Print the COMM, FORK and EXIT records among the samples.",
            ScriptOptions.SideBand.MMAP, "Print the MMAP and MMAP2 records among the samples.",
            ScriptOptions.SideBand.SWITCH, "Print the context switch records (perf record --switch-events).",
            ScriptOptions.SideBand.NAMESPACE, "Print the NAMESPACES records (perf record --namespaces).",
            ScriptOptions.SideBand.CGROUP, "Print the CGROUP records (perf record --all-cgroups).",
            ScriptOptions.SideBand.LOST, "Print the LOST records (events the kernel dropped).",
            ScriptOptions.SideBand.ROUND, "Print the FINISHED_ROUND records; as in perf, records then come in file order.",
            ScriptOptions.SideBand.BPF, "Print the KSYMBOL and BPF_EVENT records.",
            ScriptOptions.SideBand.TEXT_POKE, "Print the TEXT_POKE and KSYMBOL records.");

    ScriptCommand() {
        CommandModel m = CommandModel.command(this, "script", "Print every sample with its callchain (like 'perf script').");
        in.declare(m);
        sym.declare(m);
        m.option("-F", "--fields").label("LIST")
                .describe("Fields: comm, tid, pid, cpu, time, period, event, ip, sym, symoff, dso, srcline, srccode, addr; "
                        + "+field/-field add to or take from the default fields.")
                .value(String.class, v -> fields = v);
        m.option("--max-stack").label("N").defaultValue("127").describe("Print at most N callchain frames.")
                .value(int.class, v -> maxStack = v);
        filters.declare(m, false);
        m.option("--ns").describe("Print times with nanoseconds.").flag(v -> ns = v);
        m.option("--reltime").describe("Print times since the first sample printed.").flag(v -> reltime = v);
        m.option("-G", "--hide-call-graph").describe("Print no callchains: one line per sample.")
                .flag(v -> hideCallGraph = v);
        m.option("--header").describe("Print the recording's header (as 'perfj header') first.").flag(v -> header = v);
        m.option("--header-only").describe("Print only the recording's header (as 'perfj header').")
                .flag(v -> headerOnly = v);
        m.option("-I", "--show-info").describe("With --header/--header-only: the detailed header information too.")
                .flag(v -> showInfo = v);
        m.option("--deltatime").describe("Print times since the event printed before.").flag(v -> deltatime = v);
        m.option("--inline").negatable()
                .describe("Show functions inlined at unwound addresses as frames of their own (default: on).")
                .value(Boolean.class, v -> inline = v);
        m.option("--stitch-lbr")
                .describe("Stitch LBR call stacks with the entries of the thread's previous sample (as perf does "
                        + "when the recording has the LBR's hardware index and depth; otherwise they stay as recorded).")
                .flag(v -> stitchLbr = v);
        for (ScriptOptions.SideBand k : ScriptOptions.SideBand.values()) {
            m.option(k.option()).describe(SIDE_BAND_HELP.get(k)).flag(v -> {
                if (v) {
                    sideBand.add(k);
                } else {
                    sideBand.remove(k);
                }
            });
        }
        m.option("--itrace").label("OPTS")
                .describe("What to synthesize from Intel PT trace, as perf's letters: i[PERIOD] instructions, b branches, "
                        + "c calls, r returns, x transactions, w ptwrites, p power events, e errors (default: ce with "
                        + "power events and the rest).")
                .value(String.class, v -> itrace = v);
        m.option("--no-itrace").describe("Do not decode instruction trace.").flag(v -> noItrace = v);
        refused.declare(m, Refused.SCRIPT);
        spec = m.spec();
    }

    @Override
    public Integer call() {
        refused.check();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try (PerfData data = PerfData.open(in.input)) {
            ScriptOptions base;
            try {
                base = fields == null ? ScriptOptions.of(null, maxStack) : ScriptPrinter.Field.choice(fields, maxStack);
            } catch (UnsupportedOperationException e) {
                throw new CliError("script -F: " + e.getMessage());
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.ParameterException(spec.commandLine(), "-F: " + e.getMessage());
            }
            if (headerOnly) {
                HeaderCommand.print(data, showInfo, HeaderLayout.of(sym.compat.perf61()), out, err);
                return 0;
            }
            if (reltime && deltatime) {
                throw new CliError("script: --reltime and --deltatime are mutually exclusive");
            }
            ScriptOptions opts = new ScriptOptions(base.fields(), base.add(), base.remove(), maxStack,
                    filters.selection(data), filters.filter(data), ns, reltime, hideCallGraph, !inline,
                    java.util.Set.copyOf(sideBand), deltatime);
            if (stitchLbr) {
                var w = io.perfj.report.LbrStitch.warning(data, true);
                if (w.isPresent()) {
                    err.print(w.get());
                    err.flush();
                } else if (io.perfj.report.LbrStitch.stitches(data)) {
                    throw new CliError("script --stitch-lbr: stitching LBR call stacks recorded with the hardware"
                            + " index is not supported yet (drop --stitch-lbr for the stacks as recorded)");
                }
            }
            io.perfj.intelpt.PtSynthOptions synth;
            try {
                synth = noItrace ? null : itrace == null ? io.perfj.intelpt.PtSynthOptions.scriptDefault()
                        : io.perfj.intelpt.PtSynthOptions.parse(itrace);
            } catch (IllegalArgumentException e) {
                throw new CliError("script " + e.getMessage());
            }
            try (Session session = sym.session(data).itrace(synth)) {
                ScriptPrinter printer = new ScriptPrinter(session, Main.stdout(spec), opts);
                try {
                    printer.check();
                } catch (IllegalArgumentException e) {
                    throw new CliError(e.getMessage());
                }
                if (header) {
                    HeaderCommand.print(data, showInfo, HeaderLayout.of(sym.compat.perf61()), out, err);
                }
                out.flush();
                printer.print();
                InputOptions.warn(out, err, session.warnings(), printer.traceWarnings());
            }
        }
        return 0;
    }
}
