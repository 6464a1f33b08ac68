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
 * @param jitdumpDir  --jitdump-dir: where the jit-PID.dump files a recording's processes mapped
 *                    are, or null for their recorded paths (under --symfs when it is given; not
 *                    at all without system files)
 */
public record SymbolOptions(Path symfs, Path buildIdDir, Path kallsyms, Path perfMapDir, boolean useSystem,
                            Path jitdumpDir) {
    /** Without a jitdump directory: jitdumps are read from their recorded paths. */
    public SymbolOptions(Path symfs, Path buildIdDir, Path kallsyms, Path perfMapDir, boolean useSystem) {
        this(symfs, buildIdDir, kallsyms, perfMapDir, useSystem, null);
    }

    /** These options with jitdump files looked for in {@code dir} (null: at their recorded paths). */
    public SymbolOptions withJitdumpDir(Path dir) {
        return new SymbolOptions(symfs, buildIdDir, kallsyms, perfMapDir, useSystem, dir);
    }

    /**
     * The file to read for a jitdump a process mapped as {@code recorded}, or null when none may
     * be read: {@code jitdumpDir}/its name, else the recorded path (under {@code symfs}), which
     * is a file of this machine.
     */
    public Path jitdumpFile(String recorded) {
        String base = recorded.substring(recorded.lastIndexOf('/') + 1);
        if (jitdumpDir != null) {
            return jitdumpDir.resolve(base);
        }
        if (symfs != null) {
            return symfs.resolve(recorded.startsWith("/") ? recorded.substring(1) : recorded);
        }
        return useSystem ? Path.of(recorded) : null;
    }
    public static SymbolOptions defaults() {
        return new SymbolOptions(null, null, null, Path.of("/tmp"), true);
    }
}
