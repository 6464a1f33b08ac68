package io.perfj.dwarf.info;

import java.lang.foreign.MemorySegment;

/**
 * One DWARF section's bytes, copied to the heap (decompressed when the ELF section was
 * compressed): DIE walks read plain arrays, which the JIT compiles to the tightest loops.
 *
 * @param name       the ELF section name, for error messages
 * @param bytes      the (uncompressed) contents
 * @param fileOffset where the section starts in the file, or -1 when it was decompressed, so
 *                   error offsets are reported relative to the section instead
 */
public record DwarfSection(String name, byte[] bytes, long fileOffset) {
    static final DwarfSection EMPTY = new DwarfSection("", new byte[0], -1);

    public MemorySegment data() {
        return MemorySegment.ofArray(bytes);
    }

    public long size() {
        return bytes.length;
    }

    public boolean isEmpty() {
        return bytes.length == 0;
    }
}
