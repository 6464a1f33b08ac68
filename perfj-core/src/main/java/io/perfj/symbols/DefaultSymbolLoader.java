package io.perfj.symbols;

import io.perfj.elf.ElfFile;

import java.nio.file.Path;
import java.util.List;

/**
 * The {@link SymbolLoader} made of perfj's parsers: {@link ElfSymbols} for ELF objects (user
 * objects in perf's adjusted address space, kernel modules with absolute addresses),
 * {@link Kallsyms} for the kernel, {@link PerfMap} for JIT maps. ELF facts and symbol tables,
 * like kallsyms tables, are kept between runs ({@link ElfSymbolCache}, {@link KallsymsCache})
 * unless the {@code perfj.cache} property is {@code off}.
 */
public final class DefaultSymbolLoader implements SymbolLoader {
    private final boolean useSystem;
    private final UserSymbolRules rules;
    private final Demangling names;
    private final Path cacheDir;
    private final Path symfs;
    private final java.util.concurrent.ConcurrentHashMap<Path, ElfSymbolCache.Facts> facts = new java.util.concurrent.ConcurrentHashMap<>();

    /** A loader that may open this machine's files (e.g. the object a debug file belongs to). */
    public DefaultSymbolLoader() {
        this(true);
    }

    /** @param useSystem whether recorded paths on this machine may be opened */
    public DefaultSymbolLoader(boolean useSystem) {
        this(useSystem, UserSymbolRules.PERFJ);
    }

    /**
     * @param useSystem whether recorded paths on this machine may be opened
     * @param rules     how user objects' symbols are collected and looked up (see
     *                  {@link ElfSymbols#loadUser(Path, List, boolean, UserSymbolRules, Demangling)})
     */
    public DefaultSymbolLoader(boolean useSystem, UserSymbolRules rules) {
        this(useSystem, rules, CacheFiles.directory());
    }

    /**
     * As {@link #DefaultSymbolLoader(boolean, UserSymbolRules)} with this machine's files as
     * {@code opts} allows them: recorded paths are also opened under its --symfs; names
     * demangled as perf 7.2 does ({@link Demangling#CURRENT}).
     */
    public DefaultSymbolLoader(SymbolOptions opts, UserSymbolRules rules) {
        this(opts, rules, Demangling.CURRENT);
    }

    /** As {@link #DefaultSymbolLoader(SymbolOptions, UserSymbolRules)}, user objects' names demangled as {@code names} says. */
    public DefaultSymbolLoader(SymbolOptions opts, UserSymbolRules rules, Demangling names) {
        this(opts.useSystem(), rules, names, CacheFiles.directory(), opts.symfs());
    }

    /** With the cache in {@code cacheDir} (null: none; tests), names demangled as perf 7.2 does. */
    DefaultSymbolLoader(boolean useSystem, UserSymbolRules rules, Path cacheDir) {
        this(useSystem, rules, Demangling.CURRENT, cacheDir, null);
    }

    /** With the cache in {@code cacheDir} (null: none) and names demangled as {@code names} says (tests). */
    DefaultSymbolLoader(boolean useSystem, Demangling names, Path cacheDir) {
        this(useSystem, UserSymbolRules.PERFJ, names, cacheDir, null);
    }

    private DefaultSymbolLoader(boolean useSystem, UserSymbolRules rules, Demangling names, Path cacheDir, Path symfs) {
        this.useSystem = useSystem;
        this.rules = rules;
        this.names = names;
        this.cacheDir = cacheDir;
        this.symfs = symfs;
    }

    /** How this loader names user objects' symbols (and the functions inlined into them). */
    @Override
    public Demangling demangling() {
        return names;
    }

    @Override
    public SymbolTable loadElf(Path file, Dso dso) {
        boolean kernel = kernel(dso);
        if (rules != UserSymbolRules.PERFJ && !kernel) {
            Path runtime = separateDebug(file) ? runtimeFor(file, dso) : null;
            if (runtime != null) {
                return ElfSymbols.loadUser(runtime, List.of(file), false, rules, names).table();
            }
            return ElfSymbols.loadUser(file, List.of(), false, rules, names).table();
        }
        String key = cacheDir == null ? null : symbolsKey(file, dso, kernel);
        ElfSymbols.Columns c = ElfSymbolCache.symbols(cacheDir, file, key);
        if (c == null) {
            c = kernel ? ElfSymbols.kernelColumns(file) : userColumns(file, dso);
            ElfSymbolCache.storeSymbols(cacheDir, file, key, c);
        }
        return c.table(names);
    }

    /**
     * The load reads the file and perhaps the runtime object it belongs to: all are in the key,
     * and for a user object how its names are demangled (its PLT entries' are kept demangled).
     */
    private String symbolsKey(Path file, Dso dso, boolean kernel) {
        return ElfSymbolCache.symbolsKey(kernel ? "kernel" : "user " + names.key(), file,
                kernel ? List.of() : runtimeCandidates(file, dso));
    }

    private static boolean kernel(Dso dso) {
        return dso != null && (dso.kind() == DsoKind.KERNEL || dso.kind() == DsoKind.KERNEL_MODULE);
    }

    /**
     * The on-disk cache's key of the load (with how user objects' names are demangled), and how
     * this loader builds tables (perf's trees or not).
     */
    @Override
    public String elfKey(Path file, Dso dso) {
        boolean kernel = kernel(dso);
        String key = symbolsKey(file, dso, kernel);
        return key == null ? null : "elf " + (kernel ? "" : rules.cacheKey()) + "system " + useSystem + "\n" + key;
    }

    /** The file as {@link KallsymsCache} knows it (the running kernel's by its state). */
    @Override
    public String kallsymsKey(Path file) {
        String key = KallsymsCache.identity(file);
        return key == null ? null : "kallsyms\n" + key;
    }

    private ElfSymbols.Columns userColumns(Path file, Dso dso) {
        Path runtime = separateDebug(file) ? runtimeFor(file, dso) : null;
        try (ElfFile elf = ElfFile.open(runtime != null ? runtime : file)) {
            return ElfSymbols.userColumns(elf, runtime != null ? runtime : file, runtime != null ? List.of(file) : List.of(),
                    names);
        }
    }

    /** A separate debug file has its code sections as NOBITS: its segments say nothing of file offsets. */
    static boolean separateDebug(Path file) {
        try (ElfFile elf = ElfFile.open(file)) {
            return elf.section(".text").map(s -> s.type() == 8 /* SHT_NOBITS */).orElse(false);
        }
    }

    /**
     * The runtime object a separate debug file belongs to, whose program headers place the
     * symbols (perf's runtime_ss): the build-id cache's {@code elf} next to its {@code debug}, or
     * the recorded path (under --symfs, then as it is), when its build-id matches.
     */
    private Path runtimeFor(Path debug, Dso dso) {
        byte[] id = elfBuildId(debug);
        for (Path c : runtimeCandidates(debug, dso)) {
            try {
                if (java.nio.file.Files.isRegularFile(c) && !c.equals(debug)
                        && (id == null || java.util.Arrays.equals(id, elfBuildId(c)))) {
                    return c;
                }
            } catch (RuntimeException e) {
                // not a usable runtime file; try the next
            }
        }
        return null;
    }

    /** Where {@link #runtimeFor} looks, in order (existence not checked). */
    private List<Path> runtimeCandidates(Path debug, Dso dso) {
        List<Path> candidates = new java.util.ArrayList<>(2);
        if (debug.getParent() != null) {
            candidates.add(debug.getParent().resolve("elf"));
        }
        if (symfs != null && dso != null && dso.longName().startsWith("/")) {
            candidates.add(symfs.resolve(dso.longName().substring(1)));
        }
        if (useSystem && dso != null && dso.longName().startsWith("/")) {
            candidates.add(Path.of(dso.longName()));
        }
        return candidates;
    }

    @Override
    public boolean hasSymtab(Path file) {
        ElfSymbolCache.Facts f = facts(file);
        if (f != null) {
            return f.hasSymtab();
        }
        try (ElfFile elf = ElfFile.open(file)) {
            return elf.symtabSection().isPresent();
        }
    }

    @Override
    public byte[] elfBuildId(Path file) {
        ElfSymbolCache.Facts f = facts(file);
        if (f != null) {
            return f.buildId();
        }
        try (ElfFile elf = ElfFile.open(file)) {
            return elf.buildId().orElse(null);
        }
    }

    /**
     * A file's build-id and .symtab presence, kept or read now; null when the file's build-id
     * note cannot be read (the callers then open it themselves, failing as they always did).
     */
    private ElfSymbolCache.Facts facts(Path file) {
        if (cacheDir == null) {
            return null;
        }
        ElfSymbolCache.Facts f = facts.get(file);
        if (f != null) {
            return f;
        }
        f = ElfSymbolCache.facts(cacheDir, file);
        if (f == null) {
            try (ElfFile elf = ElfFile.open(file)) {
                f = new ElfSymbolCache.Facts(elf.buildId().orElse(null), elf.symtabSection().isPresent());
            } catch (RuntimeException e) {
                return null;
            }
            ElfSymbolCache.storeFacts(cacheDir, file, f);
        }
        facts.put(file, f); // a candidate's build-id is asked, then its .symtab: one read for both
        return f;
    }

    @Override
    public SymbolTable loadKallsyms(Path file) {
        return kallsyms(file).kernel();
    }

    private Path lastKallsymsPath;
    private Kallsyms lastKallsyms;

    /** The kernel and its modules come from the same file: it is read once. */
    private synchronized Kallsyms kallsyms(Path file) {
        if (!file.equals(lastKallsymsPath)) {
            lastKallsyms = Kallsyms.read(file);
            lastKallsymsPath = file;
        }
        return lastKallsyms;
    }

    @Override
    public SymbolTable loadKallsymsModule(Path file, String module) {
        SymbolTable t = kallsyms(file).modules().get(module);
        return t == null ? SymbolTable.EMPTY : t;
    }

    @Override
    public SymbolTable loadPerfMap(Path file) {
        return PerfMap.read(file).table();
    }
}
