package io.perfj.dwarf.info;

import java.lang.foreign.MemorySegment;

/**
 * One DWARF section's bytes (decompressed when the ELF section was compressed). The small
 * sections that DIEs point into at random (abbreviations, strings, string offsets, addresses) are
 * copied to the heap, where reads compile to the tightest loops. The large ones that hold the
 * units themselves ({@code .debug_info}, {@code .debug_types}) stay in the file's mapping and are
 * copied unit by unit as a {@link DieCursor} walks them ({@link #heap()} is then false): a kernel's
 * 160 MB of {@code .debug_info} would otherwise be held on the heap for the whole run.
 */
public final class DwarfSection {
    static final DwarfSection EMPTY = new DwarfSection("", MemorySegment.ofArray(new byte[0]), new byte[0], -1);

    private final String name;
    private final MemorySegment data;
    private final byte[] bytes;
    private final long fileOffset;

    private DwarfSection(String name, MemorySegment data, byte[] bytes, long fileOffset) {
        this.name = name;
        this.data = data;
        this.bytes = bytes;
        this.fileOffset = fileOffset;
    }

    /**
     * A section held on the heap.
     *
     * @param fileOffset where the section starts in the file, or -1 when it was decompressed, so
     *                   error offsets are reported relative to the section instead
     */
    static DwarfSection ofBytes(String name, byte[] bytes, long fileOffset) {
        return new DwarfSection(name, MemorySegment.ofArray(bytes), bytes, fileOffset);
    }

    /** A section read where it lies (a file mapping, or an array when the ELF is in memory). */
    static DwarfSection ofSegment(String name, MemorySegment data, long fileOffset) {
        return new DwarfSection(name, data, null, fileOffset);
    }

    /** The ELF section name, for error messages. */
    public String name() {
        return name;
    }

    public MemorySegment data() {
        return data;
    }

    /** Whether the section's bytes are on the heap ({@link #bytes()}). */
    public boolean heap() {
        return bytes != null;
    }

    /** The contents, for a section on the heap. */
    public byte[] bytes() {
        if (bytes == null) {
            throw new IllegalStateException(name + " is read unit by unit, not as one array");
        }
        return bytes;
    }

    public long fileOffset() {
        return fileOffset;
    }

    public long size() {
        return data.byteSize();
    }

    public boolean isEmpty() {
        return data.byteSize() == 0;
    }

    /** Linux maps up to 16 pages around a faulting one when they are cached ("fault-around"). */
    private static final long FAULT_AROUND = 64 * 1024;

    /**
     * Hints that the pages of {@code [from, to)} will not be read again soon: for a mapped file,
     * they leave the process's resident set (the page cache keeps them). The pages the kernel
     * mapped along with them, up to {@link #FAULT_AROUND} on either side, go too: released ranges
     * would otherwise come back a few pages at a time and stay.
     */
    void release(long from, long to) {
        if (bytes != null || !data.isMapped() || to <= from) {
            return;
        }
        from = Math.max(0, from - FAULT_AROUND);
        to = Math.min(data.byteSize(), to + FAULT_AROUND);
        try {
            data.asSlice(from, to - from).unload();
        } catch (RuntimeException e) {
            // only a hint
        }
    }
}
