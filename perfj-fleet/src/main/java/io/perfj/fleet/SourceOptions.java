package io.perfj.fleet;

import io.perfj.session.SessionOptions;
import io.perfj.symbols.SymbolOptions;

import java.io.Serializable;
import java.nio.file.Path;
import java.util.Map;

/**
 * The symbol sources of a fleet read, as the data source's options (strings, so that they travel
 * to executors): perf's option names without the dashes ({@code buildid-dir}, {@code symfs},
 * {@code kallsyms}, {@code perf-map-dir}, {@code no-system-files}).
 */
record SourceOptions(String symfs, String buildIdDir, String kallsyms, String perfMapDir, boolean noSystem)
        implements Serializable {

    static SourceOptions of(Map<String, String> o) {
        return new SourceOptions(o.get("symfs"), o.get("buildid-dir"), o.get("kallsyms"),
                o.getOrDefault("perf-map-dir", "/tmp"), Boolean.parseBoolean(o.getOrDefault("no-system-files", "false")));
    }

    /** The session options of one recording: its own build-id cache when one is beside it. */
    SessionOptions session(Path file) {
        Path shared = buildIdDir == null ? null : Path.of(buildIdDir);
        return SessionOptions.of(SymbolOptions.builder().symfs(path(symfs)).buildIdDir(Recordings.buildIdDir(file, shared))
                .kallsyms(path(kallsyms)).perfMapDir(Path.of(perfMapDir)).systemFiles(!noSystem).build());
    }

    private static Path path(String s) {
        return s == null ? null : Path.of(s);
    }
}
