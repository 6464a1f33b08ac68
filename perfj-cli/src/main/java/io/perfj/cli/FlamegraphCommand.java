package io.perfj.cli;

import io.perfj.export.FlameGraphSvg;
import io.perfj.perfdata.PerfData;
import io.perfj.profile.FlameTree;
import io.perfj.profile.Profile;
import io.perfj.session.Session;
import picocli.CommandLine.Model.CommandSpec;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code perfj flamegraph}: a flame graph of one event as a self-contained SVG file. */
public final class FlamegraphCommand implements Callable<Integer> {
    final InputOptions in = new InputOptions();
    final SymbolCliOptions sym = new SymbolCliOptions();
    final FilterCliOptions filters = new FilterCliOptions();
    Path output;
    String event;
    int maxStack;
    final CommandSpec spec;

    FlamegraphCommand() {
        CommandModel m = CommandModel.command(this, "flamegraph",
                "Draw a flame graph of one event as an SVG file that zooms and searches by itself (no network).");
        in.declare(m);
        sym.declare(m);
        filters.declare(m);
        m.option("-o", "--output").label("OUT.svg").required().describe("The SVG file to write.")
                .value(Path.class, v -> output = v);
        m.option("--event").label("NAME").describe("The event to draw (default: the first one sampled).")
                .value(String.class, v -> event = v);
        m.option("--max-stack").label("N").defaultValue("127").describe("Use at most N callchain frames.")
                .value(int.class, v -> maxStack = v);
        spec = m.spec();
    }

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        String file = output.getFileName() == null ? "" : output.getFileName().toString();
        if (!file.endsWith(".svg")) {
            throw new CliError(output + ": only SVG output is written yet (name the file *.svg)");
        }
        try (PerfData data = PerfData.open(in.input)) {
            Session session = sym.session(data);
            Profile profile = Profile.read(session, maxStack, filters.filter(data));
            int chosen = -1;
            for (int i = 0; i < profile.sampleCount() && chosen < 0; i++) {
                String name = profile.events().get(profile.event(i));
                if (event == null || name.equals(event) || name.startsWith(event + ":")) {
                    chosen = profile.event(i);
                }
            }
            if (chosen < 0) {
                throw new CliError(data.name() + ": no samples" + (event == null ? "" : " of event '" + event
                        + "' (the recording has: " + String.join(", ", profile.events()) + ")"));
            }
            int ev = chosen;
            String name = profile.events().get(ev);
            FlameTree tree = FlameTree.of(profile, i -> profile.event(i) == ev, true);
            String unit = Profile.inNanoseconds(name) ? "ns" : profile.hasPeriod(ev) ? "events" : "samples";
            try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(output), 1 << 16)) {
                new FlameGraphSvg(tree, "Flame graph: " + data.name() + " (" + name + ")", unit).write(o);
            }
            for (int i = 0; i < profile.sampleCount(); i++) {
                if (profile.event(i) != ev) {
                    err.println("perfj: drew the samples of " + name + " only; --event picks another ("
                            + String.join(", ", profile.events()) + ")");
                    break;
                }
            }
            InputOptions.warn(out, err, session.warnings());
        }
        return 0;
    }
}
