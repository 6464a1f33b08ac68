package io.perfj.symbols;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Where symbols may be found, with perf's option names; made by a {@link Builder}:
 *
 * <pre>{@code
 * SymbolOptions opts = SymbolOptions.builder()
 *         .symfs(Path.of("/srv/target-root"))   // --symfs
 *         .buildIdDir(Path.of("archive/.debug")) // --buildid-dir
 *         .noSystemFiles()                       // --no-system-files
 *         .build();
 * }</pre>
 */
public final class SymbolOptions {
    private final Path symfs;
    private final Path buildIdDir;
    private final Path kallsyms;
    private final Path perfMapDir;
    private final boolean useSystem;
    private final Path jitdumpDir;

    private SymbolOptions(Builder b) {
        this.symfs = b.symfs;
        this.buildIdDir = b.buildIdDir;
        this.kallsyms = b.kallsyms;
        this.perfMapDir = b.perfMapDir;
        this.useSystem = b.useSystem;
        this.jitdumpDir = b.jitdumpDir;
    }

    /** Options as perf's defaults have them: no --symfs, ~/.debug, this machine's files, /tmp's perf maps. */
    public static Builder builder() {
        return new Builder();
    }

    /** perf's defaults ({@link #builder()} unchanged). */
    public static SymbolOptions defaults() {
        return builder().build();
    }

    /** A builder starting from these options. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.symfs = symfs;
        b.buildIdDir = buildIdDir;
        b.kallsyms = kallsyms;
        b.perfMapDir = perfMapDir;
        b.useSystem = useSystem;
        b.jitdumpDir = jitdumpDir;
        return b;
    }

    /** --symfs: a root prefixed to every recorded path, or null. */
    public Path symfs() {
        return symfs;
    }

    /** --buildid-dir: a build-id cache in perf's ~/.debug layout (what perf archive packs), or null for ~/.debug. */
    public Path buildIdDir() {
        return buildIdDir;
    }

    /** --kallsyms: a kallsyms file to use for the kernel, or null. */
    public Path kallsyms() {
        return kallsyms;
    }

    /** --perf-map-dir: where perf-PID.map files are (default /tmp; null: none are read). */
    public Path perfMapDir() {
        return perfMapDir;
    }

    /**
     * Whether files on this machine (recorded paths, /proc/kallsyms, /usr/lib/debug) may be
     * consulted (not with --no-system-files; tests turn it off for reproducibility).
     */
    public boolean useSystem() {
        return useSystem;
    }

    /**
     * --jitdump-dir: where the jit-PID.dump files a recording's processes mapped are, or null for
     * their recorded paths (under --symfs when it is given; not at all without system files).
     */
    public Path jitdumpDir() {
        return jitdumpDir;
    }

    /** These options with jitdump files looked for in {@code dir} (null: at their recorded paths). */
    public SymbolOptions withJitdumpDir(Path dir) {
        return toBuilder().jitdumpDir(dir).build();
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

    @Override
    public boolean equals(Object o) {
        return o instanceof SymbolOptions s && useSystem == s.useSystem && Objects.equals(symfs, s.symfs)
                && Objects.equals(buildIdDir, s.buildIdDir) && Objects.equals(kallsyms, s.kallsyms)
                && Objects.equals(perfMapDir, s.perfMapDir) && Objects.equals(jitdumpDir, s.jitdumpDir);
    }

    @Override
    public int hashCode() {
        return Objects.hash(symfs, buildIdDir, kallsyms, perfMapDir, useSystem, jitdumpDir);
    }

    @Override
    public String toString() {
        return "SymbolOptions[symfs=" + symfs + ", buildIdDir=" + buildIdDir + ", kallsyms=" + kallsyms
                + ", perfMapDir=" + perfMapDir + ", useSystem=" + useSystem + ", jitdumpDir=" + jitdumpDir + "]";
    }

    /** Symbol options, named as perf's command-line options are. */
    public static final class Builder {
        private Path symfs;
        private Path buildIdDir;
        private Path kallsyms;
        private Path perfMapDir = Path.of("/tmp");
        private boolean useSystem = true;
        private Path jitdumpDir;

        private Builder() {
        }

        /** --symfs: a root prefixed to every recorded path (null: none). */
        public Builder symfs(Path dir) {
            this.symfs = dir;
            return this;
        }

        /** --buildid-dir: a build-id cache in perf's ~/.debug layout (null: ~/.debug). */
        public Builder buildIdDir(Path dir) {
            this.buildIdDir = dir;
            return this;
        }

        /** --kallsyms: the kernel's symbols from this file (null: the running kernel's, or none). */
        public Builder kallsyms(Path file) {
            this.kallsyms = file;
            return this;
        }

        /** --perf-map-dir: where perf-PID.map files are (default /tmp; null: none are read). */
        public Builder perfMapDir(Path dir) {
            this.perfMapDir = dir;
            return this;
        }

        /** --no-system-files: no file of this machine is read but those named here. */
        public Builder noSystemFiles() {
            return systemFiles(false);
        }

        /** Whether files of this machine may be read (true unless {@link #noSystemFiles()}). */
        public Builder systemFiles(boolean allowed) {
            this.useSystem = allowed;
            return this;
        }

        /** --jitdump-dir: where jit-PID.dump files are (null: at their recorded paths). */
        public Builder jitdumpDir(Path dir) {
            this.jitdumpDir = dir;
            return this;
        }

        public SymbolOptions build() {
            return new SymbolOptions(this);
        }
    }
}
