package io.perfj.cli;

import io.perfj.profile.Profile;
import io.perfj.serve.Api;
import io.perfj.serve.Recording;
import io.perfj.serve.UiServer;
import picocli.CommandLine.Model.CommandSpec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Callable;

/**
 * {@code perfj serve}: reads the recording(s) once, then serves the browser UI on the loopback
 * address (or {@code --bind}'s, with a warning on standard error when that is not loopback) until
 * interrupted; the first line of standard output is the page's address with its token.
 */
public final class ServeCommand implements Callable<Integer> {
    final ProfileCliOptions profile = new ProfileCliOptions();
    int port;
    String bind = "127.0.0.1";
    boolean exitAfterStart;
    Path xlatedFile;
    Path fleet;
    final CommandSpec spec;

    ServeCommand() {
        CommandModel m = CommandModel.command(this, "serve",
                "Serve the profile to a browser on this machine (flame graph, call tree, top",
                "functions, timeline, annotate; with -i BEFORE -i AFTER also the diff view).",
                "Prints the page's address with its random token; serves until interrupted.");
        profile.declare(m, "compare the two recordings in the diff view.",
                "The event shown first (default: the first one sampled).");
        m.option("--port").label("N").defaultValue("0").describe("Port to listen on (default: a free one).")
                .value(int.class, v -> port = v);
        m.option("--bind").label("ADDR").defaultValue("127.0.0.1")
                .describe("Address to listen on (default ${DEFAULT-VALUE}: this machine only).")
                .value(String.class, v -> bind = v);
        m.option("--xlated-file").label("FILE")
                .describe("A BPF program's translated instructions from 'bpftool prog dump xlated id N file FILE' for annotate's bytecode view (perf does not record them).")
                .value(Path.class, v -> xlatedFile = v);
        m.option("--fleet").label("DIR")
                .describe("Serve every recording under DIR (DIR/HOST/*.data) summed on Apache Spark: the same as "
                        + "'perfj fleet serve DIR', which the perfj launcher runs for it.")
                .value(Path.class, v -> fleet = v);
        m.option("--exit-after-start").hidden().describe("Start, answer the first page's calls, and exit (for AOT training).")
                .flag(v -> exitAfterStart = v);
        spec = m.spec();
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (fleet != null) {
            // only the launcher's rewrite reaches Spark (perfj fleet serve); perfj.jar has no fleet
            throw new CliError("serve --fleet: run 'perfj fleet serve " + fleet + "' (a fleet is read on Apache Spark, "
                    + "which perfj.jar does not hold; the perfj launcher does this for serve --fleet)");
        }
        List<Path> inputs = profile.in.inputs;
        if (inputs.size() > 2) {
            throw new CliError("serve takes one recording, or two to compare (-i BEFORE -i AFTER)");
        }
        byte[] xlated = xlatedFile == null ? null : java.nio.file.Files.readAllBytes(xlatedFile);
        Recording[] recs = new Recording[inputs.size()];
        for (int k = 0; k < recs.length; k++) {
            Path file = inputs.get(k);
            if (file.toString().equals("-")) {
                throw new CliError("serve reads files (annotate opens them again), not standard input");
            }
            long t0 = System.nanoTime();
            err.println("perfj: reading " + file + " ...");
            err.flush();
            Profile p = profile.read(file, err);
            err.println(String.format(Locale.ROOT, "perfj: %s: %d samples, %d distinct stacks, %d threads (%.1f s)",
                    file, p.sampleCount(), p.stacks().size(), p.threadCount(), (System.nanoTime() - t0) / 1e9));
            profile.warnIfDamaged(err);
            err.flush();
            // --event picks the first recording's event; the diff finds it in the second by name
            int event = k == 0 && profile.event != null ? ProfileCliOptions.event(p, file, profile.event) : -1;
            recs[k] = new Recording(file.toString(), file, p, profile.sym.sessionOptions(), event, xlated);
        }
        return serve(new Api(recs), bind, port, exitAfterStart, out, err);
    }

    /**
     * Aggregates the first views, starts the server, prints its address (the first line of
     * standard output) and serves until interrupted (or, {@code exitAfterStart}, stops at once):
     * {@code perfj serve}'s, and {@code perfj fleet serve}'s over a fleet's profile.
     */
    public static int serve(Api api, String bind, int port, boolean exitAfterStart, PrintWriter out, PrintWriter err)
            throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        api.warm();
        err.println(String.format(Locale.ROOT, "perfj: first views aggregated (%.1f s)", (System.nanoTime() - t0) / 1e9));
        UiServer server = UiServer.start(api, bind, port);
        out.println(server.url());
        out.flush();
        if (server.networkWarning() != null) {
            err.println(server.networkWarning());
            err.flush();
        }
        if (exitAfterStart) {
            server.close();
            return 0;
        }
        err.println("perfj: serving on " + server.url() + " (Ctrl-C stops)");
        err.flush();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }, "perfj-serve-stop"));
        stopped.await();
        return 0;
    }
}
