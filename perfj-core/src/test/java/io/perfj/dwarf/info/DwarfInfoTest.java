package io.perfj.dwarf.info;

import io.perfj.elf.ElfFile;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Unit kinds, compressed sections and form decoding on the test binaries. */
class DwarfInfoTest {

    private static String dump(String name) throws Exception {
        StringWriter sw = new StringWriter();
        try (ElfFile elf = ElfFile.open(BtfEncodeFixtures.bin(name))) {
            DieDumper.dump(DwarfInfo.of(elf), new PrintWriter(sw));
        }
        return sw.toString();
    }

    @Test
    void zlibCompressedSectionsReadLikeUncompressedOnes() throws Exception {
        try (ElfFile elf = ElfFile.open(BtfEncodeFixtures.bin("gcc-zlib"))) {
            assertTrue((elf.section(".debug_info").orElseThrow().flags() & io.perfj.elf.Elf.SHF_COMPRESSED) != 0,
                    "the fixture is meant to have compressed sections");
        }
        assertEquals(dump("gcc-dwarf5"), dump("gcc-zlib"));
    }

    @Test
    void dwarf4TypeUnitsInDebugTypes() throws Exception {
        try (ElfFile elf = ElfFile.open(BtfEncodeFixtures.bin("gcc-types-section"))) {
            DwarfInfo d = DwarfInfo.of(elf);
            List<UnitHeader> types = d.units().stream().filter(UnitHeader::inTypes).toList();
            assertFalse(types.isEmpty());
            for (UnitHeader u : types) {
                assertEquals(4, u.version());
                assertTrue(u.isTypeUnit());
                assertTrue(u.typeSignature() != 0);
                DieCursor c = d.cursor(u);
                assertEquals(Dw.TAG_type_unit, c.next());
                // the type DIE the header points at is one of the unit's DIEs
                boolean found = false;
                int t;
                while ((t = c.next()) >= 0) {
                    found |= t > 0 && c.offset() == u.typeOffset();
                }
                assertTrue(found, "type offset of unit at 0x" + Long.toHexString(u.offset()));
            }
            // compile units refer to them by signature
            boolean sig = false;
            for (UnitHeader u : d.units()) {
                if (u.inTypes()) {
                    continue;
                }
                DieCursor c = d.cursor(u);
                while (c.next() >= 0) {
                    int i = c.find(Dw.AT_type);
                    sig |= i >= 0 && c.isSignatureRef(i);
                }
            }
            assertTrue(sig);
        }
    }

    @Test
    void dwarf5FormsResolve() throws Exception {
        try (ElfFile elf = ElfFile.open(BtfEncodeFixtures.bin("clang-dwarf5"))) {
            DwarfInfo d = DwarfInfo.of(elf);
            int named = 0;
            int addressed = 0;
            for (UnitHeader u : d.units()) {
                assertEquals(5, u.version());
                DieCursor c = d.cursor(u);
                int t;
                while ((t = c.next()) >= 0) {
                    if (t == 0) {
                        continue;
                    }
                    for (int i = 0; i < c.attributeCount(); i++) {
                        int f = c.form(i);
                        if (f >= Dw.FORM_strx1 && f <= Dw.FORM_strx4 || f == Dw.FORM_strx) {
                            assertTrue(c.string(i) != null);
                            named++;
                        }
                        if (c.attributeName(i) == Dw.AT_location && c.isBlock(i)
                                && c.staticAddress(i) != DieCursor.NO_ADDRESS) {
                            addressed++;
                        }
                    }
                }
            }
            assertTrue(named > 100, "clang uses DW_FORM_strx* for names");
            assertTrue(addressed > 10, "clang uses DW_OP_addrx for variables");
        }
    }
    /**
     * .debug_info stays in the file's mapping and is copied a unit at a time, reusing one buffer:
     * on a kernel a heap copy of it was 160 MB, a third of the encoder's memory.
     */
    @Test
    void unitsAreReadFromTheMappingIntoOneReusedBuffer() throws Exception {
        try (ElfFile elf = ElfFile.open(BtfEncodeFixtures.bin("gcc-dwarf5"));
             ElfFile inMemory = ElfFile.of(java.nio.file.Files.readAllBytes(BtfEncodeFixtures.bin("gcc-dwarf5")),
                     "gcc-dwarf5")) {
            DwarfInfo d = DwarfInfo.of(elf);
            assertFalse(d.info.heap(), ".debug_info is not copied to the heap");
            assertTrue(d.str.heap(), ".debug_str, read at random, is");
            DieCursor prev = null;
            byte[] buffer = null;
            StringWriter a = new StringWriter();
            PrintWriter pa = new PrintWriter(a);
            for (UnitHeader u : d.units()) {
                DieCursor c = d.cursor(u, prev);
                if (buffer != null && buffer.length >= u.end() - u.offset()) {
                    assertTrue(buffer == c.unitBytes(), "the buffer is reused");
                }
                buffer = c.unitBytes();
                int t;
                while ((t = c.next()) >= 0) {
                    if (t > 0) {
                        int n = c.find(Dw.AT_name);
                        pa.println(Long.toHexString(c.offset()) + " " + t + " " + (n < 0 ? "" : c.string(n)));
                    }
                }
                prev = c;
            }
            // the same walk over an ELF read into memory (no mapping) gives the same DIEs
            StringWriter b = new StringWriter();
            PrintWriter pb = new PrintWriter(b);
            DwarfInfo m = DwarfInfo.of(inMemory);
            for (UnitHeader u : m.units()) {
                DieCursor c = m.cursor(u);
                int t;
                while ((t = c.next()) >= 0) {
                    if (t > 0) {
                        int n = c.find(Dw.AT_name);
                        pb.println(Long.toHexString(c.offset()) + " " + t + " " + (n < 0 ? "" : c.string(n)));
                    }
                }
            }
            pa.flush();
            pb.flush();
            assertTrue(a.toString().lines().count() > 100);
            assertEquals(b.toString(), a.toString());
        }
    }
}
