package io.perfj.elf;

import io.perfj.io.Bytes;

/** One program header (segment) entry. */
public record ProgramHeader(int index, int type, int flags, long offset, long vaddr, long paddr,
                            long filesz, long memsz, long align) {

    public boolean isLoad() {
        return type == Elf.PT_LOAD;
    }

    /** Whether {@code addr} lies in [p_vaddr, p_vaddr + max(p_memsz, p_filesz)), as perf checks. */
    public boolean containsVaddr(long addr) {
        long sz = Long.compareUnsigned(memsz, filesz) >= 0 ? memsz : filesz;
        return sz != 0 && Long.compareUnsigned(addr, vaddr) >= 0 && Long.compareUnsigned(addr - vaddr, sz) < 0;
    }

    static ProgramHeader read(Bytes b, long off, int index, boolean is64) {
        if (is64) {
            return new ProgramHeader(index, b.s32(off), b.s32(off + 4), b.u64(off + 8), b.u64(off + 16),
                    b.u64(off + 24), b.u64(off + 32), b.u64(off + 40), b.u64(off + 48));
        }
        return new ProgramHeader(index, b.s32(off), b.s32(off + 24), b.u32(off + 4), b.u32(off + 8),
                b.u32(off + 12), b.u32(off + 16), b.u32(off + 20), b.u32(off + 28));
    }
}
