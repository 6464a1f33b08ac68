package io.perfj.cli;

import io.perfj.testing.Fixtures;
import io.perfj.btf.Btf;
import io.perfj.btf.BtfFiles;
import io.perfj.btf.BtfType;
import io.perfj.btf.encode.BtfEncoder;
import io.perfj.btf.encode.EncodeOptions;
import io.perfj.elf.ElfFile;
import io.perfj.elf.SectionHeader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code perfj btf encode}: raw output, --into-elf copies, --vars all, errors. */
class BtfEncodeCommandTest {
    record Run(int rc, String out, String err) {
    }

    static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StringWriter err = new StringWriter();
        int rc = Main.execute(args, out, new PrintWriter(err));
        return new Run(rc, out.toString(StandardCharsets.UTF_8), err.toString());
    }

    static Path bin(String name) {
        return Fixtures.file("btf-encode/bin/" + name);
    }

    @Test
    void writesRawBtf(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("x.btf");
        Run r = run("btf", "encode", bin("gcc-dwarf5").toString(), "-o", out.toString(), "-j", "2");
        assertEquals(0, r.rc(), r.err());
        byte[] expected;
        try (ElfFile elf = ElfFile.open(bin("gcc-dwarf5"))) {
            expected = BtfEncoder.encode(elf, new EncodeOptions(EncodeOptions.Vars.PERCPU, 1));
        }
        assertArrayEquals(expected, Files.readAllBytes(out));
    }

    @Test
    void intoElfWritesACopyWithABtfSection(@TempDir Path tmp) throws Exception {
        Path in = tmp.resolve("in");
        Files.copy(bin("clang-dwarf5"), in);
        byte[] before = Files.readAllBytes(in);
        Path out = tmp.resolve("out");
        Run r = run("btf", "encode", in.toString(), "-o", out.toString(), "--into-elf");
        assertEquals(0, r.rc(), r.err());
        assertArrayEquals(before, Files.readAllBytes(in), "the input stays untouched");
        byte[] raw;
        try (ElfFile elf = ElfFile.open(in)) {
            raw = BtfEncoder.encode(elf, EncodeOptions.defaults());
        }
        try (ElfFile copy = ElfFile.open(out)) {
            assertArrayEquals(raw, copy.sectionData(copy.section(".BTF").orElseThrow()).bytes(0, raw.length));
            assertEquals(raw.length, copy.section(".BTF").orElseThrow().size());
            Btf btf = BtfFiles.fromElf(copy, null);
            assertTrue(btf.findByName("tagged").isPresent());
            // encoding the copy again replaces its .BTF in place of adding a second one
            Path again = tmp.resolve("again");
            assertEquals(0, run("btf", "encode", out.toString(), "-o", again.toString(), "--into-elf").rc());
            try (ElfFile twice = ElfFile.open(again)) {
                assertEquals(1, twice.sections().stream().filter(s -> s.name().equals(".BTF")).count());
                assertEquals(copy.sections().size(), twice.sections().size());
            }
        }
    }

    @Test
    void varsAllGivesOneSortedDatasecPerSection(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("all.btf");
        assertEquals(0, run("btf", "encode", bin("gcc-dwarf5").toString(), "-o", out.toString(), "--vars", "all").rc());
        Btf btf = Btf.parse(Files.readAllBytes(out), "all");
        Map<String, Map<String, Integer>> vars = new HashMap<>();
        try (ElfFile elf = ElfFile.open(bin("gcc-dwarf5"))) {
            for (int id : btf.ownIds()) {
                if (!(btf.type(id) instanceof BtfType.Datasec d)) {
                    continue;
                }
                long secSize = elf.section(d.name()).orElseThrow().size();
                long end = 0;
                Map<String, Integer> names = new HashMap<>();
                for (BtfType.VarSecinfo v : d.vars()) {
                    assertTrue(v.offset() >= end, d.name() + ": sorted, no overlap");
                    end = (long) v.offset() + v.size();
                    assertTrue(end <= secSize, d.name() + ": inside the section");
                    BtfType.Var var = (BtfType.Var) btf.type(v.type());
                    names.put(var.name(), var.linkage());
                }
                vars.put(d.name(), names);
            }
        }
        assertEquals(1, vars.get(".data").get("global_counter"));
        assertEquals(0, vars.get(".data..percpu").get("cpu_local_static"), "static linkage");
        assertTrue(vars.get(".bss").containsKey("global_bss"));
        assertTrue(vars.get(".rodata").containsKey("global_ro"));
        assertTrue(vars.get(".data..percpu").keySet().containsAll(java.util.List.of("cpu_stats", "cpu_counter")));
        for (Map<String, Integer> m : vars.values()) {
            for (String n : m.keySet()) {
                assertTrue(!n.contains(".") && !n.startsWith("__UNIQUE_ID") && !n.equals("__func__"), n);
            }
        }
    }

    @Test
    void errors(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("x");
        Run bad = run("btf", "encode", bin("gcc-dwarf5").toString(), "-o", out.toString(), "--vars", "some");
        assertEquals(2, bad.rc());
        Path notElf = tmp.resolve("not-elf");
        Files.writeString(notElf, "hello, not an ELF file at all, but long enough for a header....");
        Run r = run("btf", "encode", notElf.toString(), "-o", out.toString());
        assertEquals(2, r.rc(), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().startsWith("perfj: "), r.err());
    }

    @Test
    void baseMakesSplitBtf(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("m.btf");
        Path base = Fixtures.file("btf-encode/golden/gcc-base.btf");
        Run r = run("btf", "encode", bin("module.o").toString(), "--base", base.toString(), "-o", out.toString());
        assertEquals(0, r.rc(), r.err());
        Btf split = BtfFiles.load(out, BtfFiles.load(base, null));
        assertEquals(BtfFiles.load(base, null).typeCount(), split.startId());
        assertTrue(split.ownTypes().stream().anyMatch(t -> "mod_state".equals(t.name())));
        // --into-elf: the module's copy carries the same split BTF in its .BTF section, as a kernel build leaves it
        Path ko = tmp.resolve("m.ko");
        Run into = run("btf", "encode", bin("module.o").toString(), "--base", base.toString(), "--into-elf",
                "-o", ko.toString());
        assertEquals(0, into.rc(), into.err());
        try (ElfFile elf = ElfFile.open(ko)) {
            SectionHeader sh = elf.section(".BTF").orElseThrow();
            assertArrayEquals(Files.readAllBytes(out), elf.sectionData(sh).bytes(0, sh.size()));
        }
        Run missing = run("btf", "encode", bin("module.o").toString(), "--base", tmp.resolve("none").toString(),
                "-o", out.toString());
        assertTrue(missing.rc() != 0 && missing.err().startsWith("perfj: "), missing.err());
    }

    @Test
    void encodesRelocatableObjects(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("x.btf");
        Run rel = run("btf", "encode", bin("gcc-second.o").toString(), "-o", out.toString());
        assertEquals(0, rel.rc(), rel.err());
        byte[] expected;
        try (ElfFile elf = ElfFile.open(bin("gcc-second.o"))) {
            expected = BtfEncoder.encode(elf, new EncodeOptions(EncodeOptions.Vars.PERCPU, 1));
        }
        assertArrayEquals(expected, Files.readAllBytes(out));
        Btf btf = Btf.parse(Files.readAllBytes(out), out.toString());
        assertTrue(btf.ownTypes().stream().anyMatch(t -> "only_here".equals(t.name())), "struct only_here, named through a relocated string offset");
    }

    /** Relocatable objects of the fixtures, every one encoded on the same base in one run. */
    private static final String[] MODULES = {"module.o", "gcc-second.o", "gcc-types.o", "crc7.ko"};

    @Test
    void severalModulesGiveTheSameBytesForAnyThreadCount(@TempDir Path tmp) throws Exception {
        Path base = Fixtures.file("btf-encode/golden/gcc-base.btf");
        Map<String, byte[]> alone = new HashMap<>();
        for (String m : MODULES) {
            Path out = tmp.resolve(m + ".alone");
            Run r = run("btf", "encode", bin(m).toString(), "-B", base.toString(), "-o", out.toString(), "-j", "1");
            assertEquals(0, r.rc(), r.err());
            alone.put(BtfEncodeCommand.moduleName(Path.of(m)), Files.readAllBytes(out));
        }
        for (String j : new String[] {"1", "2", "3", "8"}) {
            Path dir = tmp.resolve("j" + j);
            java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("btf", "encode", "-B",
                    base.toString(), "-o", dir.toString(), "-j", j));
            for (String m : MODULES) {
                args.add(bin(m).toString());
            }
            Run r = run(args.toArray(String[]::new));
            assertEquals(0, r.rc(), r.err());
            try (var names = Files.list(dir)) {
                assertEquals(alone.keySet(), names.map(p -> p.getFileName().toString())
                        .collect(java.util.stream.Collectors.toSet()), "-j " + j);
            }
            for (var e : alone.entrySet()) {
                assertArrayEquals(e.getValue(), Files.readAllBytes(dir.resolve(e.getKey())), e.getKey() + ", -j " + j);
            }
        }
    }

    @Test
    void aDirectoryMeansItsKoFiles(@TempDir Path tmp) throws Exception {
        Path tree = tmp.resolve("kernel/lib");
        Files.createDirectories(tree);
        Files.copy(bin("crc7.ko"), tree.resolve("crc7.ko"));
        Files.copy(bin("crc7.ko"), tree.resolve("crc-t10dif.ko"));
        Files.copy(bin("module.o"), tree.resolve("module.o"));
        Path base = Fixtures.file("btf-encode/golden/gcc-base.btf");
        Path out = tmp.resolve("btf");
        Run r = run("btf", "encode", "--base", base.toString(), "-o", out.toString(), tmp.resolve("kernel").toString());
        assertEquals(0, r.rc(), r.err());
        try (var names = Files.list(out)) {
            assertEquals(java.util.Set.of("crc7", "crc_t10dif"), names.map(p -> p.getFileName().toString())
                    .collect(java.util.stream.Collectors.toSet()), "only .ko files, named as the kernel names modules");
        }
        assertArrayEquals(Files.readAllBytes(out.resolve("crc7")), Files.readAllBytes(out.resolve("crc_t10dif")));
        // --into-elf: copies keep their file names
        Path copies = tmp.resolve("copies");
        assertEquals(0, run("btf", "encode", "-B", base.toString(), "--into-elf", "-o", copies.toString(),
                tree.resolve("crc7.ko").toString(), tree.resolve("module.o").toString()).rc());
        try (ElfFile elf = ElfFile.open(copies.resolve("crc7.ko"))) {
            SectionHeader sh = elf.section(".BTF").orElseThrow();
            assertArrayEquals(Files.readAllBytes(out.resolve("crc7")), elf.sectionData(sh).bytes(0, sh.size()));
        }
        // two files with one module name are refused before anything is encoded
        Files.createDirectories(tmp.resolve("other"));
        Files.copy(bin("crc7.ko"), tmp.resolve("other/crc7.ko"));
        Run clash = run("btf", "encode", "-o", tmp.resolve("clash").toString(), tree.resolve("crc7.ko").toString(),
                tmp.resolve("other/crc7.ko").toString());
        assertEquals(1, clash.rc());
        assertTrue(clash.err().startsWith("perfj: ") && clash.err().contains("both"), clash.err());
        // a directory without modules (the output directory holds raw BTF only) is an error, not nothing
        Run empty = run("btf", "encode", "-o", tmp.resolve("none").toString(), out.toString());
        assertEquals(1, empty.rc(), empty.err());
        assertTrue(empty.err().contains("no .ko files"), empty.err());
    }

    @Test
    void aBadFileAmongSeveralIsOneLineAndTheOthersAreWritten(@TempDir Path tmp) throws Exception {
        Path bad = tmp.resolve("bad.ko");
        Files.writeString(bad, "hello, not an ELF file at all, but long enough for a header....");
        Path out = tmp.resolve("out");
        Run r = run("btf", "encode", "-o", out.toString(), "-j", "2", bin("crc7.ko").toString(), bad.toString(),
                bin("module.o").toString());
        assertEquals(2, r.rc(), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().startsWith("perfj: ") && r.err().contains(bad.toString()), r.err());
        assertTrue(Files.size(out.resolve("crc7")) > 24 && Files.size(out.resolve("module")) > 24);
        assertTrue(Files.notExists(out.resolve("bad")));
    }
}
