package io.perfj.dwarf;

import io.perfj.elf.ElfFile;
import io.perfj.elf.SectionHeader;
import io.perfj.elf.SectionRelocations;
import io.perfj.io.Bytes;

import java.util.Optional;

/**
 * The bytes of an ELF file's DWARF sections, decompressed when the section is
 * {@code SHF_COMPRESSED} (an {@code Elf_Chdr} then zlib or zstd data, as {@code objcopy
 * --compress-debug-sections} and Debian's debug packages write them), and with the relocations of
 * a relocatable object applied ({@link SectionRelocations}). Every reader of DWARF gets its
 * sections here, so a kernel module reads as a linked file does.
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
        byte[] out = heapCopy(elf, sh.get(), raw);
        return Optional.of(out == null ? raw : Bytes.of(out, elf.order(), elf.name(), name));
    }

    /**
     * The contents of {@code sh} (whose file bytes are {@code raw}) when they differ from the file:
     * decompressed and/or relocated, on the heap; null when {@code raw} is the contents as they are,
     * so nothing is copied for a linked file.
     */
    public static byte[] heapCopy(ElfFile elf, SectionHeader sh, Bytes raw) {
        boolean compressed = (sh.flags() & SHF_COMPRESSED) != 0;
        boolean relocated = !SectionRelocations.of(elf, sh).isEmpty();
        if (!compressed && !relocated) {
            return null;
        }
        byte[] out = compressed ? io.perfj.dwarf.info.DwarfInfo.decompress(elf, sh, raw) : raw.bytes(0, raw.size());
        if (relocated) {
            SectionRelocations.apply(elf, sh, out);
        }
        return out;
    }
}
