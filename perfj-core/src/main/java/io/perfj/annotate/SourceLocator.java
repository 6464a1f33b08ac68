package io.perfj.annotate;

import io.perfj.bpf.JitedLines;
import io.perfj.bpf.RecordedBpf;
import io.perfj.dwarf.LineTable;
import io.perfj.elf.ElfFile;
import io.perfj.perfdata.feature.BpfProg;
import io.perfj.symbols.Dso;
import io.perfj.symbols.DsoFinder;
import io.perfj.symbols.Symbol;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Where a function's code comes from in the source, looked up when asked (never while a
 * recording is read): the source position of the function's first instruction, from the same
 * tables annotate interleaves — an object's DWARF line table (found the way annotate finds it,
 * read once per object and kept), a BPF program's BTF line info (the record of the
 * sub-program's entry in its jited line info) or a jitdump's debug-info records.
 */
public final class SourceLocator {
    /** A source position and what it was read from ({@code "dwarf"}, {@code "btf"} or {@code "jitdump"}). */
    public record Place(String file, long line, long column, String from) {
        /** perf's srcline text: the file without its directories, a colon, the line. */
        public String srcline() {
            return file.substring(file.lastIndexOf('/') + 1) + ":" + line;
        }
    }

    /** The answer for one function: a place, or why there is none. */
    public record Answer(Place place, String reason) {
        static Answer none(String why) {
            return new Answer(null, why);
        }
    }

    private final DsoFinder finder;
    private final Supplier<RecordedBpf> bpf;
    private final Map<Dso, Object> tables = new ConcurrentHashMap<>();
    /** By object: the starts and ends of its ELF functions that have a size, by start. */
    private final Map<Dso, long[][]> sized = new ConcurrentHashMap<>();
    /** A user object's mapping of file offsets to the line table's addresses, by object. */
    private final Map<Dso, Annotate.CodeAddresses> addresses = new ConcurrentHashMap<>();
    private volatile RecordedBpf programs;

    /**
     * @param finder where an object's files are looked for
     * @param bpf    the recording's BPF programs and BTF, read on the first BPF question
     */
    public SourceLocator(DsoFinder finder, Supplier<RecordedBpf> bpf) {
        this.finder = finder;
        this.bpf = bpf;
    }

    /** The source position of the start of {@code sym} in {@code dso}. */
    public Answer find(Dso dso, Symbol sym) {
        if (dso == null || sym == null) {
            return Answer.none("no symbol");
        }
        if (sym.inlined()) {
            // an inlined function's symbol spans its caller's code: the caller's start says nothing of it
            return Answer.none("inlined function");
        }
        return switch (dso.kind()) {
            case BPF -> bpf(sym.start());
            case JIT_CODE -> jit(dso.jitCode(), sym.start());
            case USER -> elf(dso, codeAddress(dso, sym.start()));
            case KERNEL, KERNEL_MODULE, VDSO -> elf(dso, sym.start());
            default -> Answer.none("no code on disk for " + dso.shortName());
        };
    }

    /** {@link #at}'s answer for an address the object's line table has no row for. */
    public static final Place NO_ROW = new Place("??", 0, 0, "dwarf");

    /**
     * The line table row of the instruction at {@code mapIp} (the address within the object as
     * its symbols are kept: a user object's file offset): its place, {@link #NO_ROW} when the
     * object's line table does not cover it, or null when the object has no line table (or no
     * file). JIT code answers from its dump's debug info; BPF programs have no answer here.
     */
    public Place at(Dso dso, long mapIp) {
        if (dso == null) {
            return null;
        }
        return switch (dso.kind()) {
            case JIT_CODE -> jitAt(dso.jitCode(), mapIp);
            case USER -> rowAt(dso, addresses.computeIfAbsent(dso, this::codeAddresses).vaddr(mapIp));
            case KERNEL, KERNEL_MODULE, VDSO -> rowAt(dso, mapIp);
            default -> null;
        };
    }

    /**
     * Whether a function of the object's ELF symbol table that has a size covers the address
     * ({@code mapIp} as {@link #at} takes it). Where the line table has no row, addr2line then
     * names the function and perf prints {@code ??:0}; an address no function covers (a PLT
     * entry past a zero-sized {@code _init}) is not found at all, and perf falls back to the
     * symbol and offset it knows.
     */
    public boolean inSizedFunction(Dso dso, long mapIp) {
        long addr = objdumpAddress(dso, mapIp);
        long[][] f = sized.computeIfAbsent(dso, this::sizedFunctions);
        int i = io.perfj.io.UnsignedSearch.floor(f[0], addr);
        // functions may nest or overlap: look back while one could still reach the address
        for (; i >= 0; i--) {
            if (Long.compareUnsigned(addr, f[1][i]) < 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * The address objdump and the object's tables know {@code mapIp} by (perf's
     * {@code map__rip_2objdump}): a user object's virtual address, else {@code mapIp} itself.
     */
    public long objdumpAddress(Dso dso, long mapIp) {
        return dso.kind() == io.perfj.symbols.DsoKind.USER
                ? addresses.computeIfAbsent(dso, this::codeAddresses).vaddr(mapIp) : mapIp;
    }

    private long[][] sizedFunctions(Dso dso) {
        for (Path p : finder.elfCandidates(dso)) {
            if (!Files.isRegularFile(p)) {
                continue;
            }
            try (ElfFile f = ElfFile.open(p)) {
                var symtab = f.section(".symtab");
                if (symtab.isEmpty()) {
                    continue;
                }
                java.util.List<long[]> fs = new java.util.ArrayList<>();
                for (io.perfj.elf.ElfSymbol s : f.symbols(symtab.get())) {
                    if (s.type() == io.perfj.elf.Elf.STT_FUNC && s.size() > 0) {
                        fs.add(new long[] {s.value(), s.value() + s.size()});
                    }
                }
                fs.sort((a, b) -> Long.compareUnsigned(a[0], b[0]));
                long[][] out = new long[2][fs.size()];
                for (int i = 0; i < fs.size(); i++) {
                    out[0][i] = fs.get(i)[0];
                    out[1][i] = fs.get(i)[1];
                }
                return out;
            } catch (RuntimeException e) {
                // not an ELF we can read: try the next candidate
            }
        }
        return new long[2][0];
    }

    private Place rowAt(Dso dso, long addr) {
        if (!(tables.computeIfAbsent(dso, this::lineTable) instanceof LineTable t) || t.size() == 0) {
            return null;
        }
        LineTable.Row row = t.find(addr);
        return row == null ? NO_ROW : new Place(row.file(), row.line(), row.column(), "dwarf");
    }

    /**
     * JIT code's row: the dump's line entry, its file name as the runtime wrote it even when that
     * is no text (node 20's damaged names), as perf prints the {@code .debug_line} inject makes
     * of them.
     */
    private static Place jitAt(io.perfj.jit.JitCode code, long addr) {
        if (code == null) {
            return null;
        }
        io.perfj.jit.JitRecord.LineEntry e = jitLine(code, addr);
        return e == null ? null
                : new Place(e.file(), Integer.toUnsignedLong(e.line()), 0, "jitdump");
    }

    /**
     * The file-offset mapping of the first readable file of a user object (identity when none
     * is found, as {@link #codeAddress} falls back to the offset itself).
     */
    private Annotate.CodeAddresses codeAddresses(Dso dso) {
        for (Path p : finder.elfCandidates(dso)) {
            if (!Files.isRegularFile(p)) {
                continue;
            }
            try (ElfFile f = ElfFile.open(p)) {
                return Annotate.CodeAddresses.of(f, true);
            } catch (RuntimeException e) {
                // not an ELF we can read: try the next candidate
            }
        }
        return new Annotate.CodeAddresses(new long[0], new long[0], new long[0]);
    }

    /**
     * JIT code: the dump's debug-info record for the load (the runtime's own source positions,
     * e.g. node's {@code file.js:line}): the entry at the function's start, else its first one;
     * the symbol's address is where perf inject's image puts the code.
     */
    private static Answer jit(io.perfj.jit.JitCode code, long addr) {
        if (code == null) {
            return Answer.none("no JIT code for the object");
        }
        io.perfj.jit.JitRecord.LineEntry e = jitLine(code, addr);
        if (e == null) {
            // runtimes start their entries after the prologue (node's first is at its first
            // bytecode): the lowest one inside the code is the function's
            for (io.perfj.jit.JitRecord.LineEntry x : code.lines()) {
                if (Long.compareUnsigned(x.addr() - code.codeAddr(), code.codeSize()) < 0
                        && (e == null || Long.compareUnsigned(x.addr(), e.addr()) < 0)) {
                    e = x;
                }
            }
        }
        if (e == null) {
            return Answer.none("the jitdump has no debug info for the function");
        }
        if (!readable(e.file())) {
            // node 20 writes its debug-info records with names that shift the entries after them
            return Answer.none("the jitdump's debug info for the function is damaged (its file name is no text)");
        }
        return new Answer(new Place(e.file(), Integer.toUnsignedLong(e.line()), 0, "jitdump"), null);
    }

    /** The dump's line entry of the code at {@code addr}, where perf inject's image puts the code. */
    private static io.perfj.jit.JitRecord.LineEntry jitLine(io.perfj.jit.JitCode code, long addr) {
        return code.lineAt(code.codeAddr() + (addr - io.perfj.jit.JitCode.TEXT_OFFSET));
    }

    private static boolean readable(String file) {
        if (file.isEmpty()) {
            return false;
        }
        for (int i = 0; i < file.length(); i++) {
            char c = file.charAt(i);
            if (c < 0x20 || c == 0x7f || c == '\ufffd') {
                return false;
            }
        }
        return true;
    }

    /**
     * The address of a user object's symbol, which perf keeps as a file offset, through the
     * segments of the first file holding its code (what the line table is keyed by; the two
     * differ in LLD's layout). The offset itself when no file has the code.
     */
    private long codeAddress(Dso dso, long offset) {
        for (Path p : finder.elfCandidates(dso)) {
            if (!Files.isRegularFile(p)) {
                continue;
            }
            try (ElfFile f = ElfFile.open(p)) {
                long vaddr = Annotate.CodeAddresses.of(f, true).vaddr(offset);
                if (Annotate.hasCode(f, vaddr)) {
                    return vaddr;
                }
            } catch (RuntimeException e) {
                // not an ELF we can read: try the next candidate
            }
        }
        return offset;
    }

    private Answer elf(Dso dso, long addr) {
        Object t = tables.computeIfAbsent(dso, this::lineTable);
        if (t instanceof String why) {
            return Answer.none(why);
        }
        LineTable.Row row = ((LineTable) t).find(addr);
        if (row == null || row.line() == 0) {
            return Answer.none("no line table row for the function's start");
        }
        return new Answer(new Place(row.file(), row.line(), row.column(), "dwarf"), null);
    }

    /**
     * The line table of the first candidate file that has one, or the reason there is none (a
     * file that cannot be read is passed over, as annotate does, and named if nothing else has one).
     */
    private Object lineTable(Dso dso) {
        String damaged = null;
        for (Path p : finder.elfCandidates(dso)) {
            if (!Files.isRegularFile(p)) {
                continue;
            }
            try (ElfFile f = ElfFile.open(p)) {
                if (f.section(".debug_line").isPresent()) {
                    return LineTable.of(f);
                }
            } catch (RuntimeException e) {
                if (damaged == null) {
                    damaged = "cannot read the line table of " + p.getFileName() + ": " + e.getMessage();
                }
            }
        }
        return damaged != null ? damaged : "no DWARF line table found for " + dso.shortName();
    }

    private Answer bpf(long addr) {
        RecordedBpf rb = programs;
        if (rb == null) {
            rb = bpf.get();
            programs = rb;
        }
        for (BpfProg p : rb.programs()) {
            int func = BpfSource.subprogram(p, addr);
            if (func < 0) {
                continue;
            }
            OptionalInt rec = JitedLines.of(p).lineRecordAt(addr);
            if (rec.isEmpty()) {
                return Answer.none("the program has no jited line info");
            }
            BpfSource.Strings strings = BpfSource.Strings.of(rb.btf(p.info().btfId()).orElse(null));
            if (strings == null) {
                return Answer.none("BTF id " + p.info().btfId() + " is not in the recording");
            }
            BpfProg.LineInfo li = p.lineInfo().get(rec.getAsInt());
            String file = strings.at(li.fileNameOff());
            return file == null ? Answer.none("line info names no file")
                    : new Answer(new Place(file, li.line(), li.column(), "btf"), null);
        }
        return Answer.none("the recording has no BPF program info for it");
    }
}
