package io.perfj.symbols;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * Finds the file a DSO's symbols come from, in the order perf's {@code dso__load} tries its
 * binary types, and loads it through a {@link SymbolLoader}.
 *
 * <p>ELF objects (programs, libraries, modules, the vDSO), given the build-id from the BUILD_ID
 * header table or the MMAP2 record:
 * <ol>
 * <li>the file the object's {@code .gnu_debuglink} names, when its CRC matches
 *     ({@link DebugLinks}): beside the object, in its {@code .debug/}, under
 *     {@code /usr/lib/debug/DIR};</li>
 * <li>the build-id cache ({@code --buildid-dir}, default {@code ~/.debug} when system files may
 *     be used): {@code .build-id/XX/REST} (a link to the object's directory, or, in the old
 *     layout, to the file), then {@code PATH/BUILDID/elf} and {@code PATH/BUILDID/debug}
 *     ({@code vdso} for the vDSO);</li>
 * <li>{@code /usr/lib/debug/.build-id/XX/REST.debug}, {@code /usr/lib/debug/PATH.debug} and
 *     {@code /usr/lib/debug/PATH};</li>
 * <li>the recorded path; for the vDSO, this process's copy of the running kernel's vDSO
 *     ({@link RunningVdso}; not under --symfs), as perf reads it.</li>
 * </ol>
 * System paths are looked at under {@code --symfs} when it is given, otherwise only when
 * {@link SymbolOptions#useSystem()}. A file whose build-id differs from the recorded one is
 * skipped. The first file with a {@code .symtab} wins; failing that, the first that exists.
 *
 * <p>The kernel: {@code --kallsyms FILE}; the cache's {@code [kernel.kallsyms]/BUILDID/kallsyms};
 * without {@code --symfs}, {@code /proc/kallsyms} when system files may be used and the running
 * kernel's build-id (from {@code /sys/kernel/notes}) is the recorded one, or none was recorded.
 * Under {@code --symfs} a kernel without a cached kallsyms keeps its map with raw addresses.
 *
 * <p>An object recorded without a build-id takes the one of the file at its path (perf's
 * {@code dso__load} reads it there), so the cache and {@code /usr/lib/debug/.build-id} are tried
 * for it too. Unlike perf, an object recorded without a build-id (pipe mode, {@code record -z}) finally
 * tries the cache directory of its path when that holds exactly one build-id.
 *
 * <p>JIT maps: {@code perf-PID.map} in {@link SymbolOptions#perfMapDir()}.
 *
 * <p>Tables are shared by the sessions of this JVM ({@link SharedSymbolTables}), under the key
 * the loader gives for each load.
 *
 * <p>A DSO with no file found loads as an empty table (its samples keep the DSO name with raw
 * addresses); a file that cannot be parsed throws, which the {@link Dso} keeps as its one
 * warning.
 */
public final class DsoFinder {
    private final SymbolOptions opts;
    private final SymbolLoader loader;
    private final Path procKallsyms;
    private final Path kernelNotes;
    private final SharedSymbolTables tables;

    public DsoFinder(SymbolOptions opts, SymbolLoader loader) {
        this(opts, loader, Path.of("/proc/kallsyms"), Path.of("/sys/kernel/notes"));
    }

    /** With other locations for /proc/kallsyms and /sys/kernel/notes (tests). */
    public DsoFinder(SymbolOptions opts, SymbolLoader loader, Path procKallsyms, Path kernelNotes) {
        this(opts, loader, procKallsyms, kernelNotes, SharedSymbolTables.process());
    }

    /** With the tables shared in {@code tables} instead of this JVM's (tests). */
    public DsoFinder(SymbolOptions opts, SymbolLoader loader, Path procKallsyms, Path kernelNotes,
                     SharedSymbolTables tables) {
        this.opts = opts;
        this.loader = loader;
        this.procKallsyms = procKallsyms;
        this.kernelNotes = kernelNotes;
        this.tables = tables;
    }

    public SymbolLoader loader() {
        return loader;
    }

    /** The build-id cache consulted: --buildid-dir, else ~/.debug if system files may be used. */
    public Path buildIdDir() {
        if (opts.buildIdDir() != null) {
            return opts.buildIdDir();
        }
        if (opts.useSystem()) {
            return Path.of(System.getProperty("user.home"), ".debug");
        }
        return null;
    }

    private boolean systemAllowed() {
        return opts.symfs() != null || opts.useSystem();
    }

    /** A system path, under --symfs when given. */
    private Path sys(String absolute) {
        if (opts.symfs() != null) {
            return opts.symfs().resolve(absolute.startsWith("/") ? absolute.substring(1) : absolute);
        }
        return Path.of(absolute);
    }

    /** The files to try for an ELF DSO, in perf's order (existence not checked). */
    public List<Path> elfCandidates(Dso dso) {
        List<Path> out = new ArrayList<>();
        String bid = dso.buildIdHex();
        String name = dso.longName();
        String leaf = dso.kind() == DsoKind.VDSO ? "vdso" : "elf";
        Path cache = buildIdDir();
        if (systemAllowed() && name.startsWith("/") && dso.kind() != DsoKind.VDSO) {
            // perf's first ELF type: the file .gnu_debuglink names, beside the object, in its
            // .debug/, under /usr/lib/debug + its directory (CRC checked as gdb does)
            int slash = name.lastIndexOf('/');
            String dir = slash > 0 ? name.substring(0, slash) : "/";
            out.addAll(DebugLinks.find(sys(name), dir, d -> sys("/usr/lib/debug" + d)));
        }
        if (bid != null && bid.length() > 2 && cache != null) {
            Path link = linkName(cache, bid);
            if (Files.isDirectory(link)) {
                out.add(link.resolve(leaf));
                out.add(link.resolve("debug"));
            } else {
                out.add(link);
            }
            Path dir = cache.resolve(relative(name)).resolve(bid);
            out.add(dir.resolve(leaf));
            out.add(dir.resolve("debug"));
        }
        if (systemAllowed() && name.startsWith("/")) {
            if (bid != null && bid.length() > 2) {
                out.add(sys("/usr/lib/debug/.build-id/" + bid.substring(0, 2) + "/" + bid.substring(2) + ".debug"));
            }
            out.add(sys("/usr/lib/debug" + name + ".debug"));
            out.add(sys("/usr/lib/debug" + name));
            out.add(sys(name));
        }
        if (dso.kind() == DsoKind.VDSO && opts.useSystem() && opts.symfs() == null) {
            // perf's [vdso] object is the running vdso's copy (under --symfs, a path not there)
            Path running = RunningVdso.file();
            if (running != null) {
                out.add(running);
            }
        }
        if (bid == null && cache != null) {
            Path only = onlyBuildIdDir(cache.resolve(relative(name)));
            if (only != null) {
                out.add(only.resolve(leaf));
                out.add(only.resolve("debug"));
            }
        }
        return out;
    }

    /**
     * Not in perf: for an object recorded without a build-id (pipe mode, {@code record -z}), the
     * cache directory of its path when it holds exactly one build-id, tried after everything perf
     * tries.
     */
    static Path onlyBuildIdDir(Path dir) {
        if (!Files.isDirectory(dir)) {
            return null;
        }
        try (var s = Files.list(dir)) {
            List<Path> ids = s.filter(Files::isDirectory)
                    .filter(p -> p.getFileName().toString().matches("[0-9a-f]{2,}")).limit(2).toList();
            return ids.size() == 1 ? ids.getFirst() : null;
        } catch (IOException e) {
            return null;
        }
    }

    private volatile Dso kernel;

    /** The kernel's DSO, whose build-id picks the kallsyms file module symbols come from too. */
    public void kernel(Dso kernelDso) {
        this.kernel = kernelDso;
    }

    /** The kallsyms files to try for the kernel, in order (existence not checked). */
    public List<Path> kallsymsCandidates(Dso kernel) {
        List<Path> out = new ArrayList<>();
        if (opts.kallsyms() != null) {
            out.add(opts.kallsyms());
            return out;
        }
        String bid = kernel.buildIdHex();
        Path cache = buildIdDir();
        if (bid != null && cache != null) {
            Path link = linkName(cache, bid);
            if (Files.isDirectory(link)) {
                out.add(link.resolve("kallsyms"));
            }
            out.add(cache.resolve("[kernel.kallsyms]").resolve(bid).resolve("kallsyms"));
        }
        if (opts.symfs() != null) {
            // another machine's files: none of this one's kernels, nor a guess among the cache's
            // (perf's dso__load_kernel_sym reads no kallsyms at all under --symfs)
            return out;
        }
        if (opts.useSystem()) {
            byte[] running = runningKernelBuildId(kernelNotes);
            if (bid == null || (running != null && HexFormat.of().formatHex(running).equals(bid))) {
                out.add(procKallsyms);
            }
        }
        if (bid == null && cache != null) {
            Path only = onlyBuildIdDir(cache.resolve("[kernel.kallsyms]"));
            if (only != null) {
                out.add(only.resolve("kallsyms"));
            }
        }
        return out;
    }

    /** {@code DIR/.build-id/XX/REST}. */
    public static Path linkName(Path cache, String bidHex) {
        return cache.resolve(".build-id").resolve(bidHex.substring(0, 2)).resolve(bidHex.substring(2));
    }

    private static String relative(String path) {
        return path.startsWith("/") ? path.substring(1) : path;
    }

    /** The file symbols would be read from, or null (existence and build-id checked). */
    public Path find(Dso dso) {
        return switch (dso.kind()) {
            case KERNEL -> firstExisting(kallsymsCandidates(dso));
            case JIT_MAP -> {
                Path p = perfMapPath(dso);
                yield p != null && Files.isRegularFile(p) ? p : null;
            }
            case BPF, ANON, JIT_CODE -> null;
            default -> {
                try {
                    yield chooseElf(dso);
                } catch (IOException e) {
                    yield null;
                }
            }
        };
    }

    /** Loads a DSO's symbols (the {@link Dso} loader function). */
    public SymbolTable load(Dso dso) {
        try {
            switch (dso.kind()) {
                case KERNEL -> {
                    Path p = firstExisting(kallsymsCandidates(dso));
                    if (p == null) {
                        if (opts.kallsyms() == null && dso.buildIdHex() != null) {
                            // perf's words (dso__find_kallsyms) when neither the build-id cache
                            // nor the running kernel has the recorded kernel's symbols
                            dso.loadError("No kallsyms or vmlinux with build-id " + dso.buildIdHex() + " was found");
                        }
                        return SymbolTable.EMPTY;
                    }
                    dso.symbolSource(p.toString());
                    dso.symtabOrigin('k');
                    return tables.get(loader.kallsymsKey(p), () -> loader.loadKallsyms(p));
                }
                case JIT_MAP -> {
                    Path p = perfMapPath(dso);
                    if (p == null || !Files.isRegularFile(p)) {
                        return SymbolTable.EMPTY;
                    }
                    dso.symbolSource(p.toString());
                    dso.symtabOrigin('j');
                    return loader.loadPerfMap(p);
                }
                case BPF, ANON, JIT_CODE -> {
                    return SymbolTable.EMPTY;
                }
                default -> {
                    Path p = chooseElf(dso);
                    if (p == null) {
                        if (dso.kind() == DsoKind.KERNEL_MODULE && kernel != null) {
                            // Without its .ko, perf takes a module's symbols from kallsyms.
                            Path k = firstExisting(kallsymsCandidates(kernel));
                            if (k != null) {
                                dso.symbolSource(k.toString());
                                dso.symtabOrigin('k');
                                String key = loader.kallsymsKey(k);
                                return tables.get(key == null ? null : key + "\nmodule " + dso.shortName(),
                                        () -> loader.loadKallsymsModule(k, dso.shortName()));
                            }
                        }
                        return SymbolTable.EMPTY;
                    }
                    dso.symbolSource(p.toString());
                    dso.symtabOrigin(origin(dso, p));
                    return tables.get(loader.elfKey(p, dso), () -> loader.loadElf(p, dso));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(describe(dso, e), e);
        } catch (UncheckedIOException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new IllegalStateException(describe(dso, e), e);
        }
    }

    /** perf's letter for the kind of file an ELF object's symbols came from ({@link Dso#symtabOrigin()}). */
    private char origin(Dso dso, Path p) {
        Path cache = buildIdDir();
        if (cache != null && p.toAbsolutePath().normalize().startsWith(cache.toAbsolutePath().normalize())) {
            return p.getFileName().toString().equals("debug") ? 'D' : 'B';
        }
        String name = dso.longName();
        String bid = dso.buildIdHex();
        if (bid != null && bid.length() > 2
                && p.equals(sys("/usr/lib/debug/.build-id/" + bid.substring(0, 2) + "/" + bid.substring(2) + ".debug"))) {
            return 'b';
        }
        if (p.equals(sys("/usr/lib/debug" + name + ".debug"))) {
            return 'f';
        }
        if (p.equals(sys("/usr/lib/debug" + name))) {
            return 'u';
        }
        return p.equals(sys(name)) ? 'd' : 'l';
    }

    private static String describe(Dso dso, Exception e) {
        String src = dso.symbolSource() != null ? dso.symbolSource() : dso.longName();
        String msg = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return "Failed to read symbols of " + dso.longName() + (src.equals(dso.longName()) ? "" : " from " + src)
                + ": " + msg;
    }

    /** perf-PID.map in the perf map directory, for a DSO named /tmp/perf-PID.map. */
    public Path perfMapPath(Dso dso) {
        String name = dso.longName();
        int slash = name.lastIndexOf('/');
        String file = slash >= 0 ? name.substring(slash + 1) : name;
        Path dir = opts.perfMapDir() != null ? opts.perfMapDir() : Path.of("/tmp");
        return dir.resolve(file);
    }

    /**
     * perf's choice among the ELF candidates: skip missing files and build-id mismatches; the
     * first with a .symtab wins, else the first usable one. A candidate that fails to parse is
     * skipped; if it was the only one, its error is thrown.
     */
    private Path chooseElf(Dso dso) throws IOException {
        adoptFileBuildId(dso);
        byte[] want = dso.buildId().orElse(null);
        Path runtime = null;
        IOException firstError = null;
        for (Path p : elfCandidates(dso)) {
            if (!Files.isRegularFile(p)) {
                continue;
            }
            try {
                if (want != null) {
                    byte[] have = loader.elfBuildId(p);
                    if (have != null && !sameId(want, have)) {
                        continue;
                    }
                }
                if (loader.hasSymtab(p)) {
                    return p;
                }
            } catch (IOException | RuntimeException e) {
                if (firstError == null) {
                    dso.symbolSource(p.toString());
                    firstError = e instanceof IOException io ? io : new IOException(e.getMessage(), e);
                }
                continue;
            }
            if (runtime == null) {
                runtime = p;
            }
        }
        if (runtime == null && firstError != null) {
            throw firstError;
        }
        return runtime;
    }

    /**
     * perf's {@code dso__load} for an object with no build-id from the recording: the build-id
     * of the file at its path (under --symfs), so that the build-id cache and
     * {@code /usr/lib/debug/.build-id/} are searched for it as for a recorded one.
     */
    private void adoptFileBuildId(Dso dso) {
        if (dso.buildId().isPresent() || !systemAllowed() || !dso.longName().startsWith("/")) {
            return;
        }
        Path f = sys(dso.longName());
        if (!Files.isRegularFile(f)) {
            return;
        }
        try {
            byte[] id = loader.elfBuildId(f);
            if (id != null) {
                dso.buildId(id);
            }
        } catch (IOException | RuntimeException e) {
            // perf goes on without a build-id; the file's own error shows when it is loaded
        }
    }

    /** Build-ids compare on the shorter length (a recorded id may be zero-padded to 20 bytes). */
    public static boolean sameId(byte[] a, byte[] b) {
        int n = Math.min(a.length, b.length);
        if (!Arrays.equals(a, 0, n, b, 0, n)) {
            return false;
        }
        for (int i = n; i < a.length; i++) {
            if (a[i] != 0) {
                return false;
            }
        }
        for (int i = n; i < b.length; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return true;
    }

    private static Path firstExisting(List<Path> paths) {
        for (Path p : paths) {
            if (Files.isRegularFile(p)) {
                return p;
            }
        }
        return null;
    }

    /** The build-id in a kernel notes file ({@code /sys/kernel/notes}), or null. */
    public static byte[] runningKernelBuildId(Path notes) {
        try {
            if (!Files.isReadable(notes)) {
                return null;
            }
            return gnuBuildIdNote(ByteBuffer.wrap(Files.readAllBytes(notes)).order(ByteOrder.nativeOrder()));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** Walks ELF notes (namesz, descsz, type, name, desc; 4-byte aligned) for NT_GNU_BUILD_ID. */
    static byte[] gnuBuildIdNote(ByteBuffer b) {
        int pos = 0;
        int lim = b.limit();
        while (pos + 12 <= lim) {
            int namesz = b.getInt(pos);
            int descsz = b.getInt(pos + 4);
            int type = b.getInt(pos + 8);
            if (namesz < 0 || descsz < 0) {
                return null;
            }
            int name = pos + 12;
            int desc = name + ((namesz + 3) & ~3);
            int next = desc + ((descsz + 3) & ~3);
            if (next > lim || next <= pos) {
                return null;
            }
            if (type == 3 && namesz == 4 && b.get(name) == 'G' && b.get(name + 1) == 'N' && b.get(name + 2) == 'U') {
                byte[] id = new byte[descsz];
                b.get(desc, id);
                return id;
            }
            pos = next;
        }
        return null;
    }
}
