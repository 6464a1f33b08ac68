package io.perfj.dwarf;

import io.perfj.elf.ElfFile;
import io.perfj.elf.ProgramHeader;

/**
 * An object file as the unwinders see it, built once per run and shared by every process that
 * maps the file: its mapping (for reads outside the copied stack), all its call frame
 * information, the {@code .eh_frame} part alone with the address of {@code .eh_frame_hdr} (-1
 * when absent), the {@code .debug_frame} part alone, its PT_LOAD segments and the page-aligned
 * address of the first of them (where perf's {@code .eh_frame_hdr} lookup starts from).
 */
public record UnwindObject(ElfFile elf, CallFrameInfo info, CallFrameInfo ehFrame, CallFrameInfo debugFrame,
                    ProgramHeader[] loads, long ehFrameHdrAddr, long firstLoadPage) {

    /** Reads the frame information of a mapped file (which stays mapped: the FDEs are views of it). */
    public static UnwindObject of(ElfFile elf) {
        CallFrameInfo info = CallFrameInfo.parse(elf);
        ProgramHeader[] loads = elf.programHeaders().stream().filter(ProgramHeader::isLoad)
                .toArray(ProgramHeader[]::new);
        long hdr = elf.section(".eh_frame_hdr").filter(x -> x.hasFileData()).map(x -> x.addr()).orElse(-1L);
        // the parts share the whole's indexes: each section is read and indexed once per file
        CallFrameInfo eh = info.part(true);
        CallFrameInfo debug = info.part(false);
        long firstLoad = loads.length == 0 ? 0 : loads[0].vaddr() & -4096L;
        return new UnwindObject(elf, info, eh, debug, loads, hdr, firstLoad);
    }

    /** A file offset (a user map's map_ip) to the ELF's virtual address through the PT_LOAD segments; -1 when in none. */
    public long toVaddr(long fileOffset) {
        for (ProgramHeader p : loads) {
            if (fileOffset >= p.offset() && fileOffset < p.offset() + Math.max(p.filesz(), 1)) {
                return fileOffset - p.offset() + p.vaddr();
            }
        }
        return -1;
    }
}
