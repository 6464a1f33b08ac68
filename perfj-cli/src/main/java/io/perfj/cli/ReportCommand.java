package io.perfj.cli;

import io.perfj.perfdata.Evsel;
import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.SampleFormat;
import io.perfj.print.HeaderLayout;
import io.perfj.report.CallchainMode;
import io.perfj.report.JsonReport;
import io.perfj.report.Report;
import io.perfj.report.ReportOptions;
import io.perfj.report.SortKey;
import io.perfj.report.StdioReport;
import io.perfj.session.Session;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code perfj report}: what {@code perf report --stdio} prints, or JSON. */
public final class ReportCommand implements Callable<Integer> {
    final InputOptions in = new InputOptions();
    final SymbolCliOptions sym = new SymbolCliOptions();
    boolean stdio;
    String sort;
    /** -F/--fields as given, or null. */
    String fields;
    /** -p/--parent's pattern, or null (perf's). */
    String parent;
    boolean excludeOther;
    Boolean children;
    String callGraph;
    boolean inverted;
    double percentLimit;
    /** perf's options act in command-line order: which of -g and --percent-limit came last (1: -g, 2: the limit). */
    int lastOfThresholds;
    int maxStack;
    final FilterCliOptions filters = new FilterCliOptions();
    boolean json;
    final ViewCliOptions shown = new ViewCliOptions();
    boolean hideUnresolved;
    boolean header;
    boolean headerOnly;
    boolean showInfo;
    boolean dump;
    boolean stats;
    boolean inline = true;
    boolean stitchLbr;
    /** -b/--branch-stack (true), --no-branch-stack (false), or null: perf's default for the file. */
    Boolean branchStack;
    /** {@code --group} (true), {@code --no-group} (false), or neither (null: the recorded groups). */
    Boolean group;
    String symbolFilter;
    String ignoreCallees;
    boolean verbose;
    boolean hierarchy;
    final Refused refused = new Refused();
    final CommandSpec spec;

    ReportCommand() {
        CommandModel m = CommandModel.command(this, "report",
                "Where the samples landed, by command, DSO and symbol (like 'perf report --stdio').");
        in.declare(m);
        sym.declare(m);
        m.option("--stdio").describe("Text output (the only interactive-free layout; accepted for perf compatibility).")
                .flag(v -> stdio = v);
        m.option("-s", "--sort").label("KEYS")
                .describe("Sort keys: comm, pid, tid, dso, sym/symbol, cpu, srcline, srcfile, parent (default: comm,dso,symbol); in branch mode "
                        + "comm, dso_from, dso_to, symbol_from, symbol_to, mispredict, in_tx, abort, cycles.")
                .value(String.class, v -> sort = v);
        m.option("-F", "--fields").label("LIST")
                .describe("Columns in order: overhead, overhead_sys, overhead_us, overhead_children, sample, period "
                        + "and sort keys; rows sorted by --sort, then these. '+LIST' adds to the default columns.")
                .value(String.class, v -> fields = v);
        m.option("-p", "--parent").label("REGEX")
                .describe("Parent symbols: the first callchain symbol matching REGEX (default ^sys_|^do_page_fault), "
                        + "a column after the sort keys ('--sort parent' alone uses the default).")
                .value(String.class, v -> parent = v);
        m.option("-x", "--exclude-other").describe("Only rows with a parent symbol (see -p).")
                .flag(v -> excludeOther = v);
        m.option("--children").negatable()
                .describe("Add callers' accumulated periods (default: on when callchains were recorded).")
                .value(Boolean.class, v -> children = v);
        m.option("-g", "--call-graph").label("MODE[,PART...]")
                .describe("Callchain view, parts in any order: mode none, graph, flat, fractal or folded; threshold "
                        + "percent (0.5); print limit (branches per node); order caller or callee; key function, "
                        + "address or srcline (nodes by address or source line, printed with it); value percent, period "
                        + "or count.")
                .value(String.class, v -> {
                    callGraph = v;
                    lastOfThresholds = 1;
                });
        m.option("-G", "--inverted").describe("Callchains caller first, as perf's inverted caller-based graph (same as -g caller).")
                .flag(v -> inverted = v);
        m.option("--percent-limit").label("PCT")
                .describe("Hide entries below PCT percent, and callchain branches below it (as -g's threshold "
                        + "when it comes after -g).")
                .value(double.class, v -> {
                    percentLimit = v;
                    lastOfThresholds = 2;
                });
        m.option("--max-stack").label("N").defaultValue("127").describe("Use at most N callchain frames.")
                .value(int.class, v -> maxStack = v);
        filters.declare(m);
        m.option("--json").describe("Print the report as JSON.").flag(v -> json = v);
        shown.declare(m);
        m.option("-U", "--hide-unresolved").describe("Leave out samples and callchain frames without a symbol.")
                .flag(v -> hideUnresolved = v);
        m.option("--header").describe("Print the recording's header (as 'perfj header') before the report.")
                .flag(v -> header = v);
        m.option("--header-only").describe("Print only the recording's header (as 'perfj header').")
                .flag(v -> headerOnly = v);
        m.option("-I", "--show-info").describe("With --header/--header-only: the detailed header information too.")
                .flag(v -> showInfo = v);
        m.option("-D", "--dump-raw-trace").describe("Print every record instead (as 'perfj dump').")
                .flag(v -> dump = v);
        m.option("--stats").describe("Print record counts per type instead (as 'perfj dump --stats').")
                .flag(v -> stats = v);
        m.option("--inline").negatable()
                .describe("Show functions inlined at unwound addresses as callchain frames of their own (default: on).")
                .value(Boolean.class, v -> inline = v);
        m.option("--stitch-lbr")
                .describe("Stitch LBR call stacks with the entries of the thread's previous sample (as perf does "
                        + "when the recording has the LBR's hardware index and depth; otherwise they stay as recorded).")
                .flag(v -> stitchLbr = v);
        m.option("-b", "--branch-stack").negatable()
                .describe("Branch mode: one entry per branch of the samples' branch stacks (default: on when the "
                        + "recording was made with -b).")
                .value(Boolean.class, v -> branchStack = v);
        m.option("--group").negatable()
                .describe("Report an event group's events together, a column per event (default: on for the "
                        + "groups the recording has; --group makes all events one group when it has none).")
                .value(Boolean.class, v -> group = v);
        m.option("--symbol-filter").label("TEXT")
                .describe("With a symbol sort key, only rows whose symbol's name contains TEXT (rows without a "
                        + "symbol are left out).")
                .value(String.class, v -> symbolFilter = v);
        m.option("--ignore-callees").label("REGEX")
                .describe("A callchain frame whose symbol matches REGEX stands for the functions it called: their "
                        + "frames are dropped and the sample is counted in it.")
                .value(String.class, v -> ignoreCallees = v);
        m.option("-v", "--verbose")
                .describe("Objects by their full paths; before each symbol, its first sample's address and where "
                        + "its symbols came from (k kallsyms, B/D build-id cache, d the object's path, ! none).")
                .flag(v -> verbose = v);
        m.option("--hierarchy")
                .describe("One level of rows per sort key, each indented under the one before; implies "
                        + "--no-children.")
                .flag(v -> hierarchy = v);
        refused.declare(m, Refused.REPORT);
        spec = m.spec();
    }

    @Override
    public Integer call() throws java.io.IOException {
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter out = spec.commandLine().getOut();
        refused.check();
        if (stats || dump) {
            return DumpCommand.print(in, sym, stats, spec);
        }
        try (PerfData data = PerfData.open(in.input)) {
            if (headerOnly || header) {
                HeaderCommand.print(data, showInfo, HeaderLayout.of(sym.compat.perf61()), out, err);
                if (headerOnly) {
                    return 0;
                }
            }
            refuseBranchHistory(data);
            boolean branchMode = branchStack != null ? branchStack : io.perfj.report.BranchReport.isDefault(data);
            if (stitchLbr) {
                stitchLbr(data, branchMode, err);
            }
            if (branchMode) {
                return branchReport(data, out, err);
            }
            ReportOptions opts = options(data);
            try (Session session = sym.session(data, verbose)) {
                if (intelPt) {
                    session.itrace(io.perfj.intelpt.PtSynthOptions.reportDefault());
                }
                Report r = Report.build(session, opts, !json);
                if (json) {
                    new JsonReport(r, out).print();
                } else if (!new StdioReport(r, out).print(!header)) {
                    noSamples(session, err);
                }
                InputOptions.warn(out, err, r.traceWarnings(), session.warnings());
            }
        }
        return 0;
    }

    /**
     * {@code --stitch-lbr}: perf's warning when the recording has no LBR callchains in use
     * (report's callchains are used when recorded, unless -g none and no --children, which
     * branch mode turns off); refused where perf would stitch, which perfj does not do yet.
     */
    private void stitchLbr(PerfData data, boolean branchMode, PrintWriter err) {
        boolean recorded = io.perfj.report.TraceReport.hasCallchains(data);
        boolean graphNone = callGraph != null && java.util.Arrays.stream(callGraph.split(","))
                .anyMatch(p -> p.trim().equalsIgnoreCase("none"));
        boolean cumulate = !branchMode && (children == null || children);
        var w = io.perfj.report.LbrStitch.warning(data, recorded && (!graphNone || cumulate));
        if (w.isPresent()) {
            err.print("Warning:\n" + w.get());
            err.flush();
        } else if (io.perfj.report.LbrStitch.stitches(data)) {
            throw new CliError("report --stitch-lbr: stitching LBR call stacks recorded with the hardware index"
                    + " is not supported yet (drop --stitch-lbr for the stacks as recorded)");
        }
    }

    /**
     * {@code -g}'s {@code branch} word (perf's branch history: a sample's branch stack added to
     * its callchain, with counts of branch types and cycles): nothing to add where no event
     * samples branch stacks, or samples them as LBR call stacks (which are the callchains then:
     * perf prints the same with and without it); refused where an event samples branches.
     */
    private void refuseBranchHistory(PerfData data) {
        if (callGraph == null || !CallGraph.parse(callGraph, CallchainMode.GRAPH, spec).branch()) {
            return;
        }
        for (Evsel e : data.evlist().evsels()) {
            long type = e.attr().sampleType();
            if ((type & SampleFormat.BRANCH_STACK) == 0
                    || (e.attr().branchSampleType() & io.perfj.session.ChainWalk.BRANCH_CALL_STACK) != 0) {
                continue;
            }
            if ((type & SampleFormat.CALLCHAIN) == 0) {
                throw new CliError("report -g: the recording has no callchains (perf: \"Selected -g or "
                        + "--branch-history. But no callchain or branch data.\")");
            }
            throw new CliError("report -g ...,branch: adding the samples' branch stacks to their callchains is not "
                    + "supported yet (leave out 'branch')");
        }
    }

    /** perf report's branch mode: one entry per branch ({@link io.perfj.report.BranchReport}). */
    private int branchReport(PerfData data, PrintWriter out, PrintWriter err) {
        if (!io.perfj.report.BranchReport.hasBranchStacks(data)) {
            throw new CliError("report -b: the recording has no branch stacks (it was not recorded with -b or -j)");
        }
        if (json || shown.given() || hideUnresolved || filters.given() || fields != null) {
            throw new CliError("report: --json, -n, --show-total-period, -q, --percentage, --hide-unresolved, -F and "
                    + "the filters are not supported in branch mode (use --no-branch-stack)");
        }
        List<io.perfj.report.BranchSortKey> keys;
        try {
            keys = io.perfj.report.BranchSortKey.parse(sort == null ? io.perfj.report.BranchSortKey.DEFAULT : sort);
        } catch (UnsupportedOperationException e) {
            throw new CliError("report --sort: " + e.getMessage());
        } catch (IllegalArgumentException e) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--sort: " + e.getMessage());
        }
        try (Session session = sym.session(data, verbose)) {
            io.perfj.report.BranchReport r = io.perfj.report.BranchReport.build(session, keys,
                    sort != null && sort.contains("symbol"));
            r.print(out, !header, percentLimit);
            InputOptions.warn(out, err, session.warnings());
        }
        return 0;
    }

    /**
     * No sample made an entry (none recorded, or -C/--time kept none): perf's error, which still
     * exits 0, or under {@code --compat perf-6.1} its exact two lines.
     */
    private void noSamples(Session session, PrintWriter err) {
        if (session.compat().perf61()) {
            err.print("Error:\nThe " + in.input + " data has no samples!\n");
        } else {
            err.println("perfj: warning: " + in.input + " has no samples to report");
        }
        err.flush();
    }

    private boolean percentLimitGiven() {
        return spec.findOption("--percent-limit") != null
                && spec.commandLine().getParseResult().hasMatchedOption("--percent-limit");
    }

    /** Whether the recording has Intel PT trace, which report decodes with callchains for every sample. */
    private boolean intelPt;

    private ReportOptions options(PerfData data) {
        boolean callchains = false;
        for (Evsel e : data.evlist().evsels()) {
            callchains |= (e.attr().sampleType() & SampleFormat.CALLCHAIN) != 0;
        }
        intelPt = !json && io.perfj.session.Session.hasIntelPt(data);
        callchains |= intelPt;
        io.perfj.profile.SampleFilter f = filters.filter(data);
        io.perfj.report.SampleSelection select = filters.selection(data);
        boolean relative = shown.relative(spec);
        // JSON keeps one report per event: a group's columns are its members' own reports there
        io.perfj.perfdata.feature.EventGroups.Mode groups = json || Boolean.FALSE.equals(group)
                ? io.perfj.perfdata.feature.EventGroups.Mode.NONE
                : group != null ? io.perfj.perfdata.feature.EventGroups.Mode.FORCED : io.perfj.perfdata.feature.EventGroups.Mode.RECORDED;
        java.util.regex.Pattern callees;
        try {
            callees = ignoreCallees == null ? null : java.util.regex.Pattern.compile(ignoreCallees);
        } catch (java.util.regex.PatternSyntaxException e) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "--ignore-callees: '" + ignoreCallees + "' is not a regular expression");
        }
        // In pipe mode perf decides on --children before any attr has arrived, so accumulation
        // is off whatever is asked, but it still prints the callchains it finds. Without
        // callchains perf silently drops an asked-for --children.
        // perf 6.1's --hierarchy turns --children off after the callchain order is chosen
        boolean child = !data.isPipe() && callchains && (children == null || children) && !hierarchy;
        CallchainMode mode = callchains || data.isPipe() ? CallchainMode.GRAPH : CallchainMode.NONE;
        CallGraph g = CallGraph.parse(callGraph, mode, spec);
        mode = g.mode();
        double threshold = g.threshold();
        boolean thresholdGiven = g.thresholdGiven();
        Boolean caller = g.caller();
        // perf 6.1's -G/--inverted is the caller-based graph (as -g caller), whatever the help says
        // perf's --percent-limit sets the callchain threshold too, unless a -g after it sets one
        if (lastOfThresholds == 2 || lastOfThresholds == 1 && !thresholdGiven && percentLimitGiven()) {
            threshold = percentLimit;
        }
        if (inverted) {
            caller = true;
        }
        // perf's callchain order is callee unless one is chosen; --children (on unless
        // --no-children, decided before perf sees whether there are callchains or it is a pipe)
        // turns an order nobody chose into caller order, which also decides the order entries
        // are made in.
        boolean callerOrder = caller != null ? caller : children == null || children;
        List<SortKey> keys;
        try {
            // perf's default order for a recording of tracepoints alone is by trace text
            String order = sort != null ? sort : io.perfj.report.TraceReport.applies(data) ? "trace" : "comm,dso,symbol";
            keys = SortKey.parse(order);
        } catch (UnsupportedOperationException e) {
            throw new CliError("report --sort: " + e.getMessage());
        } catch (IllegalArgumentException e) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--sort: " + e.getMessage());
        }
        if (hierarchy && keys.contains(SortKey.TRACE_FIELDS)) {
            throw new CliError("report --hierarchy: the trace_fields sort key is not supported in the hierarchy");
        }
        java.util.regex.Pattern parentPattern = io.perfj.report.ReportView.DEFAULT_PARENT;
        if (parent != null) {
            try {
                parentPattern = java.util.regex.Pattern.compile(parent);
            } catch (java.util.regex.PatternSyntaxException e) {
                throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                        "--parent: '" + parent + "' is not a regular expression: " + e.getDescription());
            }
            // perf appends the parent key to the sort keys when a pattern is given
            if (!keys.contains(SortKey.PARENT)) {
                keys = new java.util.ArrayList<>(keys);
                keys.add(SortKey.PARENT);
            }
        }
        io.perfj.report.ReportFields columns = null;
        if (fields != null && hierarchy) {
            throw new CliError("report: --hierarchy and --fields options cannot be used together");
        }
        if (fields != null && json) {
            throw new CliError("report -F: the JSON report has every value of a row; -F chooses text columns");
        }
        if (fields != null) {
            try {
                columns = io.perfj.report.ReportFields.parse(fields,
                        sort != null ? keys : parent != null ? List.of(SortKey.PARENT) : null, keys, child,
                        shown.nrSamples, shown.totalPeriod);
            } catch (UnsupportedOperationException e) {
                throw new CliError("report -F: " + e.getMessage());
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.ParameterException(spec.commandLine(), "-F: " + e.getMessage());
            }
            keys = columns.keys();
        }
        io.perfj.report.ReportView view = new io.perfj.report.ReportView(shown.nrSamples, shown.totalPeriod, shown.quiet, relative,
                hideUnresolved, !inline, groups, symbolFilter, callees, verbose, hierarchy, g.value(), g.printLimit(),
                g.key(), columns, parentPattern, excludeOther);
        // perf appends its hidden ipc_null key (IPC columns) when the --sort text contains "symbol"
        return new ReportOptions(keys, sort != null && sort.contains("symbol"), child, mode, callerOrder, threshold, percentLimit, maxStack,
                f.comms(), f.dsos(), f.symbols(), f.pids(), f.tids(), null, select, view);
    }

    /**
     * What {@code -g} says, its parts in any order as perf reads them: the mode ({@code dflt}
     * when it names none), the threshold (0.5 unless given), the order (null when it names
     * none), the key that tells nodes apart, the value a branch shows, the print limit (the
     * second number; 0 for none) and whether {@code branch} asks for the samples' branch stacks
     * in their callchains. A word may be cut short, as perf takes any prefix of the first word it
     * matches in the order: graph, flat, fractal, folded, caller, callee, function, address,
     * srcline, branch, percent, period, count; none (or its prefix) ends the list.
     */
    public record CallGraph(CallchainMode mode, double threshold, boolean thresholdGiven, Boolean caller,
                     io.perfj.profile.CallchainKey key, io.perfj.report.CallchainValue value, int printLimit,
                     boolean branch) {
        private static final List<String> WORDS = List.of("graph", "flat", "fractal", "folded", "caller", "callee",
                "function", "address", "srcline", "branch", "percent", "period", "count");

        public static CallGraph parse(String text, CallchainMode dflt, picocli.CommandLine.Model.CommandSpec spec) {
            CallchainMode mode = dflt;
            double threshold = 0.5;
            boolean thresholdGiven = false;
            Boolean caller = null;
            io.perfj.profile.CallchainKey key = io.perfj.profile.CallchainKey.FUNCTION;
            io.perfj.report.CallchainValue value = io.perfj.report.CallchainValue.PERCENT;
            int printLimit = 0;
            boolean branch = false;
            if (text == null) {
                return new CallGraph(mode, threshold, false, null, key, value, 0, false);
            }
            for (String part : text.split(",")) {
                String p = part.trim().toLowerCase(Locale.ROOT);
                if (p.isEmpty()) {
                    continue;
                }
                if ("none".startsWith(p)) {
                    return new CallGraph(CallchainMode.NONE, threshold, thresholdGiven, caller, key, value, printLimit,
                            branch);
                }
                String word = WORDS.stream().filter(w -> w.startsWith(p)).findFirst().orElse("");
                switch (word) {
                    case "graph" -> mode = CallchainMode.GRAPH;
                    case "flat" -> mode = CallchainMode.FLAT;
                    case "fractal" -> mode = CallchainMode.FRACTAL;
                    case "folded" -> mode = CallchainMode.FOLDED;
                    case "caller" -> caller = true;
                    case "callee" -> caller = false;
                    case "function" -> key = io.perfj.profile.CallchainKey.FUNCTION;
                    case "address" -> key = io.perfj.profile.CallchainKey.ADDRESS;
                    case "srcline" -> key = io.perfj.profile.CallchainKey.SRCLINE;
                    case "branch" -> branch = true;
                    case "percent" -> value = io.perfj.report.CallchainValue.PERCENT;
                    case "period" -> value = io.perfj.report.CallchainValue.PERIOD;
                    case "count" -> value = io.perfj.report.CallchainValue.COUNT;
                    default -> {
                        try {
                            if (!thresholdGiven) {
                                threshold = Double.parseDouble(p);
                                thresholdGiven = true;
                            } else {
                                printLimit = Integer.parseInt(p);
                            }
                        } catch (NumberFormatException e) {
                            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                                    "-g: '" + part + "' is not a mode, order, key, value, threshold or print limit");
                        }
                    }
                }
            }
            return new CallGraph(mode, threshold, thresholdGiven, caller, key, value, printLimit, branch);
        }
    }
}
