package io.perfj.cli;

import io.perfj.export.FirefoxExport;
import io.perfj.export.FoldedStacks;
import io.perfj.export.PprofExport;
import io.perfj.export.SessionSources;
import io.perfj.export.SpeedscopeExport;
import io.perfj.profile.Profile;
import io.perfj.profile.SourcePositions;
import picocli.CommandLine.Model.CommandSpec;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

/** {@code perfj export}: the recording's profile in another viewer's format. */
public final class ExportCommand implements Callable<Integer> {
    /** The formats, by the name --format takes. */
    enum Format {
        FOLDED, PPROF, SPEEDSCOPE, FIREFOX
    }

    final ProfileCliOptions profile = new ProfileCliOptions();
    Format format;
    Path output;
    final CommandSpec spec;

    ExportCommand() {
        CommandModel m = CommandModel.command(this, "export",
                "Write the profile for another viewer: folded stacks (FlameGraph's flamegraph.pl, as "
                        + "'perf script | stackcollapse-perf.pl' folds them), pprof (gzipped profile.proto), "
                        + "speedscope (JSON) or firefox (the Firefox Profiler's JSON).");
        profile.declare(m, null,
                "folded: the event to fold (default: the first one sampled); the others export every event.");
        m.option("--format").label("FORMAT").required().describe("folded, pprof, speedscope or firefox.")
                .converter(v -> {
                    try {
                        return Format.valueOf(v.toUpperCase(Locale.ROOT));
                    } catch (IllegalArgumentException e) {
                        throw new picocli.CommandLine.TypeConversionException(
                                "'" + v + "' is not a format (folded, pprof, speedscope, firefox)");
                    }
                })
                .value(Format.class, v -> format = v);
        m.option("-o", "--output").label("FILE").describe("Write to FILE (default: standard output); firefox: gzipped when FILE ends in .gz.")
                .value(Path.class, v -> output = v);
        spec = m.spec();
    }

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (format == Format.PPROF || format == Format.FIREFOX) {
            // source lines are read from the objects the session found, so before it closes
            profile.read(profile.in.input, err, (p, session) -> {
                out.flush();
                write(p, new SourcePositions(p, SessionSources.of(session)), err);
            });
            return 0;
        }
        Profile p = profile.read(profile.in.input, err);
        out.flush();
        write(p, null, err);
        return 0;
    }

    /** Writes the profile in the format asked, with the source lines of {@code lines} (pprof, firefox). */
    private void write(Profile p, SourcePositions lines, PrintWriter err) throws IOException {
        String event = profile.event;
        OutputStream sink = output == null ? Main.stdout(spec)
                : new BufferedOutputStream(Files.newOutputStream(output), 1 << 16);
        try {
            switch (format) {
                case FOLDED -> {
                    FoldedStacks f = new FoldedStacks(p, event);
                    f.write(sink);
                    if (f.event() == null && event != null) {
                        err.println("perfj: no samples of event '" + event + "' (the recording has: "
                                + String.join(", ", p.events()) + ")");
                    } else if (f.otherEvents()) {
                        err.println("perfj: folded the samples of " + f.event()
                                + " only; --event picks another (" + String.join(", ", p.events()) + ")");
                    }
                }
                case PPROF -> new PprofExport(p, lines, (long) (FirefoxExport.startTime(p, endMillis()) * 1e6)).write(sink);
                case SPEEDSCOPE -> new SpeedscopeExport(p, profile.in.input.toString(), "perfj").write(sink);
                case FIREFOX -> firefox(p, lines, sink);
            }
        } finally {
            if (output != null) {
                sink.close();
            } else {
                sink.flush();
            }
        }
        err.flush();
        profile.failIfDamaged();
    }

    /** When the recording ended: its file's modification time (0: unknown, or standard input). */
    private long endMillis() throws IOException {
        Path in = profile.in.input;
        return in.toString().equals("-") || !Files.isRegularFile(in) ? 0 : Files.getLastModifiedTime(in).toMillis();
    }

    /** Gzipped when the output is named {@code *.gz}, as the profiler opens either. */
    private void firefox(Profile p, SourcePositions lines, OutputStream sink) throws IOException {
        FirefoxExport export = new FirefoxExport(p, FirefoxExport.startTime(p, endMillis()), lines);
        if (output != null && output.getFileName().toString().endsWith(".gz")) {
            // the fastest level: deflating costs little next to the export (782k samples: 6.7 MB, not 5.7)
            GZIPOutputStream gz = new GZIPOutputStream(sink, 1 << 16) {
                {
                    def.setLevel(Deflater.BEST_SPEED);
                }
            };
            export.write(gz);
            gz.finish();
        } else {
            export.write(sink);
        }
    }
}
