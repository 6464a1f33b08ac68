package io.perfj.elf;

import io.perfj.io.Bytes;

import java.util.ArrayList;
import java.util.List;

/** One ELF note (n_namesz, n_descsz, n_type, name, desc). */
public record ElfNote(String name, int type, byte[] desc) {

    public boolean isGnuBuildId() {
        return type == Elf.NT_GNU_BUILD_ID && name.equals("GNU");
    }

    /** Parses a note section or segment; {@code align} is 4 or 8. */
    static List<ElfNote> parse(Bytes b, long align) {
        long a = align == 8 ? 8 : 4;
        List<ElfNote> out = new ArrayList<>();
        long off = 0;
        while (b.size() - off >= 12) {
            long namesz = b.u32(off);
            long descsz = b.u32(off + 4);
            int type = b.s32(off + 8);
            long nameOff = off + 12;
            long descOff = alignUp(nameOff + namesz, a);
            if (namesz > b.size() || descsz > b.size()) {
                throw b.error(off, "note sizes " + namesz + "/" + descsz + " exceed the " + b.size() + "-byte note area");
            }
            b.check(nameOff, namesz);
            String name = namesz == 0 ? "" : b.cstring(nameOff, namesz);
            byte[] desc = b.bytes(descOff, descsz);
            out.add(new ElfNote(name, type, desc));
            off = alignUp(descOff + descsz, a);
        }
        return out;
    }

    private static long alignUp(long v, long a) {
        return (v + a - 1) & -a;
    }
}
