package io.perfj.cli;

import io.perfj.export.FlameGraphSvg;
import io.perfj.profile.FlameTree;
import io.perfj.profile.Profile;
import io.perfj.serve.FlameHtml;
import io.perfj.serve.Recording;
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
    final ProfileCliOptions profile = new ProfileCliOptions();
    Path output;
    final CommandSpec spec;

    FlamegraphCommand() {
        CommandModel m = CommandModel.command(this, "flamegraph",
                "Draw a flame graph of one event as an SVG file that zooms and searches by itself (no network);",
                "of two recordings (-i BEFORE -i AFTER), the second one coloured by the change from the first.",
                "-o OUT.html writes it as a web page drawn by perfj serve's renderer instead.");
        profile.declare(m, "draw that recording coloured by its change from the first (red: grew, blue: shrank).",
                "The event to draw (default: the first one sampled).");
        m.option("-o", "--output").label("OUT").describe("The file to write, *.svg or *.html (default: SVG on standard output).")
                .value(Path.class, v -> output = v);
        spec = m.spec();
    }

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        String file = output == null ? ".svg" : output.getFileName() == null ? "" : output.getFileName().toString();
        boolean html = file.endsWith(".html") || file.endsWith(".htm");
        if (!file.endsWith(".svg") && !html) {
            throw new CliError(output + ": the output's name says its format: *.svg or *.html");
        }
        if (profile.in.inputs.size() > 2) {
            throw new CliError("flamegraph takes one recording, or two to compare (-i BEFORE -i AFTER)");
        }
        Profile first = profile.read(profile.in.inputs.getFirst(), err);
        if (first.firstSampled(null) < 0) {
            profile.failIfDamaged(); // nothing read before the damage: the damage is the error
        }
        int ev = ProfileCliOptions.event(first, profile.in.inputs.getFirst(), profile.event);
        String name = first.events().get(ev);
        FlameTree tree;
        String title;
        Recording sources = null;
        if (profile.in.inputs.size() == 2) {
            Profile second = profile.read(profile.in.inputs.get(1), err);
            // the same event in the second recording, whatever modifiers it was recorded with
            int ev2 = ProfileCliOptions.event(second, profile.in.inputs.get(1), name.contains(":") ? name.substring(0, name.indexOf(':')) : name);
            tree = FlameTree.diff(first, i -> first.event(i) == ev, second, i -> second.event(i) == ev2, true);
            title = "Differential flame graph: " + profile.in.inputs.get(0) + " -> " + profile.in.inputs.get(1) + " (" + name + ")";
        } else {
            tree = FlameTree.of(first, i -> first.event(i) == ev, true);
            // the page's hover names source lines of the functions drawn (looked up for those only)
            Path in = profile.in.inputs.getFirst();
            sources = html && !in.toString().equals("-")
                    ? new Recording(in.toString(), in, first, profile.sym.sessionOptions()) : null;
            title = "Flame graph: " + profile.in.inputs.getFirst() + " (" + name + ")";
        }
        String unit = Profile.inNanoseconds(name) ? "ns" : first.hasPeriod(ev) ? "events" : "samples";
        out.flush();
        if (output == null) {
            OutputStream o = Main.stdout(spec);
            new FlameGraphSvg(tree, title, unit).write(o);
            o.flush();
        } else {
            try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(output), 1 << 16)) {
                if (html) {
                    new FlameHtml(tree, title, unit, sources).write(o);
                } else {
                    new FlameGraphSvg(tree, title, unit).write(o);
                }
            }
        }
        if (first.hasOtherEvents(ev)) {
            err.println("perfj: drew the samples of " + name + " only; --event picks another ("
                    + String.join(", ", first.events()) + ")");
        }
        out.flush();
        err.flush();
        profile.failIfDamaged();
        return 0;
    }
}
