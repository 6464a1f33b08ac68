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
                "Draw a flame graph of one event as an SVG file that zooms and searches by itself (no network);",
                "of two recordings (-i BEFORE -i AFTER), the second one coloured by the change from the first.");
        in.declareTwo(m, "draw that recording coloured by its change from the first (red: grew, blue: shrank).");
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
        if (in.inputs.size() > 2) {
            throw new CliError("flamegraph takes one recording, or two to compare (-i BEFORE -i AFTER)");
        }
        Profile first = read(in.inputs.getFirst(), err);
        int ev = event(first, in.inputs.getFirst(), event);
        String name = first.events().get(ev);
        FlameTree tree;
        String title;
        if (in.inputs.size() == 2) {
            Profile second = read(in.inputs.get(1), err);
            // the same event in the second recording, whatever modifiers it was recorded with
            int ev2 = event(second, in.inputs.get(1), name.contains(":") ? name.substring(0, name.indexOf(':')) : name);
            tree = FlameTree.diff(first, i -> first.event(i) == ev, second, i -> second.event(i) == ev2, true);
            title = "Differential flame graph: " + in.inputs.get(0) + " -> " + in.inputs.get(1) + " (" + name + ")";
        } else {
            tree = FlameTree.of(first, i -> first.event(i) == ev, true);
            title = "Flame graph: " + in.inputs.getFirst() + " (" + name + ")";
        }
        String unit = Profile.inNanoseconds(name) ? "ns" : first.hasPeriod(ev) ? "events" : "samples";
        try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(output), 1 << 16)) {
            new FlameGraphSvg(tree, title, unit).write(o);
        }
        for (int i = 0; i < first.sampleCount(); i++) {
            if (first.event(i) != ev) {
                err.println("perfj: drew the samples of " + name + " only; --event picks another ("
                        + String.join(", ", first.events()) + ")");
                break;
            }
        }
        out.flush();
        err.flush();
        return 0;
    }

    private Profile read(Path file, PrintWriter err) {
        try (PerfData data = PerfData.open(file)) {
            Session session = sym.session(data);
            Profile p = Profile.read(session, maxStack, filters.filter(data));
            for (String w : session.warnings()) {
                err.println(w);
            }
            return p;
        }
    }

    /** The event to draw: the one named (with or without modifiers), else the first one sampled. */
    private static int event(Profile p, Path file, String event) {
        for (int i = 0; i < p.sampleCount(); i++) {
            String name = p.events().get(p.event(i));
            if (event == null || name.equals(event) || name.startsWith(event + ":")) {
                return p.event(i);
            }
        }
        throw new CliError(file + ": no samples" + (event == null ? "" : " of event '" + event
                + "' (the recording has: " + String.join(", ", p.events()) + ")"));
    }
}
