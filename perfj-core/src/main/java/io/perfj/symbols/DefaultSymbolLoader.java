package io.perfj.symbols;

import io.perfj.elf.ElfFile;

import java.nio.file.Path;
import java.util.List;

/**
 * The {@link SymbolLoader} made of perfj's parsers: {@link ElfSymbols} for ELF objects (user
 * objects in perf's adjusted address space, kernel modules with absolute addresses),
 * {@link Kallsyms} for the kernel, {@link PerfMap} for JIT maps.
 */
public final class DefaultSymbolLoader implements SymbolLoader {
    private final boolean useSystem;
    private final boolean perfTrees;

    /** A loader that may open this machine's files (e.g. the object a debug file belongs to). */
    public DefaultSymbolLoader() {
        this(true);
    }

    /** @param useSystem whether recorded paths on this machine may be opened */
    public DefaultSymbolLoader(boolean useSystem) {
        this(useSystem, false);
    }

    /**
     * @param useSystem whether recorded paths on this machine may be opened
     * @param perfTrees whether user objects' symbols answer lookups as perf 6.1's symbol tree
     *                  does where they overlap ({@code --compat perf-6.1}; see
     *                  {@link ElfSymbols#loadUser(Path, List, boolean, boolean)})
     */
    public DefaultSymbolLoader(boolean useSystem, boolean perfTrees) {
        this.useSystem = useSystem;
        this.perfTrees = perfTrees;
    }

    @Override
    public SymbolTable loadElf(Path file, Dso dso) {
        if (dso != null && (dso.kind() == DsoKind.KERNEL || dso.kind() == DsoKind.KERNEL_MODULE)) {
            return ElfSymbols.loadKernel(file);
        }
        Path runtime = separateDebug(file) ? runtimeFor(file, dso) : null;
        if (runtime != null) {
            return ElfSymbols.loadUser(runtime, List.of(file), false, perfTrees).table();
        }
        return ElfSymbols.loadUser(file, List.of(), false, perfTrees).table();
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
     * the recorded path, when its build-id matches.
     */
    private Path runtimeFor(Path debug, Dso dso) {
        byte[] id = elfBuildId(debug);
        java.util.List<Path> candidates = new java.util.ArrayList<>();
        if (debug.getParent() != null) {
            candidates.add(debug.getParent().resolve("elf"));
        }
        if (useSystem && dso != null && dso.longName().startsWith("/")) {
            candidates.add(Path.of(dso.longName()));
        }
        for (Path c : candidates) {
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

    @Override
    public boolean hasSymtab(Path file) {
        try (ElfFile elf = ElfFile.open(file)) {
            return elf.symtabSection().isPresent();
        }
    }

    @Override
    public byte[] elfBuildId(Path file) {
        try (ElfFile elf = ElfFile.open(file)) {
            return elf.buildId().orElse(null);
        }
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
