package io.perfj.symbols;

import io.perfj.elf.Elf;
import io.perfj.elf.ElfFile;
import io.perfj.elf.ElfSymbol;
import io.perfj.elf.SectionHeader;
import io.perfj.io.Bytes;
import io.perfj.io.FormatException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * Symbols of an ELF object the way perf loads them ({@code dso__load} with
 * {@code dso__load_sym} and {@code dso__synthesize_plt_symbols}, tools/perf/util/symbol-elf.c).
 *
 * <p>User-space objects: symbols come from the first .symtab found (the runtime file itself,
 * else a separate debug file whose build-id matches), else from the runtime file's .dynsym
 * (merged with the MiniDebugInfo .symtab in .gnu_debugdata when there is one). perf keeps
 * STT_FUNC, STT_GNU_IFUNC and STT_OBJECT symbols with a name and a section, and STT_NOTYPE labels
 * (not hidden/internal, not SHN_ABS) in sections whose name contains "text" or "data"; symbols in
 * sections without SHF_ALLOC are dropped. Each address is moved into perf's DSO space by the
 * runtime file's PT_LOAD segment that contains it ({@code st_value - (p_vaddr - p_offset)}, or the
 * section's {@code sh_addr - sh_offset} when no segment does), so a sample maps with
 * {@code ip - map.start + map.pgoff}. C++/Rust names are demangled the session's way
 * ({@link Demangling}: perf 7.2's with parameter lists, or perf 6.1's without). Names are the
 * string-table names: perf adds no symbol versions, so
 * {@code clock_gettime@@GLIBC_2.17} shows only where a .symtab holds that literal name. After
 * perf's fix-ups ({@link SymbolFixups}) the PLT entries are added as {@code name@plt}: by
 * default those perf 7.2 makes ({@link PltSymbols}), and where symbols overlap the innermost
 * one with a size of its own answers; other {@link UserSymbolRules} (perf 6.1's) may collect
 * them otherwise (perf 6.1's entries: {@link #pltSymbols}) and look them up in a table of their own.
 *
 * <p>Kernel images and modules keep absolute addresses and mangled names.
 */
public final class ElfSymbols {
    private ElfSymbols() {
    }

    /** What was loaded and from where. */
    public record Result(SymbolTable table, Path source, String section, int pltSymbols) {
    }

    /**
     * Symbols of a user-space object, looking for a debug file the way perf and gdb do (build-id
     * under /usr/lib/debug/.build-id, .gnu_debuglink next to the file, in .debug/ and under
     * /usr/lib/debug). This and the other overloads without {@link UserSymbolRules} give perfj's
     * table and names ({@link UserSymbolRules#PERFJ}, {@link Demangling#CURRENT}).
     */
    public static SymbolTable load(Path file) {
        return loadUser(file, null, true).table();
    }

    /** Symbols of a user-space object with an explicit separate debug file (null for none). */
    public static SymbolTable load(Path file, Path debugFile) {
        return loadUser(file, debugFile == null ? List.of() : List.of(debugFile), false).table();
    }

    /**
     * Symbols of a user-space object; {@code debugCandidates} are tried in order (files that are
     * missing, not ELF, or carry another build-id are skipped), then, with {@code searchSystem},
     * the system's debug directories.
     */
    public static Result loadUser(Path file, List<Path> debugCandidates, boolean searchSystem) {
        return loadUser(file, debugCandidates, searchSystem, UserSymbolRules.PERFJ, Demangling.CURRENT);
    }

    /**
     * As {@link #loadUser(Path, List, boolean)}, collected and looked up by {@code rules}, names
     * demangled as {@code names} says.
     */
    public static Result loadUser(Path file, List<Path> debugCandidates, boolean searchSystem, UserSymbolRules rules,
                                  Demangling names) {
        try (ElfFile runtime = ElfFile.open(file)) {
            List<Path> candidates = new ArrayList<>();
            if (debugCandidates != null) {
                candidates.addAll(debugCandidates);
            }
            if (searchSystem) {
                candidates.addAll(systemDebugCandidates(file, runtime));
            }
            return loadUser(runtime, file, candidates, rules, names);
        }
    }

    /** As {@link #loadUser(Path, List, boolean)} for an already opened runtime file. */
    public static Result loadUser(ElfFile runtime, Path runtimePath, List<Path> debugCandidates) {
        return loadUser(runtime, runtimePath, debugCandidates, UserSymbolRules.PERFJ, Demangling.CURRENT);
    }

    /** As {@link #loadUser(Path, List, boolean, UserSymbolRules, Demangling)} for an already opened runtime file. */
    public static Result loadUser(ElfFile runtime, Path runtimePath, List<Path> debugCandidates, UserSymbolRules rules,
                                  Demangling names) {
        Loaded l = collectUser(runtime, runtimePath, debugCandidates, rules, names);
        SymbolTable own = rules == UserSymbolRules.PERFJ ? null : rules.table(l.syms.toSymbols(), l.plt.symbols());
        return new Result(own != null ? own : columns(l.syms, l.plt).table(names),
                l.source, l.section, l.plt.symbols().size());
    }

    /**
     * As {@link #loadUser(ElfFile, Path, List, UserSymbolRules, Demangling)} by perfj's rules, as
     * columns (to keep between runs; {@link Columns#table} names them the same way).
     */
    static Columns userColumns(ElfFile runtime, Path runtimePath, List<Path> debugCandidates, Demangling names) {
        Loaded l = collectUser(runtime, runtimePath, debugCandidates, UserSymbolRules.PERFJ, names);
        return columns(l.syms, l.plt);
    }

    /** A user object's symbols as gathered, before perf's fix-ups. */
    private record Loaded(Collected syms, PltSymbols plt, Path source, String section) {
    }

    /**
     * The symbols of a user object and of its PLT: perf 6.1's PLT entries ({@link #pltSymbols})
     * as {@code rules} says (perf 7.2's {@link PltSymbols} and the symbols of .gnu_debugdata for
     * perfj's).
     */
    private static Loaded collectUser(ElfFile runtime, Path runtimePath, List<Path> debugCandidates, UserSymbolRules rules,
                                      Demangling names) {
        Collected syms = new Collected(names);
        Path source = runtimePath;
        String section;
        if (runtime.symtabSection().isPresent()) {
            collect(runtime, runtime, runtime.symtabSection().get(), false, syms);
            section = ".symtab";
        } else {
            ElfFile debug = null;
            Path debugPath = null;
            byte[] id = safe(runtime::buildId).orElse(null);
            for (Path c : debugCandidates) {
                ElfFile d = openMatching(c, id);
                if (d != null) {
                    debug = d;
                    debugPath = c;
                    break;
                }
            }
            if (debug != null) {
                try (ElfFile d = debug) {
                    collect(d, runtime, d.symtabSection().get(), false, syms);
                }
                source = debugPath;
                section = ".symtab";
            } else {
                Optional<SectionHeader> dynsym = runtime.dynsymSection();
                if (dynsym.isPresent()) {
                    collect(runtime, runtime, dynsym.get(), false, syms);
                }
                section = ".dynsym";
                // perf 6.1 does not read MiniDebugInfo (later perfs name the symbols it holds)
                Optional<ElfFile> mini = rules.readsMiniDebugInfo() ? runtime.debugData() : Optional.empty();
                if (mini.isPresent()) {
                    try (ElfFile m = mini.get()) {
                        if (m.symtabSection().isPresent()) {
                            collect(m, runtime, m.symtabSection().get(), false, syms);
                        }
                    }
                    section = ".dynsym+.gnu_debugdata";
                }
            }
        }
        List<Symbol> entries = rules.pltEntries(runtime, names);
        PltSymbols plt = entries != null ? new PltSymbols(entries, -1) : PltSymbols.of(runtime, syms::nameStartingAt, names);
        return new Loaded(syms, plt, source, section);
    }

    /**
     * dso__load's symbols: the ELF ones sorted and fixed up (dso__load_sym), then the PLT ones
     * added without another fix-up (dso__synthesize_plt_symbols), equal starts in that order.
     * Where symbols overlap (a zero-sized {@code _init} stretched over the PLT entries, a label
     * inside a function) the innermost covering symbol that had a size answers, else the
     * innermost one ({@link SymbolTable#ofInnermost(List, boolean[])}): the entry, the function.
     */
    static SymbolTable table(List<Symbol> syms, List<Symbol> plt) {
        return columns(Collected.of(syms), new PltSymbols(plt, -1)).table(Demangling.CURRENT);
    }

    /**
     * A finished symbol table as columns: starts, ends and bindings in address order, and each
     * symbol's name as the bytes it is made from ({@code names} holds them NUL-terminated, from
     * {@code nameAt}) with whether it is demangled when made; the table names a symbol the first
     * time a lookup returns it. {@link ElfSymbolCache} keeps these between runs. The names of PLT
     * entries are stored demangled: columns are made for one {@link Demangling}, and their table
     * is to be named the same way.
     */
    record Columns(long[] start, long[] end, char[] binding, boolean innermost, boolean[] weak, byte[] names,
                   int[] nameAt, boolean[] demangle) {
        SymbolTable table(Demangling d) {
            return SymbolTable.ofNamed(start, end, binding, innermost, weak, k -> {
                String raw = io.perfj.elf.ElfSymbolColumns.name(names, nameAt[k]);
                return demangle[k] ? d.demangle(raw) : raw;
            });
        }
    }

    /** Name bytes gathered into one NUL-terminated blob, offset 0 being the empty name. */
    private static final class NameBlob {
        private byte[] b = new byte[4096];
        private int n = 1;

        int add(byte[] from, int off) {
            if (off == 0) {
                return 0;
            }
            int end = off;
            while (end < from.length && from[end] != 0) {
                end++;
            }
            return add(from, off, end - off);
        }

        int add(byte[] from, int off, int len) {
            if (len == 0) {
                return 0;
            }
            if (n + len + 1 > b.length) {
                b = Arrays.copyOf(b, Math.max(b.length * 2, n + len + 1));
            }
            System.arraycopy(from, off, b, n, len);
            int at = n;
            n += len;
            b[n++] = 0;
            return at;
        }

        int add(String s) {
            byte[] x = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            return add(x, 0, x.length);
        }

        byte[] bytes() {
            return Arrays.copyOf(b, n);
        }
    }

    /**
     * {@link #table(List, List)} over collected symbols, as columns; the symbol stretched over the
     * start of the PLT is cut there when {@code plt} says so. A symbol that had no size yields to
     * a sized one covering the same address ({@link SymbolTable#ofInnermost(List, boolean[])}).
     */
    static Columns columns(Collected syms, PltSymbols plt) {
        boolean[] sizeless = new boolean[syms.n];
        for (int i = 0; i < syms.n; i++) {
            sizeless[i] = syms.end[i] == syms.start[i];
        }
        int[] kept = SymbolFixups.apply(syms.start, syms.end, syms.binding, syms.n, null, syms::name);
        if (plt.cutAt() >= 0) {
            cut(syms, kept, plt.cutAt());
        }
        List<Symbol> p = SymbolTable.sortedCopy(plt.symbols());
        int total = kept.length + p.size();
        long[] start = new long[total];
        long[] end = new long[total];
        char[] binding = new char[total];
        boolean[] weak = new boolean[total];
        // a merged position's source: an ELF symbol's position (>= 0) or ~ a PLT entry's index
        int[] from = new int[total];
        int i = 0;
        int j = 0;
        for (int k = 0; k < total; k++) {
            if (j == p.size() || i < kept.length && Long.compareUnsigned(syms.start[kept[i]], p.get(j).start()) <= 0) {
                int e = kept[i++];
                start[k] = syms.start[e];
                end[k] = syms.end[e];
                binding[k] = syms.binding[e];
                weak[k] = sizeless[e];
                from[k] = e;
            } else {
                Symbol q = p.get(j);
                start[k] = q.start();
                end[k] = q.end();
                binding[k] = q.binding();
                from[k] = ~j++;
            }
        }
        NameBlob names = new NameBlob();
        int[] nameAt = new int[total];
        boolean[] demangle = new boolean[total];
        for (int k = 0; k < total; k++) {
            if (from[k] >= 0) {
                nameAt[k] = syms.rawName(from[k], names);
                demangle[k] = syms.demangles(from[k]);
            } else {
                nameAt[k] = names.add(p.get(~from[k]).name());
            }
        }
        return new Columns(start, end, binding, true, weak, names.bytes(), nameAt, demangle);
    }

    /** Ends the innermost kept symbol that runs over {@code at} (from before it) there. */
    private static void cut(Collected syms, int[] kept, long at) {
        int inner = -1;
        for (int e : kept) {
            if (Long.compareUnsigned(syms.start[e], at) >= 0) {
                break;
            }
            if (Long.compareUnsigned(syms.end[e], at) > 0) {
                inner = e;
            }
        }
        if (inner >= 0) {
            syms.end[inner] = at;
        }
    }

    /** Symbols of a kernel image (vmlinux) or module: absolute addresses, names as stored. */
    public static SymbolTable loadKernel(Path file) {
        return kernelColumns(file).table(Demangling.CURRENT); // nothing to demangle
    }

    /** {@link #loadKernel(Path)} as columns. */
    static Columns kernelColumns(Path file) {
        try (ElfFile elf = ElfFile.open(file)) {
            Collected syms = new Collected(null);
            if (elf.symtabSection().isPresent()) {
                collect(elf, elf, elf.symtabSection().get(), true, syms);
            }
            int[] kept = SymbolFixups.apply(syms.start, syms.end, syms.binding, syms.n, null, syms::name);
            long[] start = new long[kept.length];
            long[] end = new long[kept.length];
            char[] binding = new char[kept.length];
            NameBlob names = new NameBlob();
            int[] nameAt = new int[kept.length];
            for (int k = 0; k < kept.length; k++) {
                start[k] = syms.start[kept[k]];
                end[k] = syms.end[kept[k]];
                binding[k] = syms.binding[kept[k]];
                nameAt[k] = syms.rawName(kept[k], names);
            }
            return new Columns(start, end, binding, false, null, names.bytes(), nameAt, new boolean[kept.length]);
        }
    }

    /** The system places a separate debug file for {@code file} may be in, most specific first. */
    public static List<Path> systemDebugCandidates(Path file, ElfFile elf) {
        List<Path> out = new ArrayList<>();
        Optional<String> id = safe(elf::buildIdHex);
        if (id.isPresent() && id.get().length() > 2) {
            String h = id.get();
            out.add(Path.of("/usr/lib/debug/.build-id", h.substring(0, 2), h.substring(2) + ".debug"));
        }
        Optional<io.perfj.elf.DebugLink> link = safe(elf::debugLink);
        if (link.isPresent()) {
            Path dir = file.toAbsolutePath().getParent();
            out.addAll(DebugLinks.places(file, link.get().fileName(), dir == null ? null : dir.toString(),
                    d -> Path.of("/usr/lib/debug" + d)));
        }
        return out;
    }

    private static <T> Optional<T> safe(java.util.function.Supplier<Optional<T>> s) {
        try {
            return s.get();
        } catch (FormatException e) {
            return Optional.empty();
        }
    }

    /** Opens {@code p} when it is an ELF file with a .symtab and (when known) the same build-id. */
    private static ElfFile openMatching(Path p, byte[] buildId) {
        if (p == null || !Files.isRegularFile(p) || !ElfFile.isElf(p)) {
            return null;
        }
        ElfFile d = null;
        try {
            d = ElfFile.open(p);
            if (d.symtabSection().isEmpty()) {
                d.close();
                return null;
            }
            if (buildId != null) {
                byte[] other = d.buildId().orElse(null);
                if (other == null || !Arrays.equals(other, buildId)) {
                    d.close();
                    return null;
                }
            }
            return d;
        } catch (FormatException | java.io.UncheckedIOException e) {
            if (d != null) {
                d.close();
            }
            return null;
        }
    }

    /**
     * Symbols gathered from one or more symbol tables as columns, with each name's string
     * table (copied: the files are closed before names are asked for) and offset; names are
     * read, and for user objects demangled, when asked.
     */
    static final class Collected {
        /** How names are demangled; null: not at all (kernel objects, names given). */
        private final Demangling demangle;
        private final List<byte[]> strings = new ArrayList<>();
        private List<Symbol> given;
        long[] start = new long[64];
        long[] end = new long[64];
        char[] binding = new char[64];
        private int[] source = new int[64];
        private int[] offset = new int[64];
        int n;

        Collected(Demangling demangle) {
            this.demangle = demangle;
        }

        /** Columns over symbols already made (names as given). */
        static Collected of(List<Symbol> syms) {
            Collected c = new Collected(null);
            c.given = syms;
            for (int i = 0; i < syms.size(); i++) {
                Symbol s = syms.get(i);
                c.add(s.start(), s.end(), s.binding(), -1, i);
            }
            return c;
        }

        int addStrings(byte[] table) {
            strings.add(table);
            return strings.size() - 1;
        }

        void add(long s, long e, char b, int src, int off) {
            if (n == start.length) {
                int grown = n * 2;
                start = Arrays.copyOf(start, grown);
                end = Arrays.copyOf(end, grown);
                binding = Arrays.copyOf(binding, grown);
                source = Arrays.copyOf(source, grown);
                offset = Arrays.copyOf(offset, grown);
            }
            start[n] = s;
            end[n] = e;
            binding[n] = b;
            source[n] = src;
            offset[n] = off;
            n++;
        }

        /** Symbol {@code i}'s name before demangling, added to {@code blob}; its offset there. */
        int rawName(int i, NameBlob blob) {
            return source[i] < 0 ? blob.add(given.get(offset[i]).name()) : blob.add(strings.get(source[i]), offset[i]);
        }

        /** Whether {@link #name(int)} demangles symbol {@code i}'s raw name. */
        boolean demangles(int i) {
            return source[i] >= 0 && demangle != null;
        }

        /**
         * The name of the symbol gathered at exactly {@code start} that perf keeps of those
         * starting there ({@link SymbolFixups#better}), or null.
         */
        String nameStartingAt(long start) {
            Symbol best = null;
            for (int i = 0; i < n; i++) {
                if (this.start[i] == start) {
                    Symbol s = new Symbol(start, end[i], name(i), binding[i]);
                    if (best == null || SymbolFixups.better(s, best)) {
                        best = s;
                    }
                }
            }
            return best == null ? null : best.name();
        }

        String name(int i) {
            if (source[i] < 0) {
                return given.get(offset[i]).name();
            }
            String raw = io.perfj.elf.ElfSymbolColumns.name(strings.get(source[i]), offset[i]);
            return demangle != null ? demangle.demangle(raw) : raw;
        }

        /** The symbols in the order they were gathered, named now. */
        List<Symbol> toSymbols() {
            List<Symbol> out = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                out.add(new Symbol(start[i], end[i], name(i), binding[i]));
            }
            return out;
        }
    }

    /** perf's per-symbol filter and address adjustment over one symbol table; appends to {@code out}. */
    static void collect(ElfFile syms, ElfFile runtime, SectionHeader table, boolean kernel, Collected out) {
        io.perfj.elf.ElfSymbolColumns c = syms.symbolColumns(table);
        List<SectionHeader> symSecs = syms.sections();
        List<SectionHeader> runSecs = runtime.sections();
        int machine = syms.machine();
        boolean arm = machine == Elf.EM_ARM;
        boolean armLike = arm || machine == Elf.EM_AARCH64;
        int src = -1;
        for (int i = 0; i < c.count(); i++) {
            int shndx = c.shndx(i);
            if (shndx == Elf.SHN_UNDEF || c.nameEmpty(i)) {
                continue;
            }
            int type = c.type(i);
            int vis = c.visibility(i);
            boolean isLabel = type == Elf.STT_NOTYPE && shndx != Elf.SHN_ABS
                    && vis != Elf.STV_HIDDEN && vis != Elf.STV_INTERNAL;
            boolean keep = type == Elf.STT_FUNC || type == Elf.STT_GNU_IFUNC || type == Elf.STT_OBJECT;
            if (!isLabel && !keep) {
                continue;
            }
            if (armLike && c.nameByte(i, 0) == '$' && c.nameByte(i, 1) != 0 && "adtx".indexOf(c.nameByte(i, 1)) >= 0
                    && (c.nameByte(i, 2) == 0 || c.nameByte(i, 2) == '.')) {
                continue;
            }
            if (shndx == Elf.SHN_ABS || shndx >= symSecs.size()) {
                continue;
            }
            SectionHeader sh = symSecs.get(shndx);
            if (!sh.isAlloc()) {
                continue;
            }
            if (sh.isNoBits() && syms != runtime) {
                if (shndx >= runSecs.size()) {
                    continue;
                }
                sh = runSecs.get(shndx);
            }
            if (isLabel && !(sh.name().contains("text") || sh.name().contains("data"))) {
                continue;
            }
            long value = c.value(i);
            if (arm && type == Elf.STT_FUNC && (value & 1) != 0) {
                value--;
            }
            if (!kernel) {
                final long v = value;
                var seg = runtime.loadSegmentFor(v);
                value = seg.isPresent() ? v - (seg.get().vaddr() - seg.get().offset()) : v - (sh.addr() - sh.offset());
            }
            long size = c.size(i);
            long end = size != 0 ? value + size : value;
            if (src < 0) {
                src = out.addStrings(c.strings());
            }
            out.add(value, end, c.bindingChar(i), src, c.nameOffset(i));
        }
    }

    /** perf 6.1's PLT symbols: one {@code name@plt} per .rela.plt/.rel.plt entry. */
    public static List<Symbol> pltSymbols(ElfFile elf, Demangling names) {
        Optional<SectionHeader> dynsymSec = elf.dynsymSection();
        if (dynsymSec.isEmpty()) {
            return List.of();
        }
        SectionHeader rel = elf.section(".rela.plt").or(() -> elf.section(".rel.plt")).orElse(null);
        if (rel == null || rel.link() != dynsymSec.get().index() || rel.isNoBits()) {
            return List.of();
        }
        SectionHeader plt = elf.section(".plt").orElse(null);
        if (plt == null || plt.isNoBits()) {
            return List.of();
        }
        boolean rela = rel.type() == Elf.SHT_RELA;
        if (!rela && rel.type() != Elf.SHT_REL) {
            return List.of();
        }
        long header;
        long entry;
        long base = plt.offset();
        switch (elf.machine()) {
            case Elf.EM_ARM -> {
                header = 20;
                entry = 12;
            }
            case Elf.EM_AARCH64 -> {
                header = 32;
                entry = 16;
            }
            default -> {
                header = plt.entsize();
                entry = plt.entsize();
            }
        }
        Optional<SectionHeader> pltSec = elf.section(".plt.sec");
        if (pltSec.isPresent() && !pltSec.get().isNoBits()
                && (elf.machine() == Elf.EM_X86_64 || elf.machine() == Elf.EM_386)) {
            base = pltSec.get().offset();
            header = 0;
            entry = pltSec.get().entsize() != 0 ? pltSec.get().entsize() : 16;
        }
        if (entry <= 0) {
            return List.of();
        }
        boolean is64 = elf.is64();
        long stdEnt = is64 ? (rela ? 24 : 16) : (rela ? 12 : 8);
        long relEnt = rel.entsize() >= stdEnt && rel.entsize() <= 1024 ? rel.entsize() : stdEnt;
        if (entry < 0 || entry > 1 << 16 || header < 0 || header > 1 << 16) {
            return List.of();
        }
        Bytes data = elf.sectionData(rel);
        long n = data.size() / relEnt;
        List<ElfSymbol> dyn = elf.dynsym();
        List<Symbol> out = new ArrayList<>((int) Math.min(n, 1 << 16));
        long addr = base + header;
        for (long i = 0; i < n; i++) {
            long info = is64 ? data.u64(i * relEnt + 8) : data.u32(i * relEnt + 4);
            long symIdx = is64 ? info >>> 32 : info >>> 8;
            String name = symIdx < dyn.size() ? names.demangle(dyn.get((int) symIdx).name()) : "";
            out.add(new Symbol(addr, addr + entry, name + "@plt", 'G'));
            addr += entry;
        }
        return out;
    }

    static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }
}
