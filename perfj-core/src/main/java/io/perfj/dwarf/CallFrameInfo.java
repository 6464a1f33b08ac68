package io.perfj.dwarf;

import io.perfj.elf.ElfFile;
import io.perfj.elf.ProgramHeader;
import io.perfj.elf.SectionHeader;
import io.perfj.io.Bytes;
import io.perfj.io.FormatException;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The call frame information of an ELF file: {@code .eh_frame} (LSB 5.0 "Exception Frames",
 * indexed through {@code .eh_frame_hdr} when present) and {@code .debug_frame} (DWARF 5 section
 * 6.4), searched in that order. {@link #find} locates the FDE for an address and {@link #rowFor}
 * runs its instructions (DWARF 5 section 6.4.2) to the row that applies there.
 *
 * <p>Malformed input fails with {@link FormatException}, either in {@link #parse} (entry
 * headers, the search table) or lazily when an FDE is parsed or executed.
 */
public final class CallFrameInfo {
    private final List<FrameSection> sections;
    private final List<FdeIndex> indexes;
    private final FdeIndex[] indexArray;

    /** Per section: the unwind tables of the FDEs asked for so far, by FDE offset. */
    private final List<java.util.Map<Long, FdeRows>> tables;

    private CallFrameInfo(List<FrameSection> sections, List<FdeIndex> indexes) {
        this.sections = sections;
        this.indexes = indexes;
        this.indexArray = indexes.toArray(FdeIndex[]::new);
        this.tables = sections.stream().<java.util.Map<Long, FdeRows>>map(s -> new java.util.concurrent.ConcurrentHashMap<>())
                .toList();
    }

    /** Reads {@code .eh_frame} (+ {@code .eh_frame_hdr}) and {@code .debug_frame}, whichever exist. */
    public static CallFrameInfo parse(ElfFile elf) {
        return parse(elf, true, true);
    }

    /**
     * Reads only the chosen sections: e.g. {@code .debug_frame} alone from a separate debug file,
     * or to look at it where {@code .eh_frame} also covers the same code.
     */
    public static CallFrameInfo parse(ElfFile elf, boolean ehFrame, boolean debugFrame) {
        int addressSize = elf.is64() ? 8 : 4;
        long text = elf.section(".text").map(SectionHeader::addr).orElse(-1L);
        long got = elf.section(".got").map(SectionHeader::addr).orElse(-1L);
        PointerEncoding.Dereferencer deref = (vaddr, size) -> deref(elf, vaddr, size);
        List<FrameSection> sections = new ArrayList<>();
        List<FdeIndex> indexes = new ArrayList<>();
        Optional<SectionHeader> eh = elf.section(".eh_frame").filter(x -> ehFrame && x.hasFileData());
        if (eh.isPresent()) {
            SectionHeader s = eh.get();
            FrameSection fs = new FrameSection(elf.sectionData(s), true,
                    new PointerEncoding.Bases(s.addr(), text, got, addressSize, deref));
            Optional<FdeIndex> idx = Optional.empty();
            Optional<SectionHeader> hdr = elf.section(".eh_frame_hdr").filter(SectionHeader::hasFileData);
            if (hdr.isPresent()) {
                idx = FdeIndex.fromHeader(fs, elf.sectionData(hdr.get()), hdr.get().addr(), s.addr());
            }
            sections.add(fs);
            indexes.add(idx.orElseGet(() -> FdeIndex.scan(fs)));
        }
        Optional<SectionHeader> debug = elf.section(".debug_frame").filter(x -> debugFrame && x.hasFileData());
        if (debug.isPresent()) {
            SectionHeader s = debug.get();
            FrameSection fs = new FrameSection(elf.sectionData(s), false,
                    new PointerEncoding.Bases(-1, text, -1, addressSize, deref));
            sections.add(fs);
            indexes.add(FdeIndex.scan(fs));
        }
        return new CallFrameInfo(List.copyOf(sections), List.copyOf(indexes));
    }

    private static long deref(ElfFile elf, long vaddr, int size) {
        for (ProgramHeader p : elf.programHeaders()) {
            if (p.isLoad() && Long.compareUnsigned(vaddr - p.vaddr(), p.filesz()) < 0
                    && Long.compareUnsigned(vaddr - p.vaddr() + size, p.filesz()) <= 0) {
                long off = p.offset() + (vaddr - p.vaddr());
                Bytes b = elf.bytes();
                return size == 8 ? b.u64(off) : b.u32(off);
            }
        }
        throw new FormatException(elf.name(), "indirect pointer", -1,
                "address 0x" + Long.toHexString(vaddr) + " is not in a loaded segment");
    }

    /**
     * The {@code .eh_frame} part alone ({@code eh} true) or the {@code .debug_frame} part alone,
     * sharing this one's sections and indexes (and so the FDEs and unwind tables parsed through
     * either): what {@code parse(elf, true, false)} or {@code parse(elf, false, true)} would read,
     * without reading the sections again.
     */
    public CallFrameInfo part(boolean eh) {
        List<FrameSection> s = new ArrayList<>();
        List<FdeIndex> x = new ArrayList<>();
        for (int i = 0; i < sections.size(); i++) {
            if (sections.get(i).isEhFrame() == eh) {
                s.add(sections.get(i));
                x.add(indexes.get(i));
            }
        }
        return new CallFrameInfo(List.copyOf(s), List.copyOf(x));
    }

    /** Whether the file has any call frame section. */
    public boolean isEmpty() {
        return sections.isEmpty();
    }

    /** Number of FDEs in the indexes. */
    public int fdeCount() {
        return indexes.stream().mapToInt(FdeIndex::size).sum();
    }

    /** The FDE covering {@code pc}: {@code .eh_frame} first, then {@code .debug_frame}. */
    public Optional<Fde> find(long pc) {
        for (FdeIndex idx : indexes) {
            Optional<Fde> f = idx.find(pc);
            if (f.isPresent()) {
                return f;
            }
        }
        return Optional.empty();
    }

    /**
     * The FDE covering {@code pc} with its whole unwind table, computed once per FDE and kept
     * (unwinders ask at every frame); null when no FDE covers it. Searched like {@link #find}.
     */
    public FdeTable table(long pc) {
        for (FdeIndex idx : indexArray) {
            FdeTable t = idx.table(pc);
            if (t != null) {
                return t;
            }
        }
        return null;
    }

    /** The unwind row for {@code pc}, empty when no FDE covers it. */
    public Optional<UnwindRow> rowFor(long pc) {
        return find(pc).map(f -> rowFor(f, pc));
    }

    /** The row of {@code fde}'s table that applies at {@code pc} (null when pc is outside it). */
    public UnwindRow rowFor(Fde fde, long pc) {
        if (!fde.contains(pc)) {
            return null;
        }
        for (int i = 0; i < sections.size(); i++) {
            FrameSection s = sections.get(i);
            if (s.owns(fde.cie())) {
                // an FDE's table is the same for every frame in it: computed once per run
                FdeRows t = tables.get(i).computeIfAbsent(fde.offset(),
                        o -> FdeRows.of(new CfaInterpreter(fde, s.basesFor(fde.instructions()))));
                return t.rowFor(pc);
            }
        }
        return new CfaInterpreter(fde, null).rowFor(pc);
    }

    /** All rows of {@code fde}'s table, in order. */
    public List<UnwindRow> rows(Fde fde) {
        return new CfaInterpreter(fde, setLocBases(fde)).rows();
    }

    /** Every FDE of every section, in section order (walks the sections; for tools and tests). */
    public List<Fde> fdes() {
        List<Fde> out = new ArrayList<>();
        for (FrameSection s : sections) {
            out.addAll(FdeIndex.allFdes(s));
        }
        return out;
    }

    private PointerEncoding.Bases setLocBases(Fde fde) {
        for (FrameSection s : sections) {
            if (s.owns(fde.cie())) {
                return s.basesFor(fde.instructions());
            }
        }
        return null;
    }
}
