package io.perfj.cli;

import io.perfj.session.Compat;
import io.perfj.session.Session;
import io.perfj.session.SessionOptions;

import io.perfj.symbols.SymbolOptions;

import java.nio.file.Path;

/** Where to find symbols, with perf's option names. */
public final class SymbolCliOptions {
    Path symfs;
    Path buildIdDir;
    Path kallsyms;
    Path perfMapDir = Path.of("/tmp");
    Path jitdumpDir;
    boolean noSystem;
    Compat compat = Compat.NONE;

    /** Adds these options to a command's model. */
    /** The --compat mode asked for. */
    public Compat compat() {
        return compat;
    }

    public void declare(CommandModel m) {
        m.option("--symfs").label("DIR").describe("Look for binaries under DIR (a root prefixed to recorded paths).")
                .value(Path.class, v -> symfs = v);
        m.option("--buildid-dir").label("DIR")
                .describe("Build-id cache in perf's ~/.debug layout, e.g. an unpacked 'perf archive' (default ~/.debug).")
                .value(Path.class, v -> buildIdDir = v);
        m.option("-k", "--kallsyms").label("FILE").describe("kallsyms file for kernel symbols.")
                .value(Path.class, v -> kallsyms = v);
        m.option("--perf-map-dir").label("DIR").defaultValue("/tmp")
                .describe("Where perf-PID.map files for JIT code are (default ${DEFAULT-VALUE}).")
                .value(Path.class, v -> perfMapDir = v);
        m.option("--jitdump-dir").label("DIR")
                .describe("Where the jit-PID.dump files of JIT runtimes are (default: the paths the recording names; none with --no-system-files).")
                .value(Path.class, v -> jitdumpDir = v);
        m.option("--no-system-files")
                .describe("Use only --symfs/--buildid-dir/--kallsyms/--perf-map-dir, not this machine's files.")
                .flag(v -> noSystem = v);
        m.option("--compat").label("MODE").defaultValue("none").converter(new CompatConverter())
                .describe("'perf-6.1' gives what perf 6.1 prints where perf is known to be wrong (its "
                        + "libunwind-based --call-graph dwarf stacks, annotate's deleted call-target names), "
                        + "for comparing the two line for line; 'none' (default) gives the correct answers.")
                .value(Compat.class, v -> compat = v);
    }

    /** picocli's converter for {@code --compat}. */
    static final class CompatConverter implements picocli.CommandLine.ITypeConverter<Compat> {
        @Override
        public Compat convert(String value) {
            try {
                return Compat.parse(value);
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    /** The session options these flags describe. */
    SessionOptions sessionOptions() {
        return new SessionOptions(toOptions(), io.perfj.compat.Perf61Quirks.of(compat));
    }

    /** A session over a recording the caller opened (and closes). */
    Session session(io.perfj.perfdata.PerfData data) {
        return Session.of(data, sessionOptions());
    }

    /** The same for a command given {@code -v} or not, which decides how C++ names are printed. */
    Session session(io.perfj.perfdata.PerfData data, boolean verbose) {
        return Session.of(data, sessionOptions().withNames(compat.demangling(verbose)));
    }

    public SymbolOptions toOptions() {
        return SymbolOptions.builder().symfs(symfs).buildIdDir(buildIdDir).kallsyms(kallsyms).perfMapDir(perfMapDir)
                .systemFiles(!noSystem).jitdumpDir(jitdumpDir).build();
    }
}
