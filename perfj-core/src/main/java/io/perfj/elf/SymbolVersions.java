package io.perfj.elf;

import io.perfj.io.Bytes;

import java.util.HashMap;
import java.util.Map;

/**
 * GNU symbol versioning: the .gnu.version array (one half-word per .dynsym entry) and the
 * version names defined in .gnu.version_d and required in .gnu.version_r.
 */
final class SymbolVersions {
    private final Bytes versym;
    private final Map<Integer, String> names;

    private SymbolVersions(Bytes versym, Map<Integer, String> names) {
        this.versym = versym;
        this.names = names;
    }

    static SymbolVersions read(ElfFile elf, SectionHeader dynsym) {
        Bytes versym = null;
        SectionHeader verdef = null;
        SectionHeader verneed = null;
        for (SectionHeader s : elf.sections()) {
            switch (s.type()) {
                case Elf.SHT_GNU_VERSYM -> {
                    if (s.link() == dynsym.index()) {
                        versym = elf.sectionData(s);
                    }
                }
                case Elf.SHT_GNU_VERDEF -> verdef = s;
                case Elf.SHT_GNU_VERNEED -> verneed = s;
                default -> {
                }
            }
        }
        if (versym == null) {
            return null;
        }
        Map<Integer, String> names = new HashMap<>();
        if (verdef != null) {
            readVerdef(elf, verdef, names);
        }
        if (verneed != null) {
            readVerneed(elf, verneed, names);
        }
        return new SymbolVersions(versym, names);
    }

    /** The raw .gnu.version entry of symbol {@code i}, or -1 when the array is too short. */
    int raw(int i) {
        long off = 2L * i;
        return versym.has(off, 2) ? versym.u16(off) : -1;
    }

    String name(int versionIndex) {
        return names.get(versionIndex);
    }

    private static void readVerdef(ElfFile elf, SectionHeader sec, Map<Integer, String> names) {
        Bytes d = elf.sectionData(sec);
        Bytes str = elf.sectionData(elf.section(sec.link(), "version definition strings"));
        long off = 0;
        // Bound the walk by the section size so vd_next loops cannot spin.
        for (long n = 0; n <= d.size() / 20; n++) {
            int flags = d.u16(off + 2);
            int ndx = d.u16(off + 4);
            int cnt = d.u16(off + 6);
            long aux = d.u32(off + 12);
            long next = d.u32(off + 16);
            if (cnt > 0) {
                long a = off + aux;
                String name = ElfFile.string(str, d.u32(a), "version name");
                if ((flags & Elf.VER_FLG_BASE) == 0) {
                    names.put(ndx & 0x7fff, name);
                }
            }
            if (next == 0) {
                return;
            }
            off += next;
        }
        throw d.error(off, "version definition chain does not end");
    }

    private static void readVerneed(ElfFile elf, SectionHeader sec, Map<Integer, String> names) {
        Bytes d = elf.sectionData(sec);
        Bytes str = elf.sectionData(elf.section(sec.link(), "version requirement strings"));
        long off = 0;
        long limit = d.size() / 16 + 1;
        long steps = 0;
        while (true) {
            int cnt = d.u16(off + 2);
            long aux = d.u32(off + 8);
            long next = d.u32(off + 12);
            long a = off + aux;
            for (int i = 0; i < cnt; i++) {
                if (++steps > limit) {
                    throw d.error(a, "version requirement chain does not end");
                }
                int other = d.u16(a + 6);
                names.put(other & 0x7fff, ElfFile.string(str, d.u32(a + 8), "version name"));
                long an = d.u32(a + 12);
                if (an == 0) {
                    break;
                }
                a += an;
            }
            if (next == 0) {
                return;
            }
            if (++steps > limit) {
                throw d.error(off, "version requirement chain does not end");
            }
            off += next;
        }
    }
}
