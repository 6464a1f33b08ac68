package io.perfj.dwarf.info;

import java.lang.foreign.MemorySegment;

/**
 * One DWARF section's bytes (decompressed when the ELF section was compressed).
 *
 * @param name       the ELF section name, for error messages
 * @param data       the (uncompressed) contents
 * @param fileOffset where the section starts in the file, or -1 when it was decompressed, so
 *                   error offsets are reported relative to the section instead
 */
public record DwarfSection(String name, MemorySegment data, long fileOffset) {
    static final DwarfSection EMPTY = new DwarfSection("", MemorySegment.ofArray(new byte[0]), -1);

    public long size() {
        return data.byteSize();
    }

    public boolean isEmpty() {
        return data.byteSize() == 0;
    }
}
