package io.perfj.cli;

import io.perfj.export.FoldedStacks;
import io.perfj.export.PprofExport;
import io.perfj.export.SpeedscopeExport;
import io.perfj.perfdata.PerfData;
import io.perfj.profile.Profile;
import io.perfj.session.Session;
import picocli.CommandLine.Model.CommandSpec;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code perfj export}: the recording's profile in another viewer's format. */
public final class ExportCommand implements Callable<Integer> {
    /** The formats, by the name --format takes. */
    enum Format {
        FOLDED, PPROF, SPEEDSCOPE
    }

    final InputOptions in = new InputOptions();
    final SymbolCliOptions sym = new SymbolCliOptions();
    final FilterCliOptions filters = new FilterCliOptions();
    Format format;
    Path output;
    String event;
    int maxStack;
    final CommandSpec spec;

    ExportCommand() {
        CommandModel m = CommandModel.command(this, "export",
                "Write the profile for another viewer: folded stacks (FlameGraph's flamegraph.pl, as "
                        + "'perf script | stackcollapse-perf.pl' folds them), pprof (gzipped profile.proto) "
                        + "or speedscope (JSON).");
        in.declare(m);
        sym.declare(m);
        filters.declare(m);
        m.option("--format").label("FORMAT").required().describe("folded, pprof or speedscope.")
                .converter(v -> {
                    try {
                        return Format.valueOf(v.toUpperCase(Locale.ROOT));
                    } catch (IllegalArgumentException e) {
                        throw new picocli.CommandLine.TypeConversionException(
                                "'" + v + "' is not a format (folded, pprof, speedscope)");
                    }
                })
                .value(Format.class, v -> format = v);
        m.option("-o", "--output").label("FILE").describe("Write to FILE (default: standard output).")
                .value(Path.class, v -> output = v);
        m.option("--event").label("NAME")
                .describe("folded: the event to fold (default: the first one sampled); the others export every event.")
                .value(String.class, v -> event = v);
        m.option("--max-stack").label("N").defaultValue("127").describe("Use at most N callchain frames.")
                .value(int.class, v -> maxStack = v);
        spec = m.spec();
    }

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try (PerfData data = PerfData.open(in.input)) {
            Session session = sym.session(data);
            Profile profile = Profile.read(session, maxStack, filters.filter(data));
            out.flush();
            OutputStream sink = output == null ? Main.stdout(spec)
                    : new BufferedOutputStream(Files.newOutputStream(output), 1 << 16);
            try {
                switch (format) {
                    case FOLDED -> {
                        FoldedStacks f = new FoldedStacks(profile, event);
                        f.write(sink);
                        if (f.event() == null && event != null) {
                            err.println("perfj: no samples of event '" + event + "' (the recording has: "
                                    + String.join(", ", profile.events()) + ")");
                        } else if (f.otherEvents()) {
                            err.println("perfj: folded the samples of " + f.event()
                                    + " only; --event picks another (" + String.join(", ", profile.events()) + ")");
                        }
                    }
                    case PPROF -> new PprofExport(profile).write(sink);
                    case SPEEDSCOPE -> new SpeedscopeExport(profile, data.name(), "perfj").write(sink);
                }
            } finally {
                if (output != null) {
                    sink.close();
                } else {
                    sink.flush();
                }
            }
            InputOptions.warn(out, err, session.warnings());
        }
        return 0;
    }
}
