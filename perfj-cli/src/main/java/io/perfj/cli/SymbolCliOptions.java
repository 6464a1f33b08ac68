package io.perfj.cli;

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

    /** How {@code --call-graph dwarf} stacks are unwound. */
    enum Unwind { perf, cfi }

    @Option(names = "--dwarf-unwind", paramLabel = "MODE", defaultValue = "perf",
            description = "How --call-graph dwarf stacks are unwound: 'perf' (default) gives the frames perf 6.1 "
                    + "with libunwind prints, also where its unwinding goes wrong; 'cfi' follows the call frame "
                    + "information alone.")
    Unwind unwind = Unwind.perf;

    /** A resolver for these options. */
    io.perfj.report.MachineResolver resolver(io.perfj.perfdata.PerfData data) {
        return new io.perfj.report.MachineResolver(data, toOptions()).perfCompatibleUnwind(unwind == Unwind.perf);
    }

    SymbolOptions toOptions() {
        return new SymbolOptions(symfs, buildIdDir, kallsyms, perfMapDir, !noSystem);
    }
}
