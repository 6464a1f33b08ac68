package io.perfj.symbols;

import java.nio.file.Path;

/**
 * Where symbols may be found, with perf's option names.
 *
 * @param symfs       --symfs: a root prefixed to every recorded path, or null
 * @param buildIdDir  --buildid-dir: a build-id cache in perf's ~/.debug layout (what perf archive
 *                    packs), or null for ~/.debug
 * @param kallsyms    --kallsyms: a kallsyms file to use for the kernel, or null
 * @param perfMapDir  --perf-map-dir: where perf-PID.map files are (default /tmp)
 * @param useSystem   whether files on this machine (recorded paths, /proc/kallsyms,
 *                    /usr/lib/debug) may be consulted; tests turn it off for reproducibility
 */
public record SymbolOptions(Path symfs, Path buildIdDir, Path kallsyms, Path perfMapDir, boolean useSystem) {
    public static SymbolOptions defaults() {
        return new SymbolOptions(null, null, null, Path.of("/tmp"), true);
    }
}
