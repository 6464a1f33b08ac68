package io.perfj.dwarf;

import io.perfj.elf.SectionContents;
import io.perfj.dwarf.info.DieCursor;
import io.perfj.dwarf.info.Dw;
import io.perfj.dwarf.info.DwarfInfo;
import io.perfj.dwarf.info.UnitHeader;
import io.perfj.elf.Elf;
import io.perfj.elf.ElfFile;
import io.perfj.elf.ElfSymbol;
import io.perfj.elf.SectionHeader;
import io.perfj.io.Bytes;
import io.perfj.io.Cursor;
import io.perfj.io.Leb128;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The inline chain at an address of one ELF file as binutils' {@code addr2line -f -i} (2.40) gives
 * it: the same compilation unit, function, line and file name choices, so that {@link #answer}
 * prints what addr2line prints, byte for byte, without a process. The unit covering the address
 * is the one whose own ranges hold it (low/high pc, {@code DW_AT_ranges} in {@code .debug_ranges}
 * or {@code .debug_rnglists}), looked for first among those {@code .debug_aranges} names, then
 * among all; its line program and function DIEs are read the first time an address falls in it,
 * and kept (an abstract origin's name is read where the reference points). The names follow binutils: a linkage name
 * wins, reached through {@code DW_AT_abstract_origin} and {@code DW_AT_specification}; a plain
 * name of a language that mangles is replaced by the ELF symbol at the address, once per
 * function, as binutils does (its answers depend on what was asked before, so one reader per
 * file asked the same questions in the same order answers as one addr2line process does).
 *
 * <p>What this reader does not follow (a file without {@code .debug_info} of its own, whose DWARF
 * addr2line finds by build-id, debuglink or debuginfod; {@code .gnu_debugaltlink} (dwz) and
 * split DWARF; relocatable objects; forms and layouts binutils reads differently or not at all)
 * makes {@link #open} return empty or {@link #answer} throw {@link Unanswerable}: the caller then
 * asks addr2line itself about that file.
 */
public final class InlineChains {
    /** This reader cannot give addr2line's answer for the file (corrupt or unsupported DWARF). */
    public static final class Unanswerable extends RuntimeException {
        public Unanswerable(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * One line of the chain: the function ({@code null} prints {@code ??}), the file ({@code null}
     * prints {@code ??}), the line ({@code 0} prints {@code ?}) and discriminator.
     */
    public record Level(String function, String file, long line, long discriminator) {
        /** addr2line's {@code FILE:LINE} text of this level. */
        public String place() {
            String f = file == null ? "??" : file;
            if (line == 0) {
                return f + ":?";
            }
            return discriminator != 0 ? f + ":" + line + " (discriminator " + discriminator + ")" : f + ":" + line;
        }
    }

    private static final int TAG_entry_point = 0x03;
    private static final int AT_linkage_name = 0x6e;
    private static final int AT_MIPS_linkage_name = 0x2007;
    private static final int AT_call_file = 0x58;
    private static final int AT_call_line = 0x59;
    private static final int AT_GNU_dwo_name = 0x2130;
    private static final int AT_dwo_name = 0x76;

    private final ElfFile elf;
    private final boolean is64;
    private final List<SectionHeader> sections;
    // read (decompressed) at the first question
    private DwarfInfo dwarf;
    private Bytes line;
    private Bytes lineStr;
    private Bytes ranges;
    private Bytes rnglists;
    private Unit[] units;
    private List<ElfSymbol> symbols;
    // binutils' elf_find_function cache
    private SectionHeader cacheSection;
    private ElfSymbol cacheFunc;
    private long cacheFuncSize;
    private String cacheFile;

    private InlineChains(ElfFile elf) {
        this.elf = elf;
        this.is64 = elf.is64();
        this.sections = elf.sections();
    }

    /** The DWARF sections, read the first time a question needs them. */
    private void read() {
        if (dwarf != null) {
            return;
        }
        line = SectionContents.section(elf, ".debug_line").orElse(null);
        lineStr = SectionContents.section(elf, ".debug_line_str").orElse(null);
        ranges = SectionContents.section(elf, ".debug_ranges").orElse(null);
        rnglists = SectionContents.section(elf, ".debug_rnglists").orElse(null);
        dwarf = DwarfInfo.of(elf);
    }

    /**
     * A reader for {@code elf}, or empty when addr2line would read DWARF this reader does not:
     * none in the file itself (found elsewhere), dwz's alternate file, old {@code .zdebug}
     * sections, a relocatable object.
     */
    public static Optional<InlineChains> open(ElfFile elf) {
        try {
            Optional<SectionHeader> info = elf.section(".debug_info");
            if (info.isEmpty() || !info.get().hasFileData() || info.get().size() == 0
                    || elf.section(".gnu_debugaltlink").isPresent() || elf.section(".zdebug_info").isPresent()
                    || elf.section(".debug_info.dwo").isPresent() || elf.type() == Elf.ET_REL
                    || elf.section(".debug_line").isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(new InlineChains(elf));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * addr2line's answer for {@code pc} as it prints it with {@code -f -i -a}: the address line,
     * then a function line and a {@code FILE:LINE} line per level.
     */
    public synchronized String answer(long pc) {
        return format(pc, levels(pc));
    }

    /** The text addr2line prints for {@code pc} and its levels (null: not found). */
    public String format(long pc, List<Level> levels) {
        StringBuilder sb = new StringBuilder();
        String hex = Long.toHexString(is64 ? pc : pc & 0xffff_ffffL);
        sb.append("0x").append("0".repeat(Math.max(0, (is64 ? 16 : 8) - hex.length()))).append(hex).append('\n');
        if (levels == null) {
            return sb.append("??\n??:0\n").toString();
        }
        for (Level l : levels) {
            sb.append(l.function() == null || l.function().isEmpty() ? "??" : l.function()).append('\n');
            sb.append(l.place()).append('\n');
        }
        return sb.toString();
    }

    /**
     * The levels addr2line names at {@code pc}, innermost first; null where it finds nothing
     * (it prints {@code ??} and {@code ??:0}).
     *
     * @throws Unanswerable where this reader cannot tell what addr2line would answer
     */
    public synchronized List<Level> levels(long pc) {
        try {
            for (SectionHeader s : sections) {
                if (!s.isAlloc() || Long.compareUnsigned(pc, s.addr()) < 0
                        || Long.compareUnsigned(pc, s.addr() + s.size()) >= 0) {
                    continue;
                }
                if ((s.flags() & Elf.SHF_EXECINSTR) == 0) {
                    throw new Unanswerable("an address outside code (" + s.name() + ")");
                }
                List<Level> l = inSection(s, pc);
                if (l != null) {
                    return l;
                }
            }
            return null;
        } catch (Unanswerable e) {
            throw e;
        } catch (RuntimeException e) {
            // a FormatException or a read past a section: corrupt DWARF
            throw new Unanswerable(e.toString());
        }
    }

    /** binutils' _bfd_dwarf2_find_nearest_line and the inliner walk for one section. */
    private List<Level> inSection(SectionHeader sec, long pc) {
        read();
        Func function = null;
        Line found = null;
        boolean any = false;
        // the units .debug_aranges names, then all: those whose ranges hold the address, then those without ranges
        List<Unit> first = arangeUnits(pc);
        int count = dwarf.units().size();
        for (int pass = -1; pass < 2 && !any; pass++) {
            for (int i = 0; i < (pass < 0 ? first.size() : count) && !any; i++) {
                Unit u = pass < 0 ? first.get(i) : unit(i);
                if (u == null || (pass != 1) != u.hasRanges() || pass != 1 && !u.contains(pc)) {
                    continue;
                }
                u.decode();
                if (u.noLines) {
                    continue;
                }
                Func f = u.function(pc);
                Line l = u.line(pc);
                if (f != null || l != null) {
                    function = f;
                    found = l;
                    any = true;
                }
            }
        }
        String file = found == null ? null : found.file;
        long lineNo = found == null ? 0 : found.line;
        long disc = found == null ? 0 : found.discriminator;
        String name;
        if (function != null && function.isLinkage) {
            name = function.name;
        } else {
            ElfSymbol fun = findFunction(sec, pc);
            name = fun == null ? null : fun.name();
            if (file == null && fun != null) {
                file = cacheFile;
            }
            if (!any && fun == null) {
                return null;
            }
            if (function != null) {
                if (fun == null) {
                    name = function.name;
                } else if (fun.value() == function.low()) {
                    function.name = fun.name();
                }
                function.isLinkage = true;
            }
        }
        List<Level> out = new ArrayList<>();
        out.add(new Level(name, file, lineNo, disc));
        if (function != null && function.tag == Dw.TAG_inlined_subroutine) {
            // addr2line keeps the innermost discriminator for the callers' lines
            for (Func f = function; f.caller != null; f = f.caller) {
                out.add(new Level(f.caller.name, f.callerFile, f.callerLine, disc));
            }
        }
        return out;
    }

    // ---- ELF symbols, as binutils' _bfd_elf_find_function ----

    private ElfSymbol findFunction(SectionHeader sec, long pc) {
        if (symbols == null) {
            List<ElfSymbol> s = elf.symtab();
            if (s.size() <= 1) {
                s = elf.dynsym();
            }
            symbols = s.size() <= 1 ? List.of() : s.subList(1, s.size());
        }
        if (symbols.isEmpty()) {
            return null;
        }
        long offset = pc - sec.addr();
        if (cacheSection != sec || cacheFunc == null || Long.compareUnsigned(offset, cacheFunc.value() - sec.addr()) < 0
                || Long.compareUnsigned(offset, cacheFunc.value() - sec.addr() + cacheFuncSize) >= 0) {
            String file = null;
            long lowFunc = 0;
            int state = 0; // nothing seen, symbol seen, file after symbol seen
            cacheFile = null;
            cacheFunc = null;
            cacheFuncSize = 0;
            cacheSection = sec;
            for (ElfSymbol sym : symbols) {
                int type = sym.type();
                if (type == Elf.STT_FILE) {
                    file = sym.name();
                    if (state == 1) {
                        state = 2;
                    }
                    continue;
                }
                long size = maybeFunction(sym, sec);
                long codeOff = sym.value() - sec.addr();
                if (size != 0 && Long.compareUnsigned(codeOff, offset) <= 0
                        && (Long.compareUnsigned(codeOff, lowFunc) > 0
                        || codeOff == lowFunc && Long.compareUnsigned(size, cacheFuncSize) > 0)) {
                    cacheFunc = sym;
                    cacheFuncSize = size;
                    cacheFile = null;
                    lowFunc = codeOff;
                    if (file != null && (sym.bind() == Elf.STB_LOCAL || state != 2)) {
                        cacheFile = file;
                    }
                }
                if (state == 0) {
                    state = 1;
                }
            }
        }
        return cacheFunc;
    }

    /** binutils' _bfd_elf_maybe_function_sym: the size a symbol may be a function of, 0 when not. */
    private static long maybeFunction(ElfSymbol sym, SectionHeader sec) {
        int type = sym.type();
        if (type == Elf.STT_SECTION || type == Elf.STT_FILE || type == Elf.STT_OBJECT || type == 5 /* COMMON */
                || type == Elf.STT_TLS || sym.shndx() != sec.index()) {
            return 0;
        }
        long size = sym.size();
        if (size == 0 && sym.bind() == Elf.STB_LOCAL && type == Elf.STT_NOTYPE && sym.visibility() == 2 /* hidden */) {
            return 0;
        }
        return size != 0 ? size : 1;
    }

    // ---- units ----

    /** The unit of index {@code i} of {@link DwarfInfo#units()}, its root read the first time; null for none. */
    private Unit unit(int i) {
        if (units == null) {
            units = new Unit[dwarf.units().size()];
        }
        Unit u = units[i];
        if (u == null && !skipped(i)) {
            UnitHeader h = dwarf.units().get(i);
            if (h.unitType() == Dw.UT_skeleton || h.unitType() == Dw.UT_split_compile
                    || h.unitType() == Dw.UT_split_type) {
                throw new Unanswerable("split DWARF");
            }
            scratch = dwarf.cursor(h, scratch);
            u = new Unit(h, scratch);
            units[i] = u;
        }
        return u;
    }

    private DieCursor scratch;

    /** Whether unit {@code i} is one binutils does not read (a unit of .debug_types). */
    private boolean skipped(int i) {
        return dwarf.units().get(i).inTypes();
    }

    /** The index of the unit holding section offset {@code off} of .debug_info, or -1. */
    private int unitIndex(long off) {
        List<UnitHeader> hs = dwarf.units();
        int lo = 0;
        int hi = hs.size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            UnitHeader h = hs.get(mid);
            if (h.inTypes() || off >= h.end()) {
                lo = mid + 1;
            } else if (off < h.offset()) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -1;
    }

    /** The unit holding section offset {@code off} of .debug_info. */
    private Unit unitAt(long off) {
        int i = unitIndex(off);
        if (i < 0 || unit(i) == null) {
            throw new Unanswerable("a reference to 0x" + Long.toHexString(off) + " outside the units");
        }
        return unit(i);
    }

    /**
     * The units {@code .debug_aranges} says hold {@code pc}: where to look first. binutils reads
     * no aranges; the units found here are still asked only when their own ranges hold the
     * address, as binutils asks them, and every unit is when none of these answers.
     */
    private List<Unit> arangeUnits(long pc) {
        if (aranges == null) {
            aranges = readAranges();
        }
        long[] lo = aranges[0];
        long[] hi = aranges[1];
        long[] cu = aranges[2];
        int at = io.perfj.io.UnsignedSearch.floor(lo, pc);
        List<Unit> out = new ArrayList<>(1);
        // a few entries before the floor, for overlapping sets
        for (int k = at; k >= 0 && k > at - 8; k--) {
            if (Long.compareUnsigned(pc, hi[k]) < 0) {
                int i = unitIndex(cu[k]);
                Unit u = i < 0 ? null : unit(i);
                if (u != null && !out.contains(u)) {
                    out.add(u);
                }
            }
        }
        return out;
    }

    /** .debug_aranges as {lows, highs, unit offsets}, by low address; empty without one (or when unreadable). */
    private long[][] readAranges() {
        long[][] none = {new long[0], new long[0], new long[0]};
        Bytes b = SectionContents.section(elf, ".debug_aranges").orElse(null);
        if (b == null) {
            return none;
        }
        List<long[]> sets = new ArrayList<>();
        try {
            long off = 0;
            while (off + 4 <= b.size()) {
                Cursor c = b.cursor(off);
                InitialLength il = InitialLength.read(c);
                long len = il.length();
                boolean dwarf64 = il.dwarf64();
                long end = c.position() + len;
                if (len <= 0 || end > b.size()) {
                    return none;
                }
                c.u16();
                long cu = dwarf64 ? c.u64() : c.u32();
                int size = c.u8();
                int seg = c.u8();
                if (size != 4 && size != 8 || seg != 0) {
                    return none;
                }
                long p = c.position() - off;
                c.position(off + (p + 2L * size - 1) / (2L * size) * (2L * size));
                while (c.position() + 2L * size <= end) {
                    long a = address(c, size);
                    long n = address(c, size);
                    if (a == 0 && n == 0) {
                        break;
                    }
                    if (n != 0) {
                        sets.add(new long[] {a, a + n, cu});
                    }
                }
                off = end;
            }
        } catch (RuntimeException e) {
            return none;
        }
        sets.sort((x, y) -> Long.compareUnsigned(x[0], y[0]));
        long[][] out = {new long[sets.size()], new long[sets.size()], new long[sets.size()]};
        for (int i = 0; i < sets.size(); i++) {
            out[0][i] = sets.get(i)[0];
            out[1][i] = sets.get(i)[1];
            out[2][i] = sets.get(i)[2];
        }
        return out;
    }

    private long[][] aranges;

    /** binutils' arange list: the first range, then others inserted after it. */
    static final class Ranges {
        long[] low = new long[1];
        long[] high = new long[1];
        int n;

        /** arange_add: empty ranges are dropped, touching ones extended, others inserted second. */
        void add(long lo, long hi) {
            if (lo == hi) {
                return;
            }
            if (n == 0 || high[0] == 0) {
                low[0] = lo;
                high[0] = hi;
                n = Math.max(n, 1);
                return;
            }
            for (int i = 0; i < n; i++) {
                if (lo == high[i]) {
                    high[i] = hi;
                    return;
                }
                if (hi == low[i]) {
                    low[i] = lo;
                    return;
                }
            }
            if (n == low.length) {
                low = Arrays.copyOf(low, n * 2);
                high = Arrays.copyOf(high, n * 2);
            }
            System.arraycopy(low, 1, low, 2, n - 1);
            System.arraycopy(high, 1, high, 2, n - 1);
            low[1] = lo;
            high[1] = hi;
            n++;
        }

        boolean contains(long a) {
            for (int i = 0; i < n; i++) {
                if (Long.compareUnsigned(a, low[i]) >= 0 && Long.compareUnsigned(a, high[i]) < 0) {
                    return true;
                }
            }
            return false;
        }

        boolean isEmpty() {
            return n == 0 || high[0] == 0;
        }
    }

    /** A function DIE: subprogram, entry point or inlined subroutine. */
    static final class Func {
        final int tag;
        final long offset;
        final int index;
        Func caller;
        String name;
        boolean isLinkage;
        String callerFile;
        long callerLine;
        final Ranges ranges = new Ranges();
        long lowAddr;
        long highAddr;

        Func(int tag, long offset, int index) {
            this.tag = tag;
            this.offset = offset;
            this.index = index;
        }

        long low() {
            return ranges.n == 0 ? 0 : ranges.low[0];
        }
    }

    /** A row of a line sequence. */
    record Line(long address, String file, long line, long discriminator, boolean end) {
    }

    /** A line sequence: its rows by address and its (maybe trimmed) start. */
    static final class Sequence {
        long lowPc;
        final Line[] rows;
        final int index;

        Sequence(long lowPc, Line[] rows, int index) {
            this.lowPc = lowPc;
            this.rows = rows;
            this.index = index;
        }

        long last() {
            return rows[rows.length - 1].address;
        }
    }

    /** One compilation unit: its root's attributes, and once decoded its lines and functions. */
    final class Unit {
        final UnitHeader header;
        final Ranges ranges = new Ranges();
        /** Ranges binutils puts in its address trie besides the unit's own: its functions'. */
        final Ranges trie = new Ranges();
        int lang;
        String compDir;
        long stmtList = -1;
        long baseAddress;
        private boolean decoded;
        /** A unit without a line program (or without DIEs), which binutils finds nothing in. */
        private boolean noLines;
        // line table
        String[] dirs;
        String[] files;
        int[] fileDirs;
        boolean dirAndFile0;
        Sequence[] sequences;
        // functions
        Func[] funcs;
        Func[] lookup;

        Unit(UnitHeader h, DieCursor c) {
            this.header = h;
            int tag = c.next();
            if (tag <= 0) {
                noLines = true;
                decoded = true;
                return;
            }
            boolean compileUnit = tag == Dw.TAG_compile_unit;
            PcAttributes pc = new PcAttributes();
            for (int i = 0; i < c.attributeCount(); i++) {
                int at = c.attributeName(i);
                int form = c.form(i);
                switch (at) {
                    case Dw.AT_stmt_list -> {
                        if (isInt(form)) {
                            stmtList = c.value(i);
                        }
                    }
                    case Dw.AT_low_pc, Dw.AT_high_pc, Dw.AT_ranges -> {
                        pc.read(c, i, this, ranges);
                        if (at == Dw.AT_low_pc && compileUnit && isInt(form)) {
                            baseAddress = pc.low;
                        }
                    }
                    case Dw.AT_comp_dir -> {
                        String d = isStr(form) ? c.string(i) : null;
                        if (d != null) {
                            int colon = d.indexOf(':');
                            if (colon > 0 && d.charAt(colon - 1) == '.' && colon + 1 < d.length()
                                    && d.charAt(colon + 1) == '/') {
                                d = d.substring(colon + 1);
                            }
                        }
                        compDir = d;
                    }
                    case Dw.AT_language -> {
                        if (isInt(form)) {
                            lang = (int) c.value(i);
                        }
                    }
                    case AT_GNU_dwo_name, AT_dwo_name -> throw new Unanswerable("split DWARF");
                    default -> {
                    }
                }
            }
            pc.end(ranges);
        }

        boolean hasRanges() {
            return !ranges.isEmpty();
        }

        boolean contains(long pc) {
            return ranges.contains(pc) || trie.contains(pc);
        }

        /** binutils' comp_unit_maybe_decode_line_info: the line program, then the functions. */
        void decode() {
            if (decoded) {
                return;
            }
            if (stmtList < 0) {
                // binutils marks the unit in error: it never answers
                noLines = true;
                decoded = true;
                return;
            }
            decodeLines();
            scanFunctions();
            decoded = true;
        }

        // ---- line program, as binutils' decode_line_info ----

        private void decodeLines() {
            if (line == null || stmtList >= line.size()) {
                throw new Unanswerable("stmt_list outside .debug_line");
            }
            Cursor c = line.cursor(stmtList);
            InitialLength il = InitialLength.read(c);
            long length = il.length();
            boolean dwarf64 = il.dwarf64();
            if (il.reserved() || length == 0) {
                throw new Unanswerable("line program length");
            }
            long end = c.position() + length;
            if (length < 0 || end > line.size()) {
                throw new Unanswerable("line program past its section");
            }
            int version = c.u16();
            if (version < 2 || version > 5) {
                throw new Unanswerable("line program version " + version);
            }
            if (version >= 5) {
                c.u8();
                if (c.u8() != 0) {
                    throw new Unanswerable("segment selectors");
                }
            }
            long headerLength = dwarf64 ? c.u64() : c.u32();
            long programStart = c.position() + headerLength;
            int minInst = c.u8();
            int maxOps = version >= 4 ? c.u8() : 1;
            if (maxOps != 1) {
                throw new Unanswerable("VLIW line program");
            }
            c.u8(); // default_is_stmt: binutils keeps every row
            int lineBase = (byte) c.u8();
            int lineRange = c.u8();
            int opcodeBase = c.u8();
            if (lineRange == 0 || opcodeBase == 0) {
                throw new Unanswerable("line_range 0");
            }
            int[] stdLengths = new int[opcodeBase];
            for (int i = 1; i < opcodeBase; i++) {
                stdLengths[i] = c.u8();
            }
            List<String> dl = new ArrayList<>();
            List<String> fl = new ArrayList<>();
            List<Integer> fd = new ArrayList<>();
            if (version >= 5) {
                entries(c, dl, null, null, dwarf64);
                entries(c, null, fl, fd, dwarf64);
                dirAndFile0 = true;
            } else {
                for (String d; !(d = LineTable.cstr(c, end)).isEmpty(); ) {
                    dl.add(d);
                }
                for (String f; !(f = LineTable.cstr(c, end)).isEmpty(); ) {
                    fl.add(f);
                    fd.add((int) Leb128.unsigned(c));
                    Leb128.unsigned(c);
                    Leb128.unsigned(c);
                }
            }
            if (c.position() != programStart) {
                throw new Unanswerable("line program header of an unexpected length");
            }
            dirs = dl.toArray(new String[0]);
            files = fl.toArray(new String[0]);
            fileDirs = fd.stream().mapToInt(Integer::intValue).toArray();
            List<Sequence> seqs = new ArrayList<>();
            List<Line> rows = new ArrayList<>();
            while (c.position() < end) {
                long address = 0;
                String file = files.length > 0 ? fileName(dirAndFile0 ? 0 : 1) : null;
                long lineNo = 1;
                long disc = 0;
                boolean endSeq = false;
                rows.clear();
                while (!endSeq && c.position() < end) {
                    int op = c.u8();
                    if (op >= opcodeBase) {
                        int adj = op - opcodeBase;
                        address += (long) (adj / lineRange) * minInst;
                        lineNo = (lineNo + lineBase + adj % lineRange) & 0xffff_ffffL;
                        addRow(rows, new Line(address, nonEmpty(file), lineNo, disc, false));
                        disc = 0;
                    } else if (op == 0) {
                        long len = Leb128.unsigned(c);
                        long next = c.position() + len;
                        int sub = c.u8();
                        switch (sub) {
                            case 1 -> {
                                endSeq = true;
                                addRow(rows, new Line(address, nonEmpty(file), lineNo, disc, true));
                                disc = 0;
                            }
                            case 2 -> {
                                int size = header.addressSize();
                                address = size == 8 ? c.u64() : size == 4 ? c.u32() : c.u16();
                            }
                            case 3 -> throw new Unanswerable("DW_LNE_define_file");
                            case 4 -> disc = Leb128.unsigned(c) & 0xffff_ffffL;
                            case 0x80 -> c.position(next);
                            default -> throw new Unanswerable("extended line opcode " + sub);
                        }
                        if (sub != 0x80 && c.position() != next) {
                            throw new Unanswerable("extended line opcode of an unexpected length");
                        }
                    } else {
                        switch (op) {
                            case 1 -> {
                                addRow(rows, new Line(address, nonEmpty(file), lineNo, disc, false));
                                disc = 0;
                            }
                            case 2 -> address += Leb128.unsigned(c) * minInst;
                            case 3 -> lineNo = (lineNo + Leb128.signed(c)) & 0xffff_ffffL;
                            case 4 -> file = fileName(Leb128.unsigned(c) & 0xffff_ffffL);
                            case 5 -> Leb128.unsigned(c);
                            case 6, 7 -> {
                            }
                            case 8 -> address += (long) ((255 - opcodeBase) / lineRange) * minInst;
                            case 9 -> address += c.u16();
                            default -> {
                                for (int i = 0; i < stdLengths[op]; i++) {
                                    Leb128.unsigned(c);
                                }
                            }
                        }
                    }
                }
                if (!rows.isEmpty()) {
                    Line[] r = rows.toArray(new Line[0]);
                    long lo = Long.MAX_VALUE;
                    long hi = 0;
                    for (Line l : r) {
                        lo = Math.min(lo, l.address);
                        hi = Math.max(hi, l.address);
                    }
                    if (endSeq) {
                        ranges.add(lo, hi);
                    }
                    seqs.add(new Sequence(r[0].address, r, seqs.size()));
                }
            }
            // binutils' sort_line_sequences: by start, the longer first, the later first on ties
            Sequence[] s = seqs.toArray(new Sequence[0]);
            Arrays.sort(s, (a, b) -> {
                int k = Long.compareUnsigned(a.lowPc, b.lowPc);
                if (k != 0) {
                    return k;
                }
                k = Long.compareUnsigned(b.last(), a.last());
                return k != 0 ? k : Integer.compare(b.index, a.index);
            });
            List<Sequence> kept = new ArrayList<>();
            if (s.length > 0) {
                kept.add(s[0]);
                long lastHigh = s[0].last();
                for (int n = 1; n < s.length; n++) {
                    if (Long.compareUnsigned(s[n].lowPc, lastHigh) < 0) {
                        if (Long.compareUnsigned(s[n].last(), lastHigh) <= 0) {
                            continue;
                        }
                        s[n].lowPc = lastHigh;
                    }
                    lastHigh = s[n].last();
                    kept.add(s[n]);
                }
            }
            sequences = kept.toArray(new Sequence[0]);
        }

        /** binutils' add_line_info for rows in address order (out-of-order rows are not followed). */
        private static void addRow(List<Line> rows, Line l) {
            if (!rows.isEmpty()) {
                Line last = rows.get(rows.size() - 1);
                if (last.address == l.address && last.end == l.end) {
                    rows.set(rows.size() - 1, l);
                    return;
                }
                if (!l.end && Long.compareUnsigned(l.address, last.address) < 0) {
                    throw new Unanswerable("line rows out of address order");
                }
            }
            rows.add(l);
        }

        /** DWARF 5 directory or file entries as binutils' read_formatted_entries keeps them. */
        private void entries(Cursor c, List<String> dl, List<String> fl, List<Integer> fd, boolean dwarf64) {
            long[][] format = LineTable.entryFormat(c);
            long[] types = format[0];
            long[] forms = format[1];
            int formatCount = types.length;
            long count = Leb128.unsigned(c);
            if (count < 0 || count > c.remaining() || formatCount == 0 && count != 0) {
                throw new Unanswerable("line table entry count");
            }
            for (long n = 0; n < count; n++) {
                String path = null;
                long dir = 0;
                for (int i = 0; i < formatCount; i++) {
                    int form = (int) forms[i];
                    if (types[i] < 1 || types[i] > 5) {
                        throw new Unanswerable("line table content type " + types[i]);
                    }
                    if (form >= 0x1a && form <= 0x1b || form >= 0x25 && form <= 0x28) {
                        throw new Unanswerable("indexed strings in a line table");
                    }
                    Object v = LineTable.Forms.read(c, form, dwarf64, header.addressSize(), null, lineStr);
                    boolean str = form == Dw.FORM_string || form == Dw.FORM_line_strp;
                    boolean udata = form == Dw.FORM_data1 || form == Dw.FORM_data2 || form == Dw.FORM_data4
                            || form == Dw.FORM_data8 || form == Dw.FORM_udata;
                    if (types[i] == 1 && str) {
                        path = (String) v;
                    } else if (types[i] == 2 && udata) {
                        dir = (Long) v & 0xffff_ffffL;
                    }
                }
                if (dl != null) {
                    dl.add(path);
                } else {
                    fl.add(path);
                    fd.add((int) dir);
                }
            }
        }

        /** binutils' concat_filename. */
        String fileName(long file) {
            if (!dirAndFile0) {
                if (file == 0) {
                    return "<unknown>";
                }
                file--;
            }
            if (file < 0 || file >= files.length) {
                return "<unknown>";
            }
            String name = files[(int) file];
            if (name == null) {
                return "<unknown>";
            }
            if (name.startsWith("/")) {
                return name;
            }
            long dir = fileDirs[(int) file] & 0xffff_ffffL;
            if (!dirAndFile0) {
                dir = (dir - 1) & 0xffff_ffffL;
            }
            String sub = dir < dirs.length ? dirs[(int) dir] : null;
            String top = null;
            if (sub == null || !sub.startsWith("/")) {
                top = compDir;
            }
            if (top == null) {
                top = sub;
                sub = null;
            }
            if (top == null) {
                return name;
            }
            return sub != null ? top + "/" + sub + "/" + name : top + "/" + name;
        }

        /** binutils' lookup_address_in_line_info_table. */
        Line line(long pc) {
            int lo = 0;
            int hi = sequences.length;
            Sequence seq = null;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                seq = sequences[mid];
                if (Long.compareUnsigned(pc, seq.lowPc) < 0) {
                    hi = mid;
                } else if (Long.compareUnsigned(pc, seq.last()) >= 0) {
                    lo = mid + 1;
                } else {
                    break;
                }
            }
            if (seq == null || Long.compareUnsigned(pc, seq.lowPc) < 0 || Long.compareUnsigned(pc, seq.last()) >= 0) {
                return null;
            }
            Line[] rows = seq.rows;
            lo = 0;
            hi = rows.length;
            int mid = 0;
            Line info = null;
            while (lo < hi) {
                mid = (lo + hi) >>> 1;
                info = rows[mid];
                if (Long.compareUnsigned(pc, info.address) < 0) {
                    hi = mid;
                } else if (Long.compareUnsigned(pc, rows[mid + 1].address) >= 0) {
                    lo = mid + 1;
                } else {
                    break;
                }
            }
            if (info != null && Long.compareUnsigned(pc, info.address) >= 0 && mid + 1 < rows.length
                    && Long.compareUnsigned(pc, rows[mid + 1].address) < 0 && !info.end && mid != rows.length - 1) {
                return info;
            }
            return null;
        }

        // ---- functions, as binutils' scan_unit_for_symbols ----

        private void scanFunctions() {
            DieCursor c = dwarf.cursor(header);
            c.next(); // the unit's own DIE
            List<Func> fs = new ArrayList<>();
            List<long[]> attrs = new ArrayList<>();
            Func[] open = new Func[64];
            boolean ended = false;
            boolean any = false;
            for (int tag; (tag = c.next()) >= 0; ) {
                if (tag == 0) {
                    if (c.depth() < 1) {
                        ended = true;
                        break;
                    }
                    continue;
                }
                any = true;
                int depth = c.depth();
                if (depth >= open.length) {
                    open = Arrays.copyOf(open, depth * 2);
                }
                Func f = null;
                if (tag == Dw.TAG_subprogram || tag == TAG_entry_point || tag == Dw.TAG_inlined_subroutine) {
                    f = new Func(tag, c.offset(), fs.size());
                    if (tag == Dw.TAG_inlined_subroutine) {
                        for (int d = depth - 1; d >= 1; d--) {
                            if (open[d] != null) {
                                f.caller = open[d];
                                break;
                            }
                        }
                    }
                    fs.add(f);
                }
                open[depth] = f;
                if (c.hasChildren() && depth + 1 < open.length) {
                    open[depth + 1] = null;
                }
                if (f != null) {
                    attrs.add(funcAttributes(c, f));
                }
            }
            if (!ended && !any) {
                ended = true; // a unit without children
            }
            if (!ended) {
                throw new Unanswerable("a unit's DIEs end without their terminator");
            }
            funcs = fs.toArray(new Func[0]);
            // the origins' names, read where the references point (this unit's walk is over: its cursor seeks)
            Map<Unit, DieCursor> readers = new HashMap<>();
            readers.put(this, c);
            for (int i = 0; i < funcs.length; i++) {
                resolve(funcs[i], attrs.get(i), readers);
            }
            buildLookup();
        }

        /** The name attributes of the current DIE in order: {kind, value, form} triples; null without. */
        private long[] names(DieCursor c) {
            long[] out = null;
            int n = 0;
            for (int i = 0; i < c.attributeCount(); i++) {
                int at = c.attributeName(i);
                int kind;
                if (at == Dw.AT_name) {
                    kind = 1;
                } else if (at == AT_linkage_name || at == AT_MIPS_linkage_name) {
                    kind = 2;
                } else if (at == Dw.AT_specification) {
                    kind = 3;
                } else {
                    continue;
                }
                long v = value(c, i, kind);
                if (out == null) {
                    out = new long[9];
                }
                if (n + 3 > out.length) {
                    out = Arrays.copyOf(out, out.length * 2);
                }
                out[n++] = kind;
                out[n++] = v;
                out[n++] = c.form(i);
            }
            return out == null ? null : Arrays.copyOf(out, n);
        }

        /** A name's packed string reference (-1: not a string form) or a reference's target. */
        private long value(DieCursor c, int i, int kind) {
            int form = c.form(i);
            if (kind == 3 || kind == 4) {
                return refTarget(c, i);
            }
            if (!isStr(form)) {
                return -1;
            }
            if (form == Dw.FORM_GNU_strp_alt) {
                throw new Unanswerable("DW_FORM_GNU_strp_alt");
            }
            long r = c.stringRef(i);
            if (r < 0) {
                throw new Unanswerable("a string form this reader cannot follow");
            }
            return r;
        }

        private long refTarget(DieCursor c, int i) {
            int form = c.form(i);
            if (!isInt(form)) {
                return -1;
            }
            if (form == Dw.FORM_GNU_ref_alt || form == Dw.FORM_ref_sig8) {
                throw new Unanswerable("a reference this reader does not follow");
            }
            long t = c.ref(i);
            if (t < 0 || form != Dw.FORM_ref_addr && !isRef(form)) {
                throw new Unanswerable("an abstract origin of form 0x" + Integer.toHexString(form));
            }
            return t;
        }

        /** The attributes binutils reads of a function DIE, in order: {at, value, form} triples. */
        private long[] funcAttributes(DieCursor c, Func f) {
            PcAttributes pc = new PcAttributes();
            long[] out = new long[c.attributeCount() * 3];
            int n = 0;
            for (int i = 0; i < c.attributeCount(); i++) {
                int at = c.attributeName(i);
                int form = c.form(i);
                switch (at) {
                    case AT_call_file -> {
                        if (isInt(form)) {
                            f.callerFile = fileName(c.value(i) & 0xffff_ffffL);
                        }
                    }
                    case AT_call_line -> {
                        if (isInt(form)) {
                            f.callerLine = c.value(i) & 0xffff_ffffL;
                        }
                    }
                    case Dw.AT_abstract_origin, Dw.AT_specification -> {
                        long t = refTarget(c, i);
                        if (t >= 0) {
                            out[n++] = 4;
                            out[n++] = t;
                            out[n++] = form;
                        }
                    }
                    case Dw.AT_name -> {
                        out[n++] = 1;
                        out[n++] = value(c, i, 1);
                        out[n++] = form;
                    }
                    case AT_linkage_name, AT_MIPS_linkage_name -> {
                        out[n++] = 2;
                        out[n++] = value(c, i, 2);
                        out[n++] = form;
                    }
                    case Dw.AT_low_pc, Dw.AT_high_pc, Dw.AT_ranges -> pc.read(c, i, this, f.ranges);
                    default -> {
                    }
                }
            }
            pc.end(f.ranges);
            for (int i = 0; i < f.ranges.n; i++) {
                trie.add(f.ranges.low[i], f.ranges.high[i]);
            }
            return Arrays.copyOf(out, n);
        }

        /** A function's name from its attributes in order, as binutils' scan and find_abstract_instance. */
        private void resolve(Func f, long[] attrs, Map<Unit, DieCursor> readers) {
            for (int k = 0; k < attrs.length; k += 3) {
                int kind = (int) attrs[k];
                long v = attrs[k + 1];
                if (kind == 4) {
                    abstractInstance(this, v, (int) attrs[k + 2], f, 0, readers);
                } else if (kind == 1) {
                    if (f.name == null && v >= 0) {
                        f.name = dwarf.string(v);
                        if (mangleStyle(lang) == 0) {
                            f.isLinkage = true;
                        }
                    }
                } else if (kind == 2 && v >= 0) {
                    f.name = dwarf.string(v);
                    f.isLinkage = true;
                }
            }
        }

        /** binutils' build_lookup_funcinfo_table. */
        private void buildLookup() {
            Func[] t = funcs.clone();
            for (Func f : t) {
                long lo = f.ranges.n == 0 ? 0 : f.ranges.low[0];
                long hi = f.ranges.n == 0 ? 0 : f.ranges.high[0];
                for (int i = 1; i < f.ranges.n; i++) {
                    lo = Long.compareUnsigned(f.ranges.low[i], lo) < 0 ? f.ranges.low[i] : lo;
                    hi = Long.compareUnsigned(f.ranges.high[i], hi) > 0 ? f.ranges.high[i] : hi;
                }
                f.lowAddr = lo;
                f.highAddr = hi;
            }
            Arrays.sort(t, (a, b) -> {
                int k = Long.compareUnsigned(a.lowAddr, b.lowAddr);
                if (k != 0) {
                    return k;
                }
                k = Long.compareUnsigned(a.highAddr, b.highAddr);
                return k != 0 ? k : Integer.compare(a.index, b.index);
            });
            long[] high = new long[t.length];
            long h = 0;
            for (int i = 0; i < t.length; i++) {
                h = i == 0 || Long.compareUnsigned(t[i].highAddr, h) > 0 ? t[i].highAddr : h;
                high[i] = h;
            }
            lookup = t;
            lookupHigh = high;
        }

        long[] lookupHigh;

        /** binutils' lookup_address_in_function_table: the smallest range holding the address. */
        Func function(long pc) {
            int n = lookup.length;
            if (n == 0 || Long.compareUnsigned(lookupHigh[n - 1], pc) < 0) {
                return null;
            }
            int lo = 0;
            int hi = n;
            int first = n;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (Long.compareUnsigned(pc, lookup[mid].lowAddr) < 0) {
                    hi = mid;
                } else if (Long.compareUnsigned(pc, lookupHigh[mid]) >= 0) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                    first = mid;
                }
            }
            Func best = null;
            long bestLen = -1;
            for (; first < n; first++) {
                Func f = lookup[first];
                if (Long.compareUnsigned(pc, f.lowAddr) < 0) {
                    break;
                }
                Ranges r = f.ranges;
                for (int i = 0; i < Math.max(r.n, 1); i++) {
                    long l = r.n == 0 ? 0 : r.low[i];
                    long h = r.n == 0 ? 0 : r.high[i];
                    if (Long.compareUnsigned(pc, l) < 0 || Long.compareUnsigned(pc, h) >= 0) {
                        continue;
                    }
                    long len = h - l;
                    if (Long.compareUnsigned(len, bestLen) < 0 || len == bestLen && best != null && f.index > best.index) {
                        best = f;
                        bestLen = len;
                    }
                }
            }
            return best;
        }

        /** The name attributes of the DIE at {@code off} in this unit, read with its cursor in {@code readers}. */
        long[] namesAt(long off, Map<Unit, DieCursor> readers) {
            DieCursor r = readers.computeIfAbsent(this, u -> dwarf.cursor(u.header));
            return r.readAt(off) <= 0 ? null : names(r);
        }
    }

    /** binutils' find_abstract_instance: the name found at a referenced DIE (and its specification). */
    private void abstractInstance(Unit from, long target, int form, Func f, int depth, Map<Unit, DieCursor> readers) {
        if (depth == 100) {
            throw new Unanswerable("abstract instance recursion");
        }
        Unit u = from;
        if (form == Dw.FORM_ref_addr) {
            if (target == 0) {
                return;
            }
            if (target < from.header.offset() || target >= from.header.end()) {
                u = unitAt(target);
            }
        } else if (target <= from.header.offset() || target >= from.header.end()) {
            throw new Unanswerable("invalid abstract instance reference");
        }
        long[] attrs = u.namesAt(target, readers);
        if (attrs == null) {
            return;
        }
        for (int k = 0; k < attrs.length; k += 3) {
            int kind = (int) attrs[k];
            long v = attrs[k + 1];
            if (kind == 1) {
                if (f.name == null && v >= 0) {
                    f.name = dwarf.string(v);
                    if (mangleStyle(u.lang) == 0) {
                        f.isLinkage = true;
                    }
                }
            } else if (kind == 3) {
                if (v >= 0) {
                    abstractInstance(u, v, (int) attrs[k + 2], f, depth + 1, readers);
                }
            } else if (kind == 2 && v >= 0) {
                f.name = dwarf.string(v);
                f.isLinkage = true;
            }
        }
    }

    /** A DIE's low_pc, high_pc and ranges as binutils reads them. */
    private final class PcAttributes {
        long low;
        long high;
        boolean relative;

        /** Reads attribute {@code i}, one of the three; a range list goes to {@code into} at once. */
        void read(DieCursor c, int i, Unit u, Ranges into) {
            int form = c.form(i);
            if (c.attributeName(i) == Dw.AT_ranges && form == Dw.FORM_rnglistx) {
                throw new Unanswerable("DW_FORM_rnglistx");
            }
            if (!isInt(form)) {
                return;
            }
            switch (c.attributeName(i)) {
                case Dw.AT_low_pc -> low = intValue(c, i);
                case Dw.AT_high_pc -> {
                    high = intValue(c, i);
                    relative = form != Dw.FORM_addr;
                }
                default -> rangeList(u, into, c.value(i));
            }
        }

        /** The low/high pair, once the DIE's attributes are read. */
        void end(Ranges into) {
            if (relative) {
                high += low;
            }
            if (high != 0) {
                into.add(low, high);
            }
        }
    }

    /** binutils' read_rangelist: .debug_ranges before DWARF 5, .debug_rnglists from it. */
    private void rangeList(Unit u, Ranges into, long offset) {
        int size = u.header.addressSize();
        if (u.header.version() <= 4) {
            if (ranges == null || offset < 0 || offset > ranges.size()) {
                throw new Unanswerable("a range list outside .debug_ranges");
            }
            long base = u.baseAddress;
            Cursor c = ranges.cursor(offset);
            while (true) {
                if (2L * size > c.remaining()) {
                    throw new Unanswerable("a range list past its section");
                }
                long lo = address(c, size);
                long hi = address(c, size);
                if (lo == 0 && hi == 0) {
                    return;
                }
                if (lo == -1L && hi != -1L) {
                    base = hi;
                } else {
                    into.add(base + lo, base + hi);
                }
            }
        }
        if (rnglists == null || offset < 0 || offset >= rnglists.size()) {
            throw new Unanswerable("a range list outside .debug_rnglists");
        }
        long base = u.baseAddress;
        Cursor c = rnglists.cursor(offset);
        while (true) {
            int kind = c.u8();
            long lo;
            long hi;
            switch (kind) {
                case 0 -> {
                    return;
                }
                case 5 -> {
                    base = address(c, size);
                    continue;
                }
                case 7 -> {
                    lo = address(c, size);
                    hi = lo + Leb128.unsigned(c);
                }
                case 4 -> {
                    lo = base + Leb128.unsigned(c);
                    hi = base + Leb128.unsigned(c);
                }
                case 6 -> {
                    lo = address(c, size);
                    hi = address(c, size);
                }
                default -> throw new Unanswerable("range list entry " + kind);
            }
            into.add(lo, hi);
        }
    }

    private static String nonEmpty(String s) {
        return s == null || s.isEmpty() ? null : s;
    }

    private static long address(Cursor c, int size) {
        return switch (size) {
            case 8 -> c.u64();
            case 4 -> c.u32();
            default -> c.u16();
        };
    }

    /** An int-form attribute's value; addresses through .debug_addr for addrx forms. */
    private static long intValue(DieCursor c, int i) {
        long a = c.address(i);
        return a != DieCursor.NO_ADDRESS ? a : c.value(i);
    }

    /** binutils' is_int_form. */
    static boolean isInt(int form) {
        return switch (form) {
            case Dw.FORM_addr, Dw.FORM_data2, Dw.FORM_data4, Dw.FORM_data8, Dw.FORM_data1, Dw.FORM_flag,
                 Dw.FORM_sdata, Dw.FORM_udata, Dw.FORM_ref_addr, Dw.FORM_ref1, Dw.FORM_ref2, Dw.FORM_ref4,
                 Dw.FORM_ref8, Dw.FORM_ref_udata, Dw.FORM_sec_offset, Dw.FORM_flag_present, Dw.FORM_ref_sig8,
                 Dw.FORM_addrx, Dw.FORM_implicit_const, Dw.FORM_addrx1, Dw.FORM_addrx2, Dw.FORM_addrx3,
                 Dw.FORM_addrx4, Dw.FORM_GNU_ref_alt -> true;
            default -> false;
        };
    }

    private static boolean isRef(int form) {
        return form == Dw.FORM_ref1 || form == Dw.FORM_ref2 || form == Dw.FORM_ref4 || form == Dw.FORM_ref8
                || form == Dw.FORM_ref_udata;
    }

    /** binutils' is_str_form. */
    static boolean isStr(int form) {
        return switch (form) {
            case Dw.FORM_string, Dw.FORM_strp, Dw.FORM_strx, Dw.FORM_strx1, Dw.FORM_strx2, Dw.FORM_strx3,
                 Dw.FORM_strx4, Dw.FORM_line_strp, Dw.FORM_GNU_strp_alt -> true;
            default -> false;
        };
    }

    /** Zero for the languages binutils takes a plain DW_AT_name of as the linkage name (mangle_style). */
    static int mangleStyle(int lang) {
        return switch (lang) {
            case 0x0001, 0x0002, 0x0005, 0x0006, 0x0007, 0x0009, 0x000c, 0x000f, 0x0012, 0x001d, 0x8001, 0x8765,
                 0x8004, 0x8006, 0x8007 -> 0;
            default -> 1;
        };
    }
}
