package io.perfj.elf;

import io.perfj.io.Bytes;

/** One section header, with its name resolved from the section name string table. */
public record SectionHeader(int index, String name, long nameOffset, int type, long flags, long addr,
                            long offset, long size, int link, int info, long addralign, long entsize) {

    public boolean isAlloc() {
        return (flags & Elf.SHF_ALLOC) != 0;
    }

    public boolean isNoBits() {
        return type == Elf.SHT_NOBITS;
    }

    /** Whether the section's file range is [offset, offset+size) with content. */
    public boolean hasFileData() {
        return type != Elf.SHT_NOBITS && type != Elf.SHT_NULL;
    }

    SectionHeader withName(String n) {
        return new SectionHeader(index, n, nameOffset, type, flags, addr, offset, size, link, info, addralign, entsize);
    }

    static SectionHeader read(Bytes b, long off, int index, boolean is64) {
        if (is64) {
            return new SectionHeader(index, "", b.u32(off), b.s32(off + 4), b.u64(off + 8), b.u64(off + 16),
                    b.u64(off + 24), b.u64(off + 32), b.s32(off + 40), b.s32(off + 44), b.u64(off + 48),
                    b.u64(off + 56));
        }
        return new SectionHeader(index, "", b.u32(off), b.s32(off + 4), b.u32(off + 8), b.u32(off + 12),
                b.u32(off + 16), b.u32(off + 20), b.s32(off + 24), b.s32(off + 28), b.u32(off + 32),
                b.u32(off + 36));
    }
}
