package io.perfj.annotate;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Source markers and text from perfj's own line tables, as objdump -l -S shows them. */
class SourceInterleaverTest {
    private static final Path FIXTURES = Path.of(System.getProperty("perfj.fixtures", "../fixtures")).toAbsolutePath().normalize();

    /**
     * A program built from an absolute source path whose sources then moved: --prefix and
     * --prefix-strip find them, as objdump's options of the same names do.
     */
    @Test
    void prefixAndPrefixStripFindMovedSources() throws IOException, InterruptedException {
        Path tmp = Files.createTempDirectory("perfj-src");
        Path built = tmp.resolve("build/tree/hot.c");
        Files.createDirectories(built.getParent());
        Files.copy(FIXTURES.resolve("src/hot.c"), built);
        Path bin = tmp.resolve("hot");
        Process p;
        try {
            p = new ProcessBuilder("gcc", "-g", "-O1", "-o", bin.toString(), built.toString()).redirectErrorStream(true).start();
        } catch (IOException e) {
            Assumptions.abort("gcc is not installed");
            return;
        }
        p.getInputStream().readAllBytes();
        Assumptions.assumeTrue(p.waitFor() == 0, "gcc failed");
        // the sources move: <tmp>/build/tree/hot.c -> <tmp>/moved/tree/hot.c
        Path moved = tmp.resolve("moved/tree/hot.c");
        Files.createDirectories(moved.getParent());
        Files.move(built, moved);
        int strip = tmp.resolve("build").getNameCount();
        List<String> listing = List.of("", "Disassembly of section .text:", "", "0000000000001149 <leaf_mix>:");
        // one instruction of leaf_mix: find its address from the line table itself
        io.perfj.dwarf.LineTable t;
        try (io.perfj.elf.ElfFile f = io.perfj.elf.ElfFile.open(bin)) {
            t = io.perfj.dwarf.LineTable.of(f);
        }
        long addr = -1;
        for (io.perfj.dwarf.LineTable.Row r : t.rows()) {
            if (r.line() == 13) {
                addr = r.address();
                break;
            }
        }
        assertTrue(addr > 0);
        List<String> in = new java.util.ArrayList<>(listing);
        in.add(String.format("%8x:\tmov    %%rdi,%%rax", addr));
        Disassembler.Request none = new Disassembler.Request(true, true, false, null, null, null, null);
        List<String> without = SourceInterleaver.interleave(in, t, none);
        assertTrue(without.contains(built + ":13"), without.toString());
        assertFalse(without.stream().anyMatch(l -> l.contains("6364136223846793005UL")), "the source is gone from its path");
        Disassembler.Request with = new Disassembler.Request(true, true, false, null, tmp.resolve("moved").toString(),
                Integer.toString(strip), null);
        List<String> found = SourceInterleaver.interleave(in, t, with);
        assertTrue(found.stream().anyMatch(l -> l.contains("x = x * 6364136223846793005UL + 1442695040888963407UL;")),
                found.toString());
        // objdump's context rule: up to five lines before the first line shown
        int at = found.indexOf(built + ":13");
        assertEquals("__attribute__((noinline)) unsigned long leaf_mix(unsigned long x)", found.get(at + 3).strip());
    }
}
