package io.perfj.elf;

import io.perfj.io.FormatException;
import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ElfFileTest {

    @ParameterizedTest
    @CsvSource({"true,LITTLE_ENDIAN", "true,BIG_ENDIAN", "false,LITTLE_ENDIAN", "false,BIG_ENDIAN"})
    void syntheticImagesInEveryClassAndByteOrder(boolean is64, String orderName) {
        ByteOrder order = orderName.equals("BIG_ENDIAN") ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
        ElfBuilder b = new ElfBuilder(is64, order)
                .sym("alpha", 0x401010, 0x20, Elf.STT_FUNC, Elf.STB_GLOBAL)
                .sym("beta", 0x401030, 0x10, Elf.STT_FUNC, Elf.STB_LOCAL)
                .sym("gamma", 0x401040, 0, Elf.STT_NOTYPE, Elf.STB_GLOBAL);
        try (ElfFile elf = ElfFile.of(b.build(), "synthetic")) {
            assertEquals(is64, elf.is64());
            assertEquals(order, elf.order());
            assertEquals(Elf.ET_DYN, elf.type());
            assertEquals(Elf.EM_X86_64, elf.machine());
            assertEquals(List.of("", ".text", ".note.gnu.build-id", ".strtab", ".symtab", ".shstrtab"),
                    elf.sections().stream().map(SectionHeader::name).toList());
            assertEquals(1, elf.programHeaders().size());
            assertTrue(elf.loadSegmentFor(0x401010).isPresent());
            assertFalse(elf.loadSegmentFor(0x500000).isPresent());
            List<ElfSymbol> syms = elf.symtab();
            assertEquals(4, syms.size());
            assertEquals("alpha", syms.get(1).name());
            assertEquals(0x401010, syms.get(1).value());
            assertEquals(0x20, syms.get(1).size());
            assertEquals(Elf.STT_FUNC, syms.get(1).type());
            assertEquals(Elf.STB_LOCAL, syms.get(2).bind());
            assertArrayEquals(b.buildId, elf.buildId().orElseThrow());
            assertTrue(elf.dynsym().isEmpty());
            assertTrue(elf.debugLink().isEmpty());
            assertTrue(elf.debugData().isEmpty());
        }
    }

    @Test
    void notElf() {
        FormatException e = assertThrows(FormatException.class, () -> ElfFile.of("not an ELF file, just some text".getBytes(), "x"));
        assertTrue(e.getMessage().contains("not an ELF file"), e.getMessage());
        assertThrows(FormatException.class, () -> ElfFile.of(new byte[0], "empty"));
        assertThrows(FormatException.class, () -> ElfFile.of(new byte[]{0x7f, 'E', 'L', 'F', 3, 1, 1}, "short"));
    }

    @Test
    void fixtureBinary() {
        Path hot = Fixtures.file("bin/hot");
        try (ElfFile elf = ElfFile.open(hot)) {
            assertEquals("e2db302c322df9b8b21885b46c9d468e43446773", elf.buildIdHex().orElseThrow());
            assertEquals(Elf.ET_DYN, elf.type());
            assertTrue(elf.symtab().stream().anyMatch(s -> s.name().equals("leaf_mix") && s.type() == Elf.STT_FUNC));
            assertTrue(elf.section(".plt").isPresent());
        }
    }

    @Test
    void dynsymVersionsAndDebugLink() {
        Path libc = BuildIdCacheFixture.member("/usr/lib/x86_64-linux-gnu/libc.so.6", "elf").orElseThrow();
        try (ElfFile elf = ElfFile.open(libc)) {
            List<String> clock = elf.dynsym().stream().filter(s -> s.name().equals("clock_gettime"))
                    .map(ElfSymbol::versionedName).sorted().toList();
            assertEquals(List.of("clock_gettime@@GLIBC_2.17", "clock_gettime@GLIBC_2.2.5"), clock);
            // references to other objects' versions print with one '@'
            assertTrue(elf.dynsym().stream().anyMatch(s -> !s.isDefined() && s.versionedName().contains("@GLIBC_PRIVATE")
                    && !s.versionedName().contains("@@")));
            DebugLink link = elf.debugLink().orElseThrow();
            assertTrue(link.fileName().endsWith(".debug"), link.fileName());
            assertTrue(elf.symtabSection().isEmpty());
        }
        Path debug = BuildIdCacheFixture.member("/usr/lib/x86_64-linux-gnu/libc.so.6", "debug").orElseThrow();
        try (ElfFile elf = ElfFile.open(debug)) {
            assertEquals("93ac61ec5a8eb1396f9fbd350e3169a558528a40", elf.buildIdHex().orElseThrow());
            assertTrue(elf.symtab().stream().anyMatch(s -> s.name().equals("clock_gettime@@GLIBC_2.17")));
        }
    }
}
