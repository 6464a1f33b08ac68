package io.perfj.elf;

import io.perfj.io.Bytes;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Decodes the entries of a SHT_SYMTAB / SHT_DYNSYM section. */
final class ElfSymbolReader {
    private ElfSymbolReader() {
    }

    static List<ElfSymbol> read(ElfFile elf, SectionHeader sec) {
        boolean is64 = elf.is64();
        int entsize = is64 ? 24 : 16;
        Bytes data = elf.sectionData(sec);
        if (sec.entsize() != 0 && sec.entsize() != entsize) {
            throw data.error(0, "symbol entry size " + sec.entsize() + " (expected " + entsize + ")");
        }
        long n = data.size() / entsize;
        Bytes strtab = elf.sectionData(elf.section(sec.link(), "string table of " + sec.name()));
        SymbolVersions versions = sec.type() == Elf.SHT_DYNSYM ? SymbolVersions.read(elf, sec) : null;
        Bytes shndxTable = null;
        for (SectionHeader s : elf.sections()) {
            if (s.type() == Elf.SHT_SYMTAB_SHNDX && s.link() == sec.index()) {
                shndxTable = elf.sectionData(s);
            }
        }
        List<ElfSymbol> out = new ArrayList<>((int) Math.min(n, 1 << 20));
        for (int i = 0; i < n; i++) {
            long off = (long) i * entsize;
            long nameOff = data.u32(off);
            long value;
            long size;
            int info;
            int other;
            int shndx;
            if (is64) {
                info = data.u8(off + 4);
                other = data.u8(off + 5);
                shndx = data.u16(off + 6);
                value = data.u64(off + 8);
                size = data.u64(off + 16);
            } else {
                value = data.u32(off + 4);
                size = data.u32(off + 8);
                info = data.u8(off + 12);
                other = data.u8(off + 13);
                shndx = data.u16(off + 14);
            }
            if (shndx == Elf.SHN_XINDEX && shndxTable != null && shndxTable.has(4L * i, 4)) {
                shndx = shndxTable.s32(4L * i);
            }
            String name = nameOff == 0 ? "" : ElfFile.string(strtab, nameOff, "symbol name");
            String version = null;
            boolean hidden = false;
            if (versions != null) {
                int raw = versions.raw(i);
                if (raw > 1) {
                    version = versions.name(raw & 0x7fff);
                    hidden = (raw & Elf.VERSYM_HIDDEN) != 0;
                }
            }
            out.add(new ElfSymbol(i, name, value, size, info, other, shndx, version, hidden));
        }
        return Collections.unmodifiableList(out);
    }
}
