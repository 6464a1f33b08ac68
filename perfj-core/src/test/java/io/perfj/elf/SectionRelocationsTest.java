package io.perfj.elf;

import io.perfj.btf.encode.BtfEncoder;
import io.perfj.btf.encode.EncodeOptions;
import io.perfj.dwarf.info.BtfEncodeFixtures;
import io.perfj.dwarf.info.DwarfInfo;
import io.perfj.io.FormatException;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.util.List;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Relocations of a relocatable object's debug sections: found and applied for ET_REL only, the
 * sections laid out as libdwfl lays them out, and each kind of bad entry a typed error naming the
 * relocation section and the entry.
 */
class SectionRelocationsTest {
    private static final int R_X86_64_32 = 10;

    @Test
    void linkedFilesAreNotCopied() throws Exception {
        try (ElfFile elf = ElfFile.open(BtfEncodeFixtures.bin("gcc-dwarf5"))) {
            SectionHeader info = elf.section(".debug_info").orElseThrow();
            assertTrue(SectionRelocations.of(elf, info).isEmpty());
            assertNull(SectionContents.heapCopy(elf, info, elf.sectionData(info)));
        }
    }

    @Test
    void relocatableDebugInfoIsRelocated() throws Exception {
        try (ElfFile elf = ElfFile.open(BtfEncodeFixtures.bin("gcc-types.o"))) {
            SectionHeader info = elf.section(".debug_info").orElseThrow();
            List<SectionHeader> rels = SectionRelocations.of(elf, info);
            assertEquals(List.of(".rela.debug_info"), rels.stream().map(SectionHeader::name).toList());
            byte[] copy = SectionContents.heapCopy(elf, info, elf.sectionData(info));
            assertNotNull(copy);
            // what the values are is DieDumpGoldenTest's part (names through relocated DW_FORM_strp)
            byte[] raw = elf.sectionData(info).bytes(0, info.size());
            assertEquals(raw.length, copy.length);
            assertTrue(!java.util.Arrays.equals(raw, copy), "no relocation changed a byte");
        }
    }

    @Test
    void relocatableSectionsAreLaidOutInOrderWithoutOverlap() throws Exception {
        try (ElfFile elf = ElfFile.open(BtfEncodeFixtures.bin("gcc-types.o"))) {
            long[] addr = SectionRelocations.addresses(elf);
            long end = 0;
            for (SectionHeader s : elf.sections()) {
                if (!s.isAlloc()) {
                    assertEquals(0, addr[s.index()], s.name());
                    continue;
                }
                assertTrue(addr[s.index()] >= end, s.name() + " overlaps the section before it");
                assertEquals(0, addr[s.index()] % Math.max(1, s.addralign()), s.name() + " is misaligned");
                end = addr[s.index()] + s.size();
            }
            SectionHeader percpu = elf.section(".data..percpu").orElseThrow();
            assertTrue(addr[percpu.index()] > 0, "per-CPU data shares address 0 with .text");
        }
        try (ElfFile elf = ElfFile.open(BtfEncodeFixtures.bin("gcc-dwarf5"))) {
            long[] addr = SectionRelocations.addresses(elf);
            for (SectionHeader s : elf.sections()) {
                assertEquals(s.addr(), addr[s.index()], s.name());
            }
        }
    }

    @Test
    void symbolIndexPastTheTable() throws Exception {
        FormatException e = damaged(b -> b.putLong(8, 0xffffffL << 32 | R_X86_64_32));
        assertTrue(e.getMessage().contains("symbol index 16777215 is past"), e.getMessage());
    }

    @Test
    void placePastTheSection() throws Exception {
        FormatException e = damaged(b -> b.putLong(0, 0x7fff_fff0L));
        assertTrue(e.getMessage().contains("is past the"), e.getMessage());
        FormatException last = damaged(b -> b.putLong(0, -1L));
        assertTrue(last.getMessage().contains("is past the"), last.getMessage());
    }

    @Test
    void unknownTypeAndOverflow() throws Exception {
        FormatException t = damaged(b -> b.putLong(8, (b.getLong(8) & ~0xffffffffL) | 37));
        assertTrue(t.getMessage().contains("relocation type 37 is not supported"), t.getMessage());
        FormatException o = damaged(b -> {
            b.putLong(8, (b.getLong(8) & ~0xffffffffL) | R_X86_64_32);
            b.putLong(16, 1L << 40);
        });
        assertTrue(o.getMessage().contains("does not fit"), o.getMessage());
    }

    /**
     * Reads {@code gcc-types.o} with its first {@code .rela.debug_info} entry changed by
     * {@code edit} (a little-endian view of the 24-byte entry) and returns the error, checking
     * that it names the relocation section and the entry's file offset, from both the DWARF
     * reader and the BTF encoder.
     */
    private static FormatException damaged(Consumer<ByteBuffer> edit) throws Exception {
        byte[] img = Files.readAllBytes(BtfEncodeFixtures.bin("gcc-types.o"));
        long entry;
        try (ElfFile elf = ElfFile.of(img, "gcc-types.o")) {
            entry = elf.section(".rela.debug_info").orElseThrow().offset();
        }
        edit.accept(ByteBuffer.wrap(img, (int) entry, 24).slice().order(ByteOrder.LITTLE_ENDIAN));
        try (ElfFile elf = ElfFile.of(img, "gcc-types.o")) {
            FormatException e = assertThrows(FormatException.class, () -> DwarfInfo.of(elf));
            assertTrue(e.getMessage().startsWith("gcc-types.o: relocation section .rela.debug_info at offset 0x"
                    + Long.toHexString(entry) + ": "), e.getMessage());
            FormatException viaEncoder = assertThrows(FormatException.class,
                    () -> BtfEncoder.encode(elf, new EncodeOptions(EncodeOptions.Vars.ALL, 1)));
            assertEquals(e.getMessage(), viaEncoder.getMessage());
            return e;
        }
    }
}
