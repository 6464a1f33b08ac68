package io.perfj.btf.encode;

import io.perfj.elf.Elf;
import io.perfj.elf.ElfFile;
import io.perfj.elf.ElfSymbol;
import io.perfj.elf.SectionHeader;
import io.perfj.elf.SectionRelocations;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What the encoder needs from the ELF file besides DWARF, gathered once: the names of STT_FUNC
 * symbols (pahole 1.24 emits a function only when the symbol table has its name, and each name
 * once), the per-CPU section and its symbols, and the sections variables can live in.
 */
final class ElfContext {
    static final String PERCPU_SECTION = ".data..percpu";

    final boolean hasSymtab;
    final boolean isRel;
    final boolean little;
    /** Pool ids of every STT_FUNC symbol name; empty means "external functions only". */
    final Set<Integer> funcNames = new HashSet<>();
    final int percpuShndx;
    final long percpuAddr;
    final long percpuSize;
    /** Per-CPU symbols sorted by section-relative address. */
    final long[] percpuSymAddr;
    final int[] percpuSymSize;
    final int[] percpuSymName;
    final List<SectionHeader> sections;
    /** Each section's address as the DWARF sees it (laid out for ET_REL: {@link SectionRelocations#addresses}). */
    final long[] sectionAddr;
    /** (section index << 32 | pool id) of every STT_OBJECT symbol, for --vars all. */
    final Set<Long> objectsBySection = new HashSet<>();

    ElfContext(ElfFile elf, StringPool pool, EncodeOptions.Vars vars) {
        this.isRel = elf.type() == Elf.ET_REL;
        this.little = elf.order() == java.nio.ByteOrder.LITTLE_ENDIAN;
        this.sections = elf.sections();
        this.sectionAddr = SectionRelocations.addresses(elf);
        SectionHeader symtab = elf.section(".symtab").orElse(null);
        this.hasSymtab = symtab != null;
        SectionHeader percpu = elf.section(PERCPU_SECTION).orElse(null);
        this.percpuShndx = percpu == null ? 0 : percpu.index();
        this.percpuAddr = percpu == null ? 0 : sectionAddr[percpu.index()];
        this.percpuSize = percpu == null ? 0 : percpu.size();
        List<long[]> pcpu = new ArrayList<>();
        if (symtab != null) {
            for (ElfSymbol s : elf.symbols(symtab)) {
                if (s.type() == Elf.STT_FUNC && !s.name().isEmpty()) {
                    funcNames.add(pool.intern(s.name()));
                }
                if (s.type() == Elf.STT_OBJECT) {
                    if (vars == EncodeOptions.Vars.ALL && !s.name().isEmpty()) {
                        objectsBySection.add((long) s.shndx() << 32 | pool.intern(s.name()));
                    }
                    if (vars == EncodeOptions.Vars.PERCPU && percpuShndx != 0 && s.shndx() == percpuShndx
                            && s.size() != 0 && Names.btfNameValid(s.name())) {
                        long addr = isRel ? s.value() : s.value() - percpuAddr;
                        pcpu.add(new long[] {addr, s.size(), pool.intern(s.name())});
                    }
                }
            }
        }
        pcpu.sort((a, b) -> Long.compare(a[0], b[0]));
        percpuSymAddr = new long[pcpu.size()];
        percpuSymSize = new int[pcpu.size()];
        percpuSymName = new int[pcpu.size()];
        for (int i = 0; i < pcpu.size(); i++) {
            percpuSymAddr[i] = pcpu.get(i)[0];
            percpuSymSize[i] = (int) pcpu.get(i)[1];
            percpuSymName[i] = (int) pcpu.get(i)[2];
        }
    }

    /** Index of a per-CPU symbol at section-relative {@code addr}, or -1. */
    int percpuSymbolAt(long addr) {
        int i = Arrays.binarySearch(percpuSymAddr, addr);
        if (i < 0) {
            return -1;
        }
        while (i > 0 && percpuSymAddr[i - 1] == addr) {
            i--;
        }
        return i;
    }

    /**
     * The first PROGBITS or NOBITS section holding {@code addr}, or 0 (pahole's get_elf_section);
     * in a relocatable object only allocated sections have addresses.
     */
    int sectionOf(long addr) {
        for (int i = 1; i < sections.size(); i++) {
            SectionHeader s = sections.get(i);
            if (s.type() != Elf.SHT_PROGBITS && s.type() != Elf.SHT_NOBITS) {
                continue;
            }
            if (isRel && !s.isAlloc()) {
                continue; // not laid out: it would claim the addresses from 0 of the first allocated ones
            }
            long start = sectionAddr[i];
            if (Long.compareUnsigned(start, addr) <= 0 && Long.compareUnsigned(addr - start, s.size()) < 0) {
                return i;
            }
        }
        return 0;
    }
}
