package io.perfj.symbols;

import io.perfj.elf.Elf;
import io.perfj.elf.ElfFile;
import io.perfj.elf.ElfSymbol;
import io.perfj.elf.ProgramHeader;
import io.perfj.elf.SectionHeader;
import io.perfj.io.Bytes;
import io.perfj.io.FormatException;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongFunction;

/**
 * The symbols perf 7.2 makes for an object's procedure linkage table ({@code
 * dso__synthesize_plt_symbols}, tools/perf/util/symbol-elf.c), at file offsets like the ELF
 * symbols:
 * <ul>
 * <li>{@code .plt}, the lazy PLT's header entry, or all of .plt when .plt.sec holds the entries
 * (x86 IBT), or nothing when .plt has one entry per .rela.plt relocation (no header);</li>
 * <li>on x86, one per .plt.got entry: {@code NAME@plt} after the .rela.dyn relocation of the GOT
 * slot its {@code jmp *slot(%rip)} reads (x86-64 only), else {@code offset_0xOFF@plt};</li>
 * <li>one {@code NAME@plt} per .rela.plt/.rel.plt relocation, from .plt.sec or after .plt's header,
 * in the order of their GOT slots on x86. A relocation without a symbol (an R_X86_64_IRELATIVE
 * one) takes the name of the symbol at its addend, the IFUNC, else {@code offset_0xOFF@plt}.</li>
 * </ul>
 * The symbol that perf's fix-ups stretched over the start of .plt (typically {@code _init}, which
 * has no size) is cut there ({@link #cutAt}), so that it does not cover the PLT.
 *
 * @param symbols the synthesized symbols, in perf's insertion order
 * @param cutAt   .plt's offset, where a symbol running into it ends; -1 for none
 */
record PltSymbols(List<Symbol> symbols, long cutAt) {
    static final PltSymbols NONE = new PltSymbols(List.of(), -1);
    private static final int R_X86_64_IRELATIVE = 37;
    private static final byte[] ENDBR64 = {(byte) 0xf3, 0x0f, 0x1e, (byte) 0xfa};

    /**
     * The PLT symbols of {@code elf} (the runtime object); {@code symbolAt} names the ELF symbol
     * that starts at a file offset (null: none), for IFUNC relocations; {@code names} demangles
     * the entries' symbols.
     */
    static PltSymbols of(ElfFile elf, LongFunction<String> symbolAt, Demangling names) {
        try {
            return synthesize(elf, symbolAt, names);
        } catch (FormatException e) {
            return NONE;
        }
    }

    private static PltSymbols synthesize(ElfFile elf, LongFunction<String> symbolAt, Demangling names) {
        SectionHeader plt = elf.section(".plt").orElse(null);
        if (plt == null) {
            return NONE;
        }
        long cut = plt.offset();
        int machine = elf.machine();
        boolean x86 = machine == Elf.EM_X86_64 || machine == Elf.EM_386;
        long[] sizes = sizes(machine, plt);
        if (sizes == null) {
            return new PltSymbols(List.of(), cut);
        }
        List<Symbol> out = new ArrayList<>();
        out.add(new Symbol(plt.offset(), plt.offset() + sizes[0], ".plt", 'G'));
        // symbol tables by section index, each read once (.rela.dyn and .rela.plt share .dynsym)
        Map<Integer, List<ElfSymbol>> tables = new HashMap<>();
        if (x86) {
            pltGot(elf, out, tables, names);
        }
        long entry = sizes[1];
        long at;
        Optional<SectionHeader> sec = x86 ? elf.section(".plt.sec") : Optional.empty();
        if (sec.isPresent()) {
            long[] secSizes = sizes(machine, sec.get());
            if (secSizes == null) {
                return new PltSymbols(out, cut);
            }
            entry = secSizes[1];
            out.set(0, new Symbol(plt.offset(), plt.offset() + plt.size(), ".plt", 'G'));
            at = sec.get().offset();
        } else {
            at = plt.offset();
        }
        SectionHeader rel = elf.section(".rela.plt").or(() -> elf.section(".rel.plt")).orElse(null);
        if (rel == null || rel.type() != Elf.SHT_RELA && rel.type() != Elf.SHT_REL || rel.link() == 0) {
            return new PltSymbols(out, cut);
        }
        List<ElfSymbol> syms = linkedSymbols(elf, rel, tables);
        if (syms == null || rel.entsize() == 0) {
            return new PltSymbols(out, cut);
        }
        boolean rela = rel.type() == Elf.SHT_RELA;
        Relocations r = Relocations.read(elf, rel, rela, rel.size() / rel.entsize());
        if (sec.isEmpty()) {
            // a .plt with as many entries as relocations is not lazy: it has no header
            if (r.n * entry == plt.size()) {
                out.remove(0);
            } else {
                at += sizes[0];
            }
        }
        int[] order = x86 ? r.byOffset() : r.inOrder();
        for (int k : order) {
            int symIdx = r.symbol(k);
            String raw = symIdx >= 0 && symIdx < syms.size() ? syms.get(symIdx).name() : "";
            String name;
            if (!raw.isEmpty()) {
                name = names.demangle(raw) + "@plt";
            } else {
                String ifunc = machine == Elf.EM_X86_64 && rela && r.type(k) == R_X86_64_IRELATIVE
                        ? ifuncName(elf, r.addend[k], symbolAt) : null;
                name = ifunc != null ? ifunc + "@plt" : "offset_" + hex(at) + "@plt";
            }
            out.add(new Symbol(at, at + entry, name, 'G'));
            at += entry;
        }
        return new PltSymbols(out, cut);
    }

    /** {header, entry} sizes of a PLT section as perf assumes them, or null when unknown. */
    private static long[] sizes(int machine, SectionHeader s) {
        long header;
        long entry;
        switch (machine) {
            case Elf.EM_ARM -> {
                header = 20;
                entry = 12;
            }
            case Elf.EM_AARCH64, 258 /* EM_LOONGARCH */ -> {
                header = 32;
                entry = 16;
            }
            case 2 /* EM_SPARC */ -> {
                header = 48;
                entry = 12;
            }
            case 43 /* EM_SPARCV9 */ -> {
                header = 128;
                entry = 32;
            }
            case Elf.EM_386, Elf.EM_X86_64 -> {
                entry = s.entsize() == 8 || s.entsize() == 16 ? s.entsize() : s.addralign() == 8 ? 8 : 16;
                header = entry;
            }
            default -> {
                header = s.entsize();
                entry = s.entsize();
            }
        }
        return entry == 0 ? null : new long[] {header, entry};
    }

    /** The symbol table a relocation section refers to: .dynsym, or .symtab (a static executable's IFUNCs). */
    private static List<ElfSymbol> linkedSymbols(ElfFile elf, SectionHeader rel, Map<Integer, List<ElfSymbol>> tables) {
        Optional<SectionHeader> dynsym = elf.dynsymSection();
        if (dynsym.isPresent() && dynsym.get().index() == rel.link()) {
            return symbols(elf, dynsym.get(), tables);
        }
        Optional<SectionHeader> symtab = elf.symtabSection();
        if (symtab.isPresent() && symtab.get().index() == rel.link()) {
            return symbols(elf, symtab.get(), tables);
        }
        return null;
    }

    private static List<ElfSymbol> symbols(ElfFile elf, SectionHeader table, Map<Integer, List<ElfSymbol>> tables) {
        return tables.computeIfAbsent(table.index(), k -> elf.symbols(table));
    }

    /** The .plt.got entries, named after the relocation of the GOT slot each one jumps through. */
    private static void pltGot(ElfFile elf, List<Symbol> out, Map<Integer, List<ElfSymbol>> tables, Demangling names) {
        SectionHeader got = elf.section(".plt.got").orElse(null);
        if (got == null || got.entsize() == 0 || got.isNoBits()) {
            return;
        }
        Bytes code = elf.sectionData(got);
        long[] slots = null;
        int[] slotSymbol = null;
        List<ElfSymbol> syms = null;
        SectionHeader relaDyn = elf.machine() == Elf.EM_X86_64 ? elf.section(".rela.dyn").orElse(null) : null;
        if (relaDyn != null && relaDyn.link() != 0 && relaDyn.entsize() != 0
                && Integer.compareUnsigned(relaDyn.link(), elf.sections().size()) < 0
                && elf.sections().get(relaDyn.link()).link() != 0) {
            syms = symbols(elf, elf.sections().get(relaDyn.link()), tables);
            Relocations r = Relocations.read(elf, relaDyn, true, relaDyn.size() / relaDyn.entsize());
            int[] order = r.byOffset();
            slots = new long[order.length];
            slotSymbol = new int[order.length];
            int m = 0;
            for (int k : order) {
                if (r.symbol(k) != 0) {
                    slots[m] = r.offset[k];
                    slotSymbol[m++] = r.symbol(k);
                }
            }
            slots = Arrays.copyOf(slots, m);
        }
        for (long i = 0; Long.compareUnsigned(i, got.size()) < 0; i += got.entsize()) {
            long start = got.offset() + i;
            String name = null;
            long disp = slots == null ? 0 : jumpDisplacement(code, i);
            if (disp != 0) {
                int at = Arrays.binarySearch(slots, start + disp);
                int symIdx = at >= 0 ? slotSymbol[at] : -1;
                String raw = symIdx >= 0 && symIdx < syms.size() ? syms.get(symIdx).name() : "";
                if (!raw.isEmpty()) {
                    name = names.demangle(raw) + "@plt";
                }
            }
            out.add(new Symbol(start, start + got.entsize(), name != null ? name : "offset_" + hex(start) + "@plt", 'G'));
        }
    }

    /**
     * The distance from a .plt.got entry's start to the GOT slot its {@code jmp *disp32(%rip)}
     * reads (after an optional endbr64 and bnd prefix), as a 32-bit sum; 0 for another instruction.
     * It is measured as perf does, from the entry's file offset, which is its address too where
     * the text segment starts at offset 0 (GNU ld's layouts).
     */
    private static long jumpDisplacement(Bytes code, long i) {
        int n = 0;
        if (code.has(i, 4) && Arrays.equals(code.bytes(i, 4), ENDBR64)) {
            n += 4;
        }
        if (code.has(i + n, 1) && code.u8(i + n) == 0xf2) {
            n++;
        }
        if (!code.has(i + n, 6) || code.u8(i + n) != 0xff || code.u8(i + n + 1) != 0x25) {
            return 0;
        }
        return (n + 6 + code.u32(i + n + 2)) & 0xffffffffL;
    }

    /** The name of the symbol at the IFUNC address an IRELATIVE relocation's addend holds, or null. */
    private static String ifuncName(ElfFile elf, long addr, LongFunction<String> symbolAt) {
        for (ProgramHeader p : elf.programHeaders()) {
            if (p.isLoad() && p.containsVaddr(addr)) {
                return symbolAt.apply(addr - (p.vaddr() - p.offset()));
            }
        }
        return null;
    }

    /** perf's {@code %#lx}: 0x-prefixed hex, plain 0 for zero. */
    private static String hex(long v) {
        return v == 0 ? "0" : "0x" + Long.toHexString(v);
    }

    /** A relocation section's entries as columns. */
    private static final class Relocations {
        final int n;
        final long[] offset;
        final long[] info;
        final long[] addend;
        private final boolean is64;

        private Relocations(int n, boolean is64) {
            this.n = n;
            this.is64 = is64;
            offset = new long[n];
            info = new long[n];
            addend = new long[n];
        }

        /** The first {@code count} entries (those the data holds), read at the standard entry size. */
        static Relocations read(ElfFile elf, SectionHeader s, boolean rela, long count) {
            boolean is64 = elf.is64();
            long size = is64 ? (rela ? 24 : 16) : (rela ? 12 : 8);
            Bytes data = elf.sectionData(s);
            int n = (int) Math.max(0, Math.min(count, Math.min(data.size() / size, 1 << 24)));
            Relocations r = new Relocations(n, is64);
            for (int i = 0; i < n; i++) {
                long at = i * size;
                if (is64) {
                    r.offset[i] = data.u64(at);
                    r.info[i] = data.u64(at + 8);
                    r.addend[i] = rela ? data.u64(at + 16) : 0;
                } else {
                    r.offset[i] = data.u32(at);
                    r.info[i] = data.u32(at + 4);
                    r.addend[i] = rela ? data.s32(at + 8) : 0;
                }
            }
            return r;
        }

        int symbol(int i) {
            long s = is64 ? info[i] >>> 32 : info[i] >>> 8;
            return s > Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) s;
        }

        int type(int i) {
            return (int) (is64 ? info[i] & 0xffffffffL : info[i] & 0xff);
        }

        int[] inOrder() {
            int[] o = new int[n];
            for (int i = 0; i < n; i++) {
                o[i] = i;
            }
            return o;
        }

        /** Positions by unsigned GOT slot offset, equal ones in section order. */
        int[] byOffset() {
            return SymbolTable.stableOrder(offset, n);
        }
    }
}
