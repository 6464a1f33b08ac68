package io.perfj.symbols;

import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.XZOutputStream;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ElfSymbolsTest {

    @Test
    void executableWithSymtabAndPlt() {
        ElfSymbols.Result r = ElfSymbols.loadUser(Fixtures.file("bin/hot"), List.of(), false);
        assertEquals(".symtab", r.section());
        assertTrue(r.pltSymbols() > 0);
        SymbolTable t = r.table();
        Symbol leaf = t.byName("leaf_mix");
        assertNotNull(leaf);
        assertEquals("leaf_mix", t.find(0x1179).name());
        assertTrue(t.symbols().stream().anyMatch(s -> s.name().endsWith("@plt")));
    }

    /**
     * bin/pltgot (fixtures/make-pltgot.sh): perf 7.2's PLT symbols by default, .plt.got stubs
     * named after their GOT slots' relocations, _init cut at .plt; a sized function wins over
     * the labels inside it.
     */
    @Test
    void pltGotStubsAndLabelsAsPerf72() {
        SymbolTable t = ElfSymbols.loadUser(Fixtures.file("bin/pltgot"), List.of(), false, io.perfj.symbols.UserSymbolRules.PERFJ, Demangling.CURRENT).table();
        assertEquals("_init", t.find(0x1016).name());
        assertEquals(new Symbol(0x1000, 0x1020, "_init", 'G'), t.find(0x1000));
        assertEquals(new Symbol(0x1020, 0x1030, ".plt", 'G'), t.find(0x102c));
        assertEquals("strtod@plt", t.find(0x1030).name());
        assertEquals("printf@plt", t.find(0x105f).name());
        assertEquals(new Symbol(0x1060, 0x1068, "__cxa_finalize@plt", 'G'), t.find(0x1060));
        assertEquals(new Symbol(0x1068, 0x1070, "pg_step@plt", 'G'), t.find(0x1068));
        assertEquals("main", t.find(0x1070).name());
        for (long a = 0x12b0; a < 0x12df; a++) {
            assertEquals("lbl_stub", t.find(a).name(), Long.toHexString(a));
        }
    }

    /** bin/pltsec, linked with -z ibtplt: .plt is all header, the entries are in .plt.sec. */
    @Test
    void pltSecAndEndbrPltGotAsPerf72() {
        SymbolTable t = ElfSymbols.loadUser(Fixtures.file("bin/pltsec"), List.of(), false, io.perfj.symbols.UserSymbolRules.PERFJ, Demangling.CURRENT).table();
        assertEquals(new Symbol(0x1020, 0x1050, ".plt", 'G'), t.find(0x1030));
        assertEquals(new Symbol(0x1060, 0x1070, "pg_step@plt", 'G'), t.find(0x1064));
        assertEquals(new Symbol(0x1070, 0x1080, "labs@plt", 'G'), t.find(0x1070));
        assertEquals(new Symbol(0x1080, 0x1090, "printf@plt", 'G'), t.find(0x108f));
    }

    /**
     * perf 6.1 made no symbols for .plt.got: _init, stretched over it, answers (its sampled
     * addresses as golden/pltgot.script.txt.gz names them).
     */
    @Test
    void pltGotStubsAsPerf61() {
        SymbolTable t = ElfSymbols.loadUser(Fixtures.file("bin/pltgot"), List.of(), false, io.perfj.compat.PerfSymbolTree.RULES, Demangling.PERF_6_1).table();
        assertEquals("_init", t.find(0x1068).name());
        assertEquals("lbl_stub", t.find(0x12c9).name());
        assertEquals("lbl_stub", t.find(0x12d7).name());
    }

    @Test
    void strippedLibraryUsesDebugFileWithMatchingBuildIdOnly() {
        Path libc = BuildIdCacheFixture.member("/usr/lib/x86_64-linux-gnu/libc.so.6", "elf").orElseThrow();
        Path libcDebug = BuildIdCacheFixture.member("/usr/lib/x86_64-linux-gnu/libc.so.6", "debug").orElseThrow();
        Path ldDebug = BuildIdCacheFixture.member("/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2", "debug").orElseThrow();

        ElfSymbols.Result withDebug = ElfSymbols.loadUser(libc, List.of(ldDebug, libcDebug), false);
        assertEquals(libcDebug, withDebug.source());
        assertEquals(".symtab", withDebug.section());
        assertEquals("clock_gettime@@GLIBC_2.17", withDebug.table().find(0xcf420).name());
        assertEquals("__x86_cacheinfo_ifunc", withDebug.table().find(0xb0a60).name());

        ElfSymbols.Result dynOnly = ElfSymbols.loadUser(libc, List.of(ldDebug), false);
        assertEquals(".dynsym", dynOnly.section());
        // .dynsym names carry no version: perf prints the plain name then
        assertEquals("clock_gettime", dynOnly.table().find(0xcf420).name());
    }

    @Test
    void miniDebugInfoIsMergedWithDynsym(@TempDir Path tmp) throws Exception {
        Path hot = Fixtures.file("bin/hot");
        Path stripped = withMiniDebugInfo(tmp, hot, xz -> xz);

        SymbolTable full = ElfSymbols.load(hot, null);
        ElfSymbols.Result r = ElfSymbols.loadUser(stripped, List.of(), false, io.perfj.symbols.UserSymbolRules.PERFJ, Demangling.CURRENT);
        assertEquals(".dynsym+.gnu_debugdata", r.section());
        for (String name : List.of("leaf_mix", "work", "main")) {
            Symbol want = full.byName(name);
            Symbol got = r.table().byName(name);
            assertNotNull(got, name);
            assertEquals(want.start(), got.start(), name);
            assertEquals(want.end(), got.end(), name);
        }
        // perf 6.1 does not read .gnu_debugdata
        ElfSymbols.Result perf61 = ElfSymbols.loadUser(stripped, List.of(), false, io.perfj.compat.PerfSymbolTree.RULES, Demangling.PERF_6_1);
        assertEquals(".dynsym", perf61.section());
        assertNull(perf61.table().byName("leaf_mix"));
    }

    /**
     * xz -9 (the largest preset) writes a 64 MiB dictionary size, which a decoder must be able to
     * allocate; the data here is compressed with a smaller dictionary (valid for any larger one)
     * and its block header says 64 MiB.
     */
    @Test
    void miniDebugInfoOfXzPreset9(@TempDir Path tmp) throws Exception {
        Path stripped = withMiniDebugInfo(tmp, Fixtures.file("bin/hot"), ElfSymbolsTest::dictionary64MiB);
        ElfSymbols.Result r = ElfSymbols.loadUser(stripped, List.of(), false, io.perfj.symbols.UserSymbolRules.PERFJ, Demangling.CURRENT);
        assertEquals(".dynsym+.gnu_debugdata", r.section());
        assertNotNull(r.table().byName("leaf_mix"));
    }

    /** {@code program} stripped, with its symtab xz-compressed (then passed through {@code patch}) in .gnu_debugdata. */
    private static Path withMiniDebugInfo(Path tmp, Path program, java.util.function.UnaryOperator<byte[]> patch) throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/objcopy")) && Files.isExecutable(Path.of("/usr/bin/strip")),
                "binutils not installed");
        Path mini = tmp.resolve("mini");
        Path stripped = tmp.resolve("stripped");
        run("objcopy", "--only-keep-debug", program.toString(), mini.toString());
        run("objcopy", "--strip-debug", mini.toString());
        java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream();
        try (OutputStream out = new XZOutputStream(buf, new LZMA2Options())) {
            out.write(Files.readAllBytes(mini));
        }
        Path xz = tmp.resolve("mini.xz");
        Files.write(xz, patch.apply(buf.toByteArray()));
        run("strip", "--strip-all", "-o", stripped.toString(), program.toString());
        run("objcopy", "--add-section", ".gnu_debugdata=" + xz, stripped.toString());
        return stripped;
    }

    /**
     * The xz stream with its one block's LZMA2 dictionary size set to 64 MiB: the block header
     * follows the 12-byte stream header (size byte, flags, filter id 0x21, properties size 1, the
     * properties byte), its CRC32 at its end.
     */
    private static byte[] dictionary64MiB(byte[] xz) {
        int at = 12;
        int size = ((xz[at] & 0xff) + 1) * 4;
        assertEquals(0x00, xz[at + 1], "one filter, no sizes");
        assertEquals(0x21, xz[at + 2], "LZMA2");
        xz[at + 4] = 28;        // (2 | (28 & 1)) << (28 / 2 + 11) = 64 MiB
        java.util.zip.CRC32 crc = new java.util.zip.CRC32();
        crc.update(xz, at, size - 4);
        java.nio.ByteBuffer.wrap(xz, at + size - 4, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt((int) crc.getValue());
        return xz;
    }

    @Test
    void userObjectsMoveToFileOffsetsKernelImagesStayAbsolute(@TempDir Path tmp) throws Exception {
        byte[] image = io.perfj.elf.TestImages.synthetic(true, java.nio.ByteOrder.BIG_ENDIAN, io.perfj.elf.Elf.ET_EXEC);
        try (io.perfj.elf.ElfFile elf = io.perfj.elf.ElfFile.of(image, "synthetic")) {
            SymbolTable user = ElfSymbols.loadUser(elf, null, List.of(), io.perfj.compat.PerfSymbolTree.RULES, Demangling.PERF_6_1).table();
            // text at vaddr 0x401000, file offset 0x1000
            assertEquals("_Z5alphav", elf.symtab().get(1).name());
            assertEquals("alpha", user.find(0x1010).name());
            assertEquals("beta", user.find(0x103f).name());
        }
        Path f = tmp.resolve("vmlinux");
        Files.write(f, image);
        SymbolTable kernel = ElfSymbols.loadKernel(f);
        assertEquals("_Z5alphav", kernel.find(0x401010).name());
    }

    private static void run(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertEquals(0, p.waitFor(), String.join(" ", cmd) + ": " + out);
    }
}
