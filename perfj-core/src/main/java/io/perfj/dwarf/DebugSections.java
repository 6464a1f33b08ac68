package io.perfj.dwarf;

import io.perfj.elf.ElfFile;
import io.perfj.elf.SectionHeader;
import io.perfj.io.Bytes;

import java.util.Optional;

/**
 * The bytes of an ELF file's DWARF sections, decompressed when the section is
 * {@code SHF_COMPRESSED} (an {@code Elf_Chdr} then zlib or zstd data, as {@code objcopy
 * --compress-debug-sections} and Debian's debug packages write them).
 */
public final class DebugSections {
    private static final long SHF_COMPRESSED = 0x800;

    private DebugSections() {
    }

    /** The named section's data, decompressed; empty when the ELF has no such section with data. */
    public static Optional<Bytes> section(ElfFile elf, String name) {
        Optional<SectionHeader> sh = elf.section(name);
        if (sh.isEmpty() || !sh.get().hasFileData()) {
            return Optional.empty();
        }
        Bytes raw = elf.sectionData(sh.get());
        if ((sh.get().flags() & SHF_COMPRESSED) == 0) {
            return Optional.of(raw);
        }
        byte[] out = io.perfj.dwarf.info.DwarfInfo.decompress(elf, sh.get(), raw);
        return Optional.of(Bytes.of(out, elf.order(), elf.name(), name));
    }
}
