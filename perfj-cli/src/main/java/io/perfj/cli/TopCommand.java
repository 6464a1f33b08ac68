package io.perfj.cli;

import io.perfj.record.EventSpec;
import io.perfj.record.RecordOptions;
import io.perfj.record.Recorder;
import io.perfj.report.CallchainMode;
import io.perfj.report.ReportOptions;
import io.perfj.report.SortKey;
import io.perfj.session.Session;
import io.perfj.session.SessionOptions;
import io.perfj.top.LiveProfile;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code perfj top}: a live profile. The recorder streams pipe-mode records to a
 * {@link LiveProfile}, whose reader thread keeps the process model current while its display
 * thread sums the samples by symbol (with -g by callchain too); {@code --stdio -d SECONDS} prints
 * one snapshot at the end (with -g report's Children/Self rows and callchain trees).
 */
public final class TopCommand implements java.util.concurrent.Callable<Integer> {
    /** The views' rings are drained at most this often (perf top polls every 100 ms). */
    static final int LIVE_DRAIN_MS = 100;
    boolean stdio;
    boolean web;
    int port;
    /** -d: the snapshot's delay with --stdio (default 2 s), the refresh period of the full-screen view (default 1 s). */
    Double delay;
    boolean all;
    int pid = -1;
    Long frequency;
    String events;
    boolean g;
    /** --children / --no-children: null when neither was given (on with -g, as perf top). */
    Boolean children;
    String sort = "dso,sym";
    final CommandSpec spec;

    TopCommand() {
        CommandModel m = CommandModel.command(this, "top",
                "Profile the running system live, like 'perf top' (--stdio: one snapshot and exit).",
                "Without --stdio, a full-screen view refreshed every -d seconds (keys: h); when standard"
                        + " output is no terminal, --stdio's one snapshot instead, as perf top falls back to its stdio view.");
        m.option("--stdio").describe("Print one report-style snapshot after -d seconds and exit.").flag(v -> stdio = v);
        m.option("--web").describe("Serve the live profile in the browser UI (as perfj serve), refreshed every -d seconds (default 1), until Ctrl-C.")
                .flag(v -> web = v);
        m.option("--port").label("PORT").describe("With --web: the port on 127.0.0.1 (default 0: a free one).")
                .value(Integer.class, v -> port = v);
        m.option("-d", "--delay").label("SECONDS")
                .describe("With --stdio: how long to record before the snapshot (default 2). Full-screen: the refresh period (default 1).")
                .value(Double.class, v -> delay = v);
        m.option("-a", "--all-cpus").describe("Every CPU and every task (the default without -p).").flag(v -> all = v);
        m.option("-p", "--pid").label("PID").describe("Only the threads of an existing process.")
                .value(Integer.class, v -> pid = v);
        m.option("-F", "--freq").label("HZ").describe("Sample this many times a second (default 4000).")
                .value(Long.class, v -> frequency = v);
        m.option("-e", "--event").label("EVENT[,EVENT...]")
                .describe("Events to sample, as for record (default cycles, cpu-clock without a PMU).")
                .value(String.class, v -> events = events == null ? v : events + "," + v);
        m.option("-g").describe("Record call chains by frame pointers and show them (with --stdio: report's callchain trees).")
                .flag(v -> g = v);
        m.option("--children").negatable()
                .describe("With -g: add callers' accumulated periods, a Children column (default on with -g, as perf top).")
                .value(Boolean.class, v -> children = v);
        m.option("-s", "--sort").label("KEYS").describe("Row keys among comm, dso, sym (default dso,sym).")
                .value(String.class, v -> sort = v);
        spec = m.spec();
    }

    @Override
    public Integer call() throws Exception {
        if (web && stdio) {
            throw new CliError("--web and --stdio are exclusive");
        }
        boolean screen = !stdio && !web && interactive();
        double d = delay != null ? delay : screen || web ? 1 : 2;
        if (!(d > 0)) {
            throw new CliError("-d needs a positive number of seconds");
        }
        if (all && pid >= 0) {
            throw new CliError("-a and -p are exclusive");
        }
        List<SortKey> keys;
        try {
            keys = SortKey.parse(sort);
        } catch (IllegalArgumentException | UnsupportedOperationException e) {
            throw new CliError(e.getMessage());
        }
        for (SortKey k : keys) {
            if (k != SortKey.COMM && k != SortKey.DSO && k != SortKey.SYM) {
                throw new CliError("top sorts by comm, dso and sym, not " + k.name().toLowerCase(Locale.ROOT));
            }
        }
        if (!Recorder.supported()) {
            throw new CliError("top needs Linux on x86-64 or aarch64 (perf_event_open)");
        }
        List<EventSpec> ev;
        try {
            ev = events == null ? List.of() : EventSpec.parseList(events);
        } catch (IllegalArgumentException e) {
            throw new CliError(e.getMessage());
        }
        RecordOptions o;
        try {
            o = new RecordOptions(ev, pid < 0, pid, frequency != null ? frequency : RecordOptions.DEFAULT_FREQUENCY, 0,
                    g ? RecordOptions.CallGraph.FP : RecordOptions.CallGraph.NONE, RecordOptions.DEFAULT_STACK,
                    RecordOptions.DEFAULT_PAGES, Path.of("-"), List.of(), List.of("perfj", "top"));
        } catch (IllegalArgumentException e) {
            throw new CliError(e.getMessage());
        }
        Recorder r = new Recorder(o, new Main.Version().getVersion()[0].replaceFirst(" \\(.*", ""));
        PipedInputStream in = new PipedInputStream(4 << 20);
        PipedOutputStream out = new PipedOutputStream(in);
        AtomicReference<RuntimeException> recordFailure = new AtomicReference<>();
        AtomicReference<Recorder.Summary> summary = new AtomicReference<>();
        // the views show what came at each refresh: the rings drained four times a refresh period,
        // at most every 100 ms as perf top's (each wakeup of an idle JVM costs ~5 ms of CPU here);
        // --stdio's one snapshot is taken after the last drain
        int drainMs = screen || web ? (int) Math.max(LIVE_DRAIN_MS, Math.min(60_000, d * 1000 / 4)) : -1;
        Thread recording = new Thread(() -> {
            try {
                summary.set(r.stream(out, drainMs));
            } catch (RuntimeException e) {
                recordFailure.set(e);
            }
        }, "perfj-top-record");
        recording.setDaemon(true);
        recording.start();
        PrintWriter w = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try (Session s = Session.open(in, "the live stream", SessionOptions.defaults());
             LiveProfile p = new LiveProfile(s, g).start()) {
            if (screen) {
                interactive(s, p, keys, (long) Math.ceil(d * 1000), g ? this::reportOptions : null);
            } else if (web) {
                web(s, p, w, err, (long) Math.ceil(d * 1000));
            } else {
                Thread.sleep((long) (d * 1000));
            }
            r.requestStop();
            recording.join();
            // a reader's failure first: the recorder's is then only that nobody read the stream
            p.awaitEnd();
            if (recordFailure.get() != null) {
                throw recordFailure.get();
            }
            List<String> warnings = new ArrayList<>(r.warnings());
            warnings.addAll(p.warnings());
            for (String warning : warnings) {
                err.println("Warning: " + warning);
            }
            if (!screen && !web && g) {
                printReport(w, p, s, reportOptions(keys), summary.get());
            } else if (!screen && !web) {
                print(w, p.snapshot(keys), keys, summary.get());
            }
        } catch (io.perfj.io.FormatException e) {
            // the stream ends early when the recorder failed: its reason is the one to give
            recording.join();
            if (recordFailure.get() != null) {
                throw recordFailure.get();
            }
            throw e;
        }
        w.flush();
        return 0;
    }

    /** Whether the full-screen view can run: standard input and output are a terminal. */
    private static boolean interactive() {
        java.io.Console c = System.console();
        return c != null && c.isTerminal();
    }

    /** The full-screen view on the process's terminal until q. */
    private static void interactive(Session s, LiveProfile p, List<SortKey> keys, long refreshMillis,
                                    java.util.function.Function<List<SortKey>, ReportOptions> callchains)
            throws java.io.IOException {
        try (org.jline.terminal.Terminal t = org.jline.terminal.TerminalBuilder.builder().system(true)
                .name("perfj top").build()) {
            new TopScreen(t, p, new io.perfj.top.TopView(keys), () -> String.join(",", s.eventNames()), refreshMillis,
                    pages(p), callchains).run();
        }
    }

    /**
     * --web: the browser UI over the live profile. Every {@code refreshMillis} the snapshot
     * becomes a new {@link io.perfj.serve.Recording} (its sums as a profile) and {@link io.perfj.serve.Api},
     * which the server answers from then on; the page asks again every second. Runs until
     * the JVM is stopped (Ctrl-C).
     */
    private void web(Session s, LiveProfile p, PrintWriter out, PrintWriter err, long refreshMillis) throws Exception {
        java.util.Map<List<Object>, Integer> seen = new java.util.HashMap<>();
        AtomicReference<io.perfj.serve.Api> current = new AtomicReference<>(webApi(s, p, seen));
        io.perfj.serve.UiServer server = io.perfj.serve.UiServer.start(current::get, "127.0.0.1", port);
        out.println(server.url());
        out.flush();
        if (server.networkWarning() != null) {
            err.println(server.networkWarning());
        }
        err.println("perfj: top --web serving on " + server.url() + " (Ctrl-C stops)");
        err.flush();
        java.util.concurrent.CountDownLatch stopped = new java.util.concurrent.CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }, "perfj-top-web-stop"));
        while (!stopped.await(refreshMillis, java.util.concurrent.TimeUnit.MILLISECONDS)) {
            current.set(webApi(s, p, seen));
        }
    }

    /**
     * The live profile as the browser UI's one recording: each summed stack (with -g its
     * callchain, the sampled frame first; without, the sampled frame alone) one stack of the
     * profile, weighing its period; its functions annotated from the live per-address sums. The
     * stacks go in the order they were first {@code seen} over the snapshots (kept by the
     * caller), so a frame's first stack comes before later ones and its function id stays the
     * same from one snapshot to the next (the page's selection, its annotate call).
     */
    static io.perfj.serve.Api webApi(Session s, LiveProfile p, java.util.Map<List<Object>, Integer> seen) {
        LiveProfile.Snapshot snap = p.snapshot(List.of());
        // a pipe's events are known once samples came
        List<String> names = snap.samples() > 0 ? s.eventNames() : List.of();
        io.perfj.profile.Profile.Stacks sums = new io.perfj.profile.Profile.Stacks(
                List.of(names.isEmpty() ? "samples" : String.join(",", names)), new boolean[] {true});
        record Summed(String comm, List<io.perfj.symbols.Location> stack, long samples, long period, int order) {
        }
        List<Summed> stacks = new ArrayList<>();
        p.forEachStack((comm, stack, samples, period) -> {
            Integer order = seen.computeIfAbsent(java.util.Arrays.asList(comm, stack), k -> seen.size());
            stacks.add(new Summed(comm, stack, samples, period, order));
        });
        stacks.sort(java.util.Comparator.comparingInt(Summed::order));
        for (Summed st : stacks) {
            // a thread named only by its command, at time 0 on no CPU
            sums.add(null, -1, -1, st.comm(), 0, 0, -1, st.stack(), st.samples(), st.period());
        }
        io.perfj.profile.Profile prof = sums.build();
        io.perfj.serve.Api api = new io.perfj.serve.Api(new io.perfj.serve.Recording("perfj top", null, prof,
                SessionOptions.defaults()).live(snap.samples(), (f, o, w, out) -> io.perfj.top.LiveAnnotate.print(p, f, o, w, out)));
        api.warm();
        return api;
    }

    /**
     * The row pages: its annotation from the live per-address sums ({@link io.perfj.top.LiveAnnotate}:
     * perfj annotate --stdio's lines for its symbol); its callchains are the -g view's entries'
     * (TopScreen shows those itself), so this page is for a profile made without -g.
     */
    static TopScreen.Pages pages(LiveProfile p) {
        return new TopScreen.Pages() {
            @Override
            public List<String> annotate(LiveProfile.Row row) {
                return io.perfj.top.LiveAnnotate.page(p, row);
            }

            @Override
            public List<String> callchains(LiveProfile.Row row) {
                return List.of("This live profile keeps no callchains: run perfj top -g (the rows then have their callchain trees).");
            }
        };
    }

    /**
     * What report would show of the same samples with {@code -g} and these keys: the callchain
     * graph (0.5%), --children unless --no-children, caller order with children and callee order
     * without, as report orders them.
     */
    ReportOptions reportOptions(List<SortKey> keys) {
        boolean child = g && (children == null || children);
        return new ReportOptions(keys, false, child, g ? CallchainMode.GRAPH : CallchainMode.NONE,
                children == null || children, 0.5, 0, io.perfj.session.Session.DEFAULT_MAX_STACK, null, null, null,
                null, null, null);
    }

    /** With -g: the summary line and rule, then report's stdio layout of the live profile (rows and callchain trees). */
    static void printReport(PrintWriter w, LiveProfile p, Session s, ReportOptions o, Recorder.Summary summary) {
        LiveProfile.Snapshot snap = p.snapshot(o.sortKeys());
        header(w, snap, summary);
        List<String> names = snap.samples() > 0 ? s.eventNames() : List.of();
        new io.perfj.report.StdioReport(p.report(o, names.isEmpty() ? "samples" : String.join(",", names)), w).print(false);
    }

    /** perf top --stdio's summary line and rule. */
    private static void header(PrintWriter w, LiveProfile.Snapshot snap, Recorder.Summary summary) {
        w.printf(Locale.ROOT, "   PerfTop: %d samples, lost: %d%n", snap.samples(), summary == null ? snap.lost() : summary.lost());
        w.println("-".repeat(79));
        w.println();
    }

    /** perf top --stdio's layout: a summary line, a rule, then {@code  OVERHEAD  [COMMAND]  SHARED-OBJECT  [.] SYMBOL}. */
    static void print(PrintWriter w, LiveProfile.Snapshot snap, List<SortKey> keys, Recorder.Summary summary) {
        header(w, snap, summary);
        for (String line : io.perfj.top.TopView.rowLines(snap, snap.rows(), keys, false)) {
            w.println(line);
        }
    }
}
