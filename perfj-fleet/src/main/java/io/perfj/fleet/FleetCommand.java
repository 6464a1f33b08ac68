package io.perfj.fleet;

import io.perfj.cli.CliError;
import io.perfj.cli.CommandModel;
import io.perfj.cli.ProfileCliOptions;
import io.perfj.cli.ReportCommand;
import io.perfj.cli.ServeCommand;
import io.perfj.cli.SymbolCliOptions;
import io.perfj.cli.ViewCliOptions;
import io.perfj.report.CallchainMode;
import io.perfj.report.JsonReport;
import io.perfj.report.Report;
import io.perfj.report.ReportOptions;
import io.perfj.report.ReportView;
import io.perfj.report.SortKey;
import io.perfj.report.StdioReport;
import io.perfj.session.Compat;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code perfj fleet}: reports and queries over every recording under a directory, on Apache
 * Spark (embedded in local mode, or a cluster's driver with {@code --master}), made with the
 * command line's option models ({@link CommandModel}, {@link SymbolCliOptions}) and found by it
 * as a {@link io.perfj.cli.Subcommand} ({@link FleetSubcommand}); built in perfj-fleet, so Spark
 * is on no other command's class path.
 */
public final class FleetCommand implements Runnable {
    final CommandSpec spec;

    FleetCommand() {
        CommandModel m = CommandModel.command(this, "fleet",
                "Reports and SQL over every recording under a directory (DIR/HOST/*.data), on Apache Spark.");
        spec = m.spec();
        spec.addSubcommand("report", new ReportSub().spec);
        spec.addSubcommand("sql", new SqlSub().spec);
        spec.addSubcommand("flamegraph", new FlameSub().spec);
        spec.addSubcommand("serve", new ServeSub().spec);
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** What every fleet subcommand takes: the directory, the symbol sources, the cluster. */
    abstract static class Common {
        Path dir;
        String master;
        final SymbolCliOptions sym = new SymbolCliOptions();

        void declare(CommandModel m) {
            m.positional("0", "DIR").describe("The fleet: recordings under DIR, a directory per host (DIR/HOST/...), "
                    + "each with its build-id cache beside it (an unpacked 'perf archive') or the shared --buildid-dir.")
                    .value(Path.class, v -> dir = v);
            m.option("--master").label("URL")
                    .describe("Spark master: local[*] (default, embedded), local[N], spark://HOST:PORT or yarn.")
                    .value(String.class, v -> master = v);
            sym.declare(m);
        }

        /** The samples of the directory, in a session this command stops. */
        Dataset<Row> samples(SparkSession spark) {
            if (!Files.isDirectory(dir)) {
                throw new CliError("fleet: " + dir + " is not a directory");
            }
            if (sym.compat() != Compat.NONE) {
                throw new CliError("fleet: --compat " + sym.compat() + " is not supported (fleet rows are the default mode's)");
            }
            io.perfj.symbols.SymbolOptions so = sym.toOptions();
            Map<String, String> o = new HashMap<>();
            put(o, "symfs", so.symfs());
            put(o, "buildid-dir", so.buildIdDir());
            put(o, "kallsyms", so.kallsyms());
            put(o, "perf-map-dir", so.perfMapDir());
            o.put("no-system-files", Boolean.toString(!so.useSystem()));
            return FleetReport.samples(spark, dir.toAbsolutePath().toString(), o);
        }

        private static void put(Map<String, String> o, String k, Path v) {
            if (v != null) {
                o.put(k, v.toAbsolutePath().toString());
            }
        }

        SparkSession spark() {
            return FleetSpark.start(master, master == null || master.startsWith("local") ? null : FleetSpark.classPath());
        }

        /** What a fleet command does in its Spark session, which it then stops. */
        interface Work {
            void run(SparkSession spark) throws java.io.IOException;
        }

        /**
         * Runs {@code work} in a session; a failure in a task (a damaged recording, a missing
         * library) comes out as what the task threw, so that the error is the one line naming
         * the file a single-file command prints; a query Spark cannot analyse (a bad --where or
         * SQL) as its first line.
         */
        void inSpark(Work work) throws java.io.IOException {
            SparkSession spark = spark();
            try {
                work.run(spark);
            } catch (java.io.IOException e) {
                throw e;
            } catch (Exception e) {
                // Spark's own exceptions are checked ones, thrown from Scala without a declaration
                throw cause(e);
            } finally {
                spark.stop();
            }
        }

        static RuntimeException cause(Exception e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof io.perfj.io.FormatException || t instanceof io.perfj.io.MissingLibraryException
                        || t instanceof java.io.UncheckedIOException || t instanceof CliError) {
                    return (RuntimeException) t;
                }
                if (t instanceof org.apache.spark.sql.AnalysisException a) {
                    String m = a.getMessage() == null ? a.toString() : a.getMessage().lines().findFirst().orElse("");
                    return new CliError("fleet: " + m);
                }
            }
            return e instanceof RuntimeException r ? r : new IllegalStateException(e.getMessage(), e);
        }
    }

    /** {@code perfj fleet report DIR}: report's rows over every sample of every recording. */
    static final class ReportSub extends Common implements Callable<Integer> {
        final CommandSpec spec;
        String sort;
        String where;
        boolean stdio;
        boolean json;
        final ViewCliOptions shown = new ViewCliOptions();
        double percentLimit;
        Boolean children;
        String callGraph;

        ReportSub() {
            CommandModel m = CommandModel.command(this, "report",
                    "Where the samples of all recordings landed, in report's layout (rows summed over the files).");
            declare(m);
            m.option("--stdio").describe("Text output (the default).").flag(v -> stdio = v);
            m.option("--json").describe("Print the report as JSON.").flag(v -> json = v);
            m.option("-s", "--sort").label("KEYS").describe("Sort keys: comm, pid, tid, dso, sym/symbol, cpu "
                    + "(default: comm,dso,symbol).").value(String.class, v -> sort = v);
            m.option("--where").label("SQL").describe("Only the samples this SQL condition keeps, on the columns "
                    + "host, file, event, time, pid, tid, comm, cpu, period, sampled, stack (e.g. \"host = 'web1'\").")
                    .value(String.class, v -> where = v);
            m.option("--children").negatable()
                    .describe("Add callers' accumulated periods (default: off, or on with -g).")
                    .value(Boolean.class, v -> children = v);
            m.option("-g", "--call-graph").label("MODE[,THRESHOLD[,ORDER]]")
                    .describe("Callchain view: none (default), graph, flat, fractal, folded; threshold percent "
                            + "(0.5); order caller or callee (caller with --children).")
                    .value(String.class, v -> callGraph = v);
            shown.declare(m);
            m.option("--percent-limit").label("PCT").describe("Hide entries below PCT percent.")
                    .value(double.class, v -> percentLimit = v);
            spec = m.spec();
        }

        @Override
        public Integer call() throws java.io.IOException {
            PrintWriter out = spec.commandLine().getOut();
            List<SortKey> keys;
            try {
                keys = SortKey.parse(sort == null ? "comm,dso,symbol" : sort);
            } catch (UnsupportedOperationException e) {
                throw new CliError("fleet report --sort: " + e.getMessage());
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--sort: " + e.getMessage());
            }
            if (keys.contains(SortKey.TRACE) || keys.contains(SortKey.TRACE_FIELDS)) {
                throw new CliError("fleet report --sort: the trace keys are not supported over a fleet");
            }
            if (keys.contains(SortKey.SRCLINE) || keys.contains(SortKey.SRCFILE)) {
                throw new CliError("fleet report --sort: the srcline and srcfile keys are not supported over a fleet");
            }
            if (keys.contains(SortKey.PARENT)) {
                throw new CliError("fleet report --sort: the parent key is not supported over a fleet");
            }
            boolean relative = shown.relative(spec);
            // as report on a recording with callchains, once -g asks for them: --children unless
            // --no-children, caller order with --children unless an order is given
            ReportCommand.CallGraph g = ReportCommand.CallGraph.parse(callGraph,
                    callGraph == null ? CallchainMode.NONE : CallchainMode.GRAPH, spec);
            if (g.key() != io.perfj.profile.CallchainKey.FUNCTION) {
                throw new CliError("fleet report -g: callchain nodes are merged by function over a fleet (a merged row "
                        + "keeps no callchain addresses)");
            }
            ReportView view = new ReportView(shown.nrSamples, shown.totalPeriod, shown.quiet, relative, false, false,
                    io.perfj.perfdata.feature.EventGroups.Mode.NONE, null, null, false, false, g.value(), g.printLimit(),
                    io.perfj.profile.CallchainKey.FUNCTION, null, ReportView.DEFAULT_PARENT, false);
            boolean child = children != null ? children : callGraph != null && g.mode() != CallchainMode.NONE;
            boolean callerOrder = g.caller() != null ? g.caller() : child;
            ReportOptions o = new ReportOptions(keys, sort != null && sort.contains("symbol"), child,
                    g.mode(), callerOrder, g.threshold(), percentLimit, 127, null, null, null, null, null, null,
                    io.perfj.report.SampleSelection.ALL, view);
            inSpark(spark -> {
                Report r = FleetReport.report(samples(spark), o, where);
                if (json) {
                    new JsonReport(r, out).print();
                } else if (!new StdioReport(r, out).print()) {
                    spec.commandLine().getErr().println("perfj: warning: " + dir + " has no samples to report");
                }
                out.flush();
            });
            return 0;
        }
    }

    /** {@code perfj fleet sql DIR QUERY}: a query over the table {@code samples}. */
    static final class SqlSub extends Common implements Callable<Integer> {
        final CommandSpec spec;
        String query;

        SqlSub() {
            CommandModel m = CommandModel.command(this, "sql",
                    "Runs a Spark SQL query over the samples of every recording (the table 'samples'); prints "
                            + "its rows tab-separated under a header line.");
            declare(m);
            m.positional("1", "QUERY").describe("e.g. \"SELECT host, comm, sum(period) FROM samples GROUP BY 1, 2\"")
                    .value(String.class, v -> query = v);
            spec = m.spec();
        }

        @Override
        public Integer call() throws java.io.IOException {
            PrintWriter out = spec.commandLine().getOut();
            inSpark(spark -> {
                samples(spark).createOrReplaceTempView("samples");
                Dataset<Row> d = spark.sql(query);
                out.println(String.join("\t", d.columns()));
                for (java.util.Iterator<Row> it = d.toLocalIterator(); it.hasNext(); ) {
                    Row r = it.next();
                    StringBuilder b = new StringBuilder();
                    for (int i = 0; i < r.length(); i++) {
                        if (i > 0) {
                            b.append('\t');
                        }
                        b.append(r.isNullAt(i) ? "NULL" : String.valueOf(r.get(i)));
                    }
                    out.println(b);
                }
                out.flush();
            });
            return 0;
        }
    }

    /** {@code perfj fleet flamegraph DIR -o OUT.html}: one event's stacks of every recording. */
    static final class FlameSub extends Common implements Callable<Integer> {
        final CommandSpec spec;
        Path output;
        String event;
        String where;

        FlameSub() {
            CommandModel m = CommandModel.command(this, "flamegraph",
                    "A flame graph of one event's stacks over every recording (an HTML page, as perfj flamegraph -o X.html).");
            declare(m);
            m.option("-o", "--output").label("FILE").describe("The page to write (*.html).").required()
                    .value(Path.class, v -> output = v);
            m.option("--event").label("NAME").describe("The event to draw (default: the first one recorded).")
                    .value(String.class, v -> event = v);
            m.option("--where").label("SQL").describe("Only the samples this SQL condition keeps (see fleet report).")
                    .value(String.class, v -> where = v);
            spec = m.spec();
        }

        @Override
        public Integer call() throws java.io.IOException {
            String name = output.getFileName() == null ? "" : output.getFileName().toString();
            if (!name.endsWith(".html") && !name.endsWith(".htm")) {
                throw new CliError(output + ": fleet flamegraph writes an HTML page: *.html");
            }
            inSpark(spark -> {
                Dataset<Row> s = samples(spark);
                io.perfj.fleet.FleetFlame.Flame flame = io.perfj.fleet.FleetFlame.flame(s, event, where);
                if (flame == null) {
                    throw new CliError("fleet flamegraph: " + dir + " has no samples");
                }
                String ev = flame.event();
                io.perfj.profile.FlameTree tree = flame.tree();
                String unit = io.perfj.profile.Profile.inNanoseconds(ev) ? "ns" : "events";
                try (java.io.OutputStream o = new java.io.BufferedOutputStream(Files.newOutputStream(output), 1 << 16)) {
                    new io.perfj.serve.FlameHtml(tree, "Fleet flame graph: " + dir + " (" + ev + ")", unit).write(o);
                }
            });
            return 0;
        }
    }

    /**
     * {@code perfj fleet serve DIR}: the browser UI of {@code perfj serve} over the weighted
     * stacks of every recording (one {@link io.perfj.profile.Profile} of Spark's sums, the hosts'
     * threads as its threads), served by the same server; the Spark session is stopped once the
     * sums are in.
     */
    static final class ServeSub extends Common implements Callable<Integer> {
        final CommandSpec spec;
        String where;
        String event;
        int port;
        String bind = "127.0.0.1";
        boolean exitAfterStart;

        ServeSub() {
            CommandModel m = CommandModel.command(this, "serve",
                    "Serve the stacks of every recording to a browser on this machine, as perfj serve does one "
                            + "recording's (flame graph, call tree, top functions; no annotate). Prints the page's "
                            + "address with its random token; serves until interrupted.");
            declare(m);
            m.option("--where").label("SQL").describe("Only the samples this SQL condition keeps (see fleet report).")
                    .value(String.class, v -> where = v);
            m.option("--event").label("NAME").describe("The event shown first (default: the first one recorded).")
                    .value(String.class, v -> event = v);
            m.option("--port").label("N").defaultValue("0").describe("Port to listen on (default: a free one).")
                    .value(int.class, v -> port = v);
            m.option("--bind").label("ADDR").defaultValue("127.0.0.1")
                    .describe("Address to listen on (default ${DEFAULT-VALUE}: this machine only).")
                    .value(String.class, v -> bind = v);
            m.option("--exit-after-start").hidden().describe("Start, answer the first page's calls, and exit (for tests).")
                    .flag(v -> exitAfterStart = v);
            spec = m.spec();
        }

        @Override
        public Integer call() throws java.io.IOException, InterruptedException {
            PrintWriter err = spec.commandLine().getErr();
            long t0 = System.nanoTime();
            err.println("perfj: reading the fleet " + dir + " ...");
            err.flush();
            io.perfj.profile.Profile[] read = new io.perfj.profile.Profile[1];
            inSpark(spark -> read[0] = io.perfj.fleet.FleetFlame.profile(samples(spark), null, where, true));
            io.perfj.profile.Profile p = read[0];
            if (p.sampleCount() == 0) {
                throw new CliError("fleet serve: " + dir + " has no samples" + (where == null ? "" : " where " + where));
            }
            // as serve picks a recording's (the name, or the name without its :modifiers)
            int ev = event == null ? -1 : ProfileCliOptions.event(p, dir, event);
            long samples = 0;
            for (int i = 0; i < p.sampleCount(); i++) {
                samples += p.count(i);
            }
            java.util.Set<String> hosts = new java.util.HashSet<>();
            for (int t = 0; t < p.threadCount(); t++) {
                hosts.add(p.host(t));
            }
            err.println(String.format(java.util.Locale.ROOT,
                    "perfj: %s: %d samples in %d distinct stacks, %d threads on %d hosts, %d events (%.1f s)", dir,
                    samples, p.sampleCount(), p.threadCount(), hosts.size(), p.events().size(),
                    (System.nanoTime() - t0) / 1e9));
            err.flush();
            io.perfj.serve.Recording r = io.perfj.serve.Recording.ofFleet("fleet " + dir, p, ev);
            return ServeCommand.serve(new io.perfj.serve.Api(r), bind, port, exitAfterStart,
                    spec.commandLine().getOut(), err);
        }
    }
}
