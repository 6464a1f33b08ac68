package io.perfj.symbols;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The functions inlined at an unwound user frame, as perf (built without libbfd) names them
 * through {@code addr2line -f -i}, demangled as the symbols are ({@link SymbolLoader#demangling}): innermost first, the frame's own symbol kept where addr2line
 * names it, the others as inlined symbols over the same range. Files come from the run's
 * {@link ObjectCache}; {@link Addr2Line} keeps one process per file, and the chain of each
 * (DSO, address) is asked for once, so a frame costs a hash lookup, not a file open or a
 * subprocess round trip.
 */
public final class InlineFrames {
    private final ObjectCache objects;
    private final Demangling demangling;
    private static final Level[] NONE = new Level[0];
    private final java.util.Map<Path, Path> runtimes = new java.util.concurrent.ConcurrentHashMap<>();
    private final java.util.Map<Path, Boolean> lineTables = new java.util.concurrent.ConcurrentHashMap<>();
    private final java.util.Map<Dso, java.util.Map<Long, Level[]>> chains = new java.util.concurrent.ConcurrentHashMap<>();
    /** {@link #mayInline} by file. */
    private final java.util.Map<Path, Boolean> dwarf = new java.util.concurrent.ConcurrentHashMap<>();
    private volatile Addr2Line addr2line;
    /** What {@link #prefetch} asked for recently (used by the one thread that prefetches). */
    private static final int ASKED = 8192;
    private final long[] askedIp = new long[ASKED];
    private final Dso[] askedDso = new Dso[ASKED];
    /** Whether {@link #addr2line} is another's (closed by its owner, not here). */
    private final boolean shared;

    public InlineFrames(ObjectCache objects) {
        this.objects = objects;
        this.demangling = objects.finder().loader().demangling();
        this.shared = false;
    }

    /**
     * Over another owner's addr2line processes: an unwinder running ahead of the consumer asks
     * them early ({@link #prefetch}) what the consumer's {@link #withInlines} will ask.
     */
    public InlineFrames(ObjectCache objects, Addr2Line names) {
        this.objects = objects;
        this.demangling = objects.finder().loader().demangling();
        this.addr2line = names;
        this.shared = true;
    }

    /** The addr2line processes behind these names (made on first use). */
    public Addr2Line names() {
        return addr2line();
    }

    /**
     * Asks addr2line now for the chain at a DSO address, which {@link #withInlines} (of any
     * InlineFrames over the same {@link Addr2Line}) will ask for later; see {@link #flush}. Only a
     * hint: the answers are the same whether asked ahead or not.
     *
     * @return whether a question may have been written (and {@link #flush} is due)
     */
    public boolean prefetch(Dso dso, long mapIp) {
        return prefetch(dso, mapIp, false);
    }

    /**
     * As {@link #prefetch(Dso, long)}, for what {@link #withInlinesAndFrame} will ask: nothing for
     * an object addr2line can name no inlined function in ({@link #mayInline}).
     */
    public boolean prefetchRecorded(Dso dso, long mapIp) {
        return prefetch(dso, mapIp, true);
    }

    private boolean prefetch(Dso dso, long mapIp, boolean recorded) {
        if (dso == null || dso.kind() != DsoKind.USER) {
            return false;
        }
        // most frames were asked for a moment ago: a direct-mapped memory of (object, address)
        int slot = (int) (mapIp ^ (mapIp >>> 13)) & (ASKED - 1);
        if (askedIp[slot] == mapIp && askedDso[slot] == dso) {
            return false;
        }
        askedIp[slot] = mapIp;
        askedDso[slot] = dso;
        Path file = objects.symbolFile(dso);
        if (file == null || recorded && !mayInline(file)) {
            return false;
        }
        long vaddr = objects.fileOffsetToVaddr(runtimes.computeIfAbsent(file, f -> runtimeOf(f, dso)), mapIp);
        addr2line().prefetch(file, vaddr);
        return true;
    }

    /** Sends the questions {@link #prefetch} asked. */
    public void flush() {
        if (addr2line != null) {
            addr2line.flush();
        }
    }

    /**
     * The frame with the functions inlined at its address, innermost first, each with its level's
     * source line ({@link Location#srcline}); just the frame when none.
     */
    public List<Location> withInlines(Location loc) {
        Symbol sym = loc.symbol();
        Dso dso = loc.dso();
        if (sym == null || dso == null || dso.kind() != DsoKind.USER) {
            return List.of(loc);
        }
        // the chain of an address is the same at every frame that reaches it: looked up once
        Level[] chain = chains.computeIfAbsent(dso, d -> new java.util.concurrent.ConcurrentHashMap<>())
                .computeIfAbsent(loc.mapIp(), ip -> chain(dso, sym, ip));
        if (chain.length == 0) {
            return List.of(loc);
        }
        List<Location> out = new ArrayList<>(chain.length);
        for (Level l : chain) {
            out.add(new Location(loc.map(), dso, l.symbol == null ? sym : l.symbol, loc.ip(), loc.mapIp(), loc.level(),
                    l.srcline));
        }
        return out;
    }

    /**
     * A recorded callchain frame (frame pointers, LBR) with the functions inlined at its address,
     * innermost first, as perf 7.2 adds them ({@code add_callchain_ip}: the address itself, a return
     * address for callers), except that the frame itself always ends the list: addr2line's
     * outermost function is the one the symbol names, also where DWARF names it otherwise
     * ({@code __GI___clock_gettime} for {@code clock_gettime}), which perf would print as an
     * inlined function in place of the frame.
     */
    public List<Location> withInlinesAndFrame(Location loc) {
        if (loc.dso() != null && loc.dso().kind() == DsoKind.USER) {
            // a one-name answer (all addr2line gives without DWARF) leaves the frame alone
            Path file = objects.symbolFile(loc.dso());
            if (file != null && !mayInline(file)) {
                return List.of(loc);
            }
        }
        return keepingFrame(loc, withInlines(loc));
    }

    /**
     * A frame's levels ({@link #withInlines}) with the outermost one made the frame itself (its
     * symbol and object, the level's line) where addr2line names it otherwise than the symbol.
     */
    public static List<Location> keepingFrame(Location loc, List<Location> all) {
        int n = all.size();
        Location last = all.get(n - 1);
        if (last == loc || last.symbol() == loc.symbol()) {
            return all;
        }
        List<Location> out = new ArrayList<>(all.subList(0, n - 1));
        out.add(new Location(loc.map(), loc.dso(), loc.symbol(), loc.ip(), loc.mapIp(), loc.level(), last.srcline()));
        return out;
    }

    /** A level of an address's chain: its symbol (null for the frame's own) and source line. */
    private record Level(Symbol symbol, String srcline) {
    }

    /** addr2line's names at a DSO address: the frame's own symbol as null, inlined symbols for the others. */
    private Level[] chain(Dso dso, Symbol sym, long mapIp) {
        Path file = objects.symbolFile(dso);
        if (file == null || !lineTables.computeIfAbsent(file, this::hasLineTable)) {
            return NONE;
        }
        long vaddr = objects.fileOffsetToVaddr(runtimes.computeIfAbsent(file, f -> runtimeOf(f, dso)), mapIp);
        List<Addr2Line.Level> levels = addr2line().levels(file, vaddr);
        Level[] out = new Level[levels.size()];
        for (int i = 0; i < out.length; i++) {
            // addr2line gives linkage names; perf demangles them as it does ELF symbols (new_inline_sym)
            String n = demangling.demangle(levels.get(i).function());
            out[i] = new Level(n.equals(sym.name()) ? null : new Symbol(sym.start(), sym.end(), n, Symbol.INLINED),
                    levels.get(i).srcline());
        }
        return out;
    }

    /** Whether a file has a line table: perf asks addr2line about no other (it names no inlined function there). */
    private boolean hasLineTable(Path file) {
        io.perfj.elf.ElfFile elf = objects.elf(file);
        try {
            return elf != null && elf.section(".debug_line").isPresent();
        } catch (RuntimeException e) {
            return false;
        }
    }

    /**
     * Whether addr2line may name more than one function at an address of {@code file}: whether
     * DWARF is within its reach (a {@code .debug_info} in the file, or a separate debug file it
     * would follow: by build-id under {@code /usr/lib/debug}, by {@code .gnu_debuglink}, or from
     * debuginfod). Without, it names at most the symbol, which leaves a recorded frame alone, so
     * no process is started for the file.
     */
    private boolean mayInline(Path file) {
        return dwarf.computeIfAbsent(file, this::dwarfReachable);
    }

    private boolean dwarfReachable(Path file) {
        String debuginfod = System.getenv("DEBUGINFOD_URLS");
        io.perfj.elf.ElfFile elf = objects.elf(file);
        if (elf == null || debuginfod != null && !debuginfod.isBlank()) {
            return true; // addr2line's own answer
        }
        try {
            if (elf.section(".debug_info").isPresent() || elf.section(".zdebug_info").isPresent()) {
                return true;
            }
            String id = elf.buildIdHex().orElse("");
            if (id.length() > 2 && java.nio.file.Files.exists(
                    Path.of("/usr/lib/debug/.build-id", id.substring(0, 2), id.substring(2) + ".debug"))) {
                return true;
            }
            String link = elf.debugLink().map(io.perfj.elf.DebugLink::fileName).orElse(null);
            if (link != null) {
                // where binutils looks: beside the file as named and as resolved, in .debug/, under /usr/lib/debug
                for (Path f : List.of(file.toAbsolutePath(), file.toRealPath())) {
                    Path dir = f.getParent();
                    for (Path p : DebugLinks.places(f, link, dir == null ? null : dir.toString(),
                            d -> Path.of("/usr/lib/debug" + d))) {
                        if (java.nio.file.Files.exists(p)) {
                            return true;
                        }
                    }
                }
            }
            return false;
        } catch (java.io.IOException | RuntimeException e) {
            return true;
        }
    }

    /**
     * Whose program headers place a file offset: a build-id cache's {@code debug} file has its
     * {@code elf} beside it; another separate debug file (its {@code .text} without contents, as
     * one found through {@code .gnu_debuglink}) has the DSO's runtime object; any other file is
     * its own.
     */
    private Path runtimeOf(Path file, Dso dso) {
        if (file.getFileName() != null && file.getFileName().toString().equals("debug")
                && java.nio.file.Files.isRegularFile(file.resolveSibling("elf"))) {
            return file.resolveSibling("elf");
        }
        io.perfj.elf.ElfFile elf = objects.elf(file);
        try {
            if (elf != null && elf.section(".text").map(t -> !t.hasFileData()).orElse(false)) {
                Path runtime = objects.runtimeFile(dso);
                if (runtime != null) {
                    return runtime;
                }
            }
        } catch (RuntimeException e) {
            // an unreadable section table: the file places its own offsets
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
        if (addr2line != null && !shared) {
            addr2line.close();
        }
    }
}
