package io.perfj.cli;

import io.perfj.session.Compat;
import io.perfj.session.Session;
import io.perfj.session.SessionOptions;

import io.perfj.symbols.SymbolOptions;
import picocli.CommandLine.Option;

import java.nio.file.Path;

/** Where to find symbols, with perf's option names. */
public final class SymbolCliOptions {
    @Option(names = "--symfs", paramLabel = "DIR", description = "Look for binaries under DIR (a root prefixed to recorded paths).")
    Path symfs;

    @Option(names = "--buildid-dir", paramLabel = "DIR",
            description = "Build-id cache in perf's ~/.debug layout, e.g. an unpacked 'perf archive' (default ~/.debug).")
    Path buildIdDir;

    @Option(names = {"-k", "--kallsyms"}, paramLabel = "FILE", description = "kallsyms file for kernel symbols.")
    Path kallsyms;

    @Option(names = "--perf-map-dir", paramLabel = "DIR", defaultValue = "/tmp",
            description = "Where perf-PID.map files for JIT code are (default ${DEFAULT-VALUE}).")
    Path perfMapDir = Path.of("/tmp");

    @Option(names = "--no-system-files",
            description = "Use only --symfs/--buildid-dir/--kallsyms/--perf-map-dir, not this machine's files.")
    boolean noSystem;

    @Option(names = "--compat", paramLabel = "MODE", defaultValue = "none", converter = CompatConverter.class,
            description = "'perf-6.1' gives what perf 6.1 prints where perf is known to be wrong (its "
                    + "libunwind-based --call-graph dwarf stacks, annotate's deleted call-target names), "
                    + "for comparing the two line for line; 'none' (default) gives the correct answers.")
    Compat compat = Compat.NONE;

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
        return new SessionOptions(toOptions(), compat);
    }

    /** A session over a recording the caller opened (and closes). */
    Session session(io.perfj.perfdata.PerfData data) {
        return Session.of(data, sessionOptions());
    }

    SymbolOptions toOptions() {
        return new SymbolOptions(symfs, buildIdDir, kallsyms, perfMapDir, !noSystem);
    }
}
