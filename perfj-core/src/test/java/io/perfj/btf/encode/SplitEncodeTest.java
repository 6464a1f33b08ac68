package io.perfj.btf.encode;

import io.perfj.btf.Btf;
import io.perfj.btf.BtfFiles;
import io.perfj.btf.BtfType;
import io.perfj.btf.dump.BtfRawDumper;
import io.perfj.dwarf.info.BtfEncodeFixtures;
import io.perfj.elf.ElfFile;
import io.perfj.io.FormatException;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Split BTF (a module on a base, like {@code pahole --btf_base}): {@code module.o} on pahole's
 * BTF of {@code gcc-base} against pahole's own split encoding, as bpftool prints both; ids and
 * strings continue the base's; a module that adds nothing to its base is only its variables.
 */
class SplitEncodeTest {
    private static final Path BASE = BtfEncodeFixtures.golden("gcc-base.btf");

    static byte[] encodeModule(String name, Path base, int threads) throws Exception {
        try (ElfFile elf = ElfFile.open(BtfEncodeFixtures.bin(name))) {
            return BtfEncoder.encode(elf, new EncodeOptions(EncodeOptions.Vars.PERCPU, threads), w -> { },
                    SplitBase.load(base));
        }
    }

    @Test
    void sameTypesAsPahole(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("module.btf");
        Files.write(out, encodeModule("module.o", BASE, 2));
        ByteArrayOutputStream raw = new ByteArrayOutputStream();
        BtfRawDumper.dumpFile(out, BASE, raw);
        assertEquals(Files.readString(BtfEncodeFixtures.golden("module.o.split.pahole.raw")),
                raw.toString(StandardCharsets.UTF_8));
    }

    @Test
    void bpftoolCDumpMatchesPahole(@TempDir Path tmp) throws Exception {
        Path bpftool = BtfEncodeGoldenTest.Tools.find("bpftool");
        Assumptions.assumeTrue(bpftool != null, "bpftool is not installed");
        Path out = tmp.resolve("module.btf");
        Files.write(out, encodeModule("module.o", BASE, 2));
        String c = BtfEncodeGoldenTest.Tools.run(bpftool.toString(), "-B", BASE.toString(), "btf", "dump", "file",
                out.toString(), "format", "c");
        assertEquals(Files.readString(BtfEncodeFixtures.golden("module.o.split.pahole.c")), c);
    }

    @Test
    void idsAndStringsContinueTheBase() throws Exception {
        Btf base = BtfFiles.load(BASE, null);
        byte[] bytes = encodeModule("module.o", BASE, 1);
        Btf split = Btf.parse(bytes, "module.o", base);
        assertEquals(base.typeCount(), split.startId());
        // the module's own string section: no leading empty string, and no name the base has
        int strOff = readInt(bytes, 16);
        int strLen = readInt(bytes, 20);
        byte[] own = Arrays.copyOfRange(bytes, 24 + strOff, 24 + strOff + strLen);
        assertTrue(own.length > 0 && own[0] != 0, "split strings start with a name");
        for (String s : new String(own, StandardCharsets.UTF_8).split("\0")) {
            assertTrue(base.ownTypes().stream().noneMatch(t -> s.equals(t.name())), s + " is a base name");
        }
        for (int threads : new int[] {2, 3}) {
            assertArrayEquals(bytes, encodeModule("module.o", BASE, threads), threads + " threads");
        }
    }

    @Test
    void aModuleEqualToItsBaseAddsOnlyVariables(@TempDir Path tmp) throws Exception {
        Path base = tmp.resolve("base.btf");
        try (ElfFile elf = ElfFile.open(BtfEncodeFixtures.bin("gcc-dwarf5"))) {
            Files.write(base, BtfEncoder.encode(elf, new EncodeOptions(EncodeOptions.Vars.PERCPU, 1)));
        }
        Btf split = Btf.parse(encodeModule("gcc-dwarf5", base, 2), "again", BtfFiles.load(base, null));
        assertTrue(!split.ownTypes().isEmpty());
        for (BtfType t : split.ownTypes()) {
            assertTrue(t instanceof BtfType.Var || t instanceof BtfType.Datasec, "left after dedup: " + t);
        }
    }

    @Test
    void aDamagedBaseIsAFormatError(@TempDir Path tmp) throws Exception {
        byte[] good = Files.readAllBytes(BASE);
        Path bad = tmp.resolve("bad.btf");
        Files.write(bad, Arrays.copyOf(good, good.length - 7));
        assertThrows(FormatException.class, () -> SplitBase.load(bad));
        byte[] wrongRef = good.clone();
        // [2] TYPEDEF 'size_t', after the 16-byte INT [1]: its type id pointing past the end
        putInt(wrongRef, 24 + readInt(good, 8) + 16 + 8, 0x00ffffff);
        Files.write(bad, wrongRef);
        assertThrows(FormatException.class, () -> SplitBase.load(bad));
    }

    private static int readInt(byte[] b, int at) {
        return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8 | (b[at + 2] & 0xff) << 16 | (b[at + 3] & 0xff) << 24;
    }

    private static void putInt(byte[] b, int at, int v) {
        for (int i = 0; i < 4; i++) {
            b[at + i] = (byte) (v >>> (8 * i));
        }
    }
}
