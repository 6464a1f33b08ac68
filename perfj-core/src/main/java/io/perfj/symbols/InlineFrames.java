package io.perfj.symbols;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The functions inlined at an unwound user frame, as perf 6.1 (built without libbfd) names them
 * through {@code addr2line -f -i}: innermost first, the frame's own symbol kept where addr2line
 * names it, the others as inlined symbols over the same range. Files come from the run's
 * {@link ObjectCache}; {@link Addr2Line} keeps one process per file and caches its answers per
 * address, so a frame costs a lookup, not a file open or a subprocess.
 */
public final class InlineFrames {
    private final ObjectCache objects;
    private final java.util.Map<Path, Path> runtimes = new java.util.concurrent.ConcurrentHashMap<>();
    private volatile Addr2Line addr2line;

    public InlineFrames(ObjectCache objects) {
        this.objects = objects;
    }

    /** The frame with the functions inlined at its address, innermost first; just the frame when none. */
    public List<Location> withInlines(Location loc) {
        Symbol sym = loc.symbol();
        Dso dso = loc.dso();
        if (sym == null || dso == null || dso.kind() != DsoKind.USER) {
            return List.of(loc);
        }
        Path file = objects.symbolFile(dso);
        if (file == null) {
            return List.of(loc);
        }
        long vaddr = objects.fileOffsetToVaddr(runtimes.computeIfAbsent(file, InlineFrames::runtimeOf), loc.mapIp());
        List<String> names = addr2line().functions(file, vaddr);
        if (names.isEmpty()) {
            return List.of(loc);
        }
        List<Location> out = new ArrayList<>(names.size());
        for (String n : names) {
            out.add(n.equals(sym.name()) ? loc : new Location(loc.map(), dso,
                    new Symbol(sym.start(), sym.end(), n, Symbol.INLINED), loc.ip(), loc.mapIp(), loc.level()));
        }
        return out;
    }

    /**
     * Whose program headers place a file offset: a build-id cache's {@code debug} file has its
     * {@code elf} beside it; any other file is its own.
     */
    private static Path runtimeOf(Path file) {
        if (file.getFileName() != null && file.getFileName().toString().equals("debug")
                && java.nio.file.Files.isRegularFile(file.resolveSibling("elf"))) {
            return file.resolveSibling("elf");
        }
        return file;
    }

    private synchronized Addr2Line addr2line() {
        if (addr2line == null) {
            addr2line = new Addr2Line();
        }
        return addr2line;
    }

    /** Ends the addr2line processes. */
    public synchronized void close() {
        if (addr2line != null) {
            addr2line.close();
        }
    }
}
