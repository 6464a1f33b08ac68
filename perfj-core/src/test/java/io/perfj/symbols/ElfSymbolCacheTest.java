package io.perfj.symbols;

import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ELF symbols and facts read through the cache equal those parsed without one, on the first
 * run and the next; a replaced file or a damaged entry means a parse.
 */
class ElfSymbolCacheTest {
    @TempDir
    Path tmp;

    private static final long HOUR_AGO = System.currentTimeMillis() - 3_600_000;

    /** A settled copy of a committed ELF file (an hour old: recent files are not cached). */
    private Path copy(String fixture, String name) throws IOException {
        Path p = tmp.resolve(name);
        Files.copy(Fixtures.file(fixture), p, StandardCopyOption.REPLACE_EXISTING);
        Files.setLastModifiedTime(p, FileTime.fromMillis(HOUR_AGO));
        return p;
    }

    private static Stream<String> objects() {
        return Stream.of("bin/hot", "bin/probed", "btf-encode/bin/gcc-dwarf5");
    }

    @Test
    void cachedTablesEqualParsedOnes() throws IOException {
        Path dir = tmp.resolve("cache");
        for (String f : objects().toList()) {
            Path p = copy(f, "obj");
            for (DsoKind kind : List.of(DsoKind.USER, DsoKind.KERNEL_MODULE)) {
                Dso dso = new Dso(p.toString(), kind, null, d -> SymbolTable.EMPTY);
                SymbolTable want = new DefaultSymbolLoader(false, io.perfj.symbols.UserSymbolRules.PERFJ, null).loadElf(p, dso);
                assertTrue(want.size() > 5, f + ": " + want.size() + " symbols");
                DefaultSymbolLoader cached = new DefaultSymbolLoader(false, io.perfj.symbols.UserSymbolRules.PERFJ, dir);
                assertSame(f, want, cached.loadElf(p, dso));
                assertSame(f, want, new DefaultSymbolLoader(false, io.perfj.symbols.UserSymbolRules.PERFJ, dir).loadElf(p, dso));
                assertSame(f, want, new DefaultSymbolLoader(false, io.perfj.symbols.UserSymbolRules.PERFJ, dir).loadElf(p, dso));
            }
            DefaultSymbolLoader plain = new DefaultSymbolLoader(false, io.perfj.symbols.UserSymbolRules.PERFJ, null);
            for (int run = 0; run < 2; run++) {
                DefaultSymbolLoader cached = new DefaultSymbolLoader(false, io.perfj.symbols.UserSymbolRules.PERFJ, dir);
                assertEquals(plain.hasSymtab(p), cached.hasSymtab(p), f);
                assertArrayEquals(plain.elfBuildId(p), cached.elfBuildId(p), f);
            }
        }
        try (Stream<Path> s = Files.walk(dir)) {
            assertTrue(s.anyMatch(x -> x.toString().contains("elf-symbols")), "entries were written");
        }
    }

    @Test
    void aReplacedFileIsParsedAgain() throws IOException {
        Path dir = tmp.resolve("cache");
        Path p = copy("bin/hot", "obj");
        Dso dso = new Dso(p.toString(), DsoKind.USER, null, d -> SymbolTable.EMPTY);
        new DefaultSymbolLoader(false, io.perfj.symbols.UserSymbolRules.PERFJ, dir).loadElf(p, dso);
        byte[] hot = new DefaultSymbolLoader(false, io.perfj.symbols.UserSymbolRules.PERFJ, dir).elfBuildId(p);
        // another object at the same path, same time
        copy("bin/probed", "obj");
        SymbolTable want = new DefaultSymbolLoader(false, io.perfj.symbols.UserSymbolRules.PERFJ, null).loadElf(p, dso);
        assertSame("replaced", want, new DefaultSymbolLoader(false, io.perfj.symbols.UserSymbolRules.PERFJ, dir).loadElf(p, dso));
        byte[] probed = new DefaultSymbolLoader(false, io.perfj.symbols.UserSymbolRules.PERFJ, null).elfBuildId(p);
        assertArrayEquals(probed, new DefaultSymbolLoader(false, io.perfj.symbols.UserSymbolRules.PERFJ, dir).elfBuildId(p));
        assertTrue(!java.util.Arrays.equals(hot, probed), "two objects, two build-ids");
    }

    /**
     * A C++ object's PLT entries are kept demangled: the same cache serves loads of both ways of
     * naming, each its own names ({@code operator new(unsigned long)@plt}, {@code operator new@plt}).
     */
    @Test
    void eachDemanglingGetsItsOwnNames() throws IOException {
        Path dir = tmp.resolve("cache");
        Path p = copy("bin/cppinline", "obj");
        Dso dso = new Dso(p.toString(), DsoKind.USER, null, d -> SymbolTable.EMPTY);
        for (Demangling d : List.of(Demangling.CURRENT, Demangling.PERF_6_1, Demangling.CURRENT, Demangling.PERF_6_1)) {
            SymbolTable want = new DefaultSymbolLoader(false, d, null).loadElf(p, dso);
            String plt = d == Demangling.CURRENT ? "operator new(unsigned long)@plt" : "operator new@plt";
            assertTrue(want.symbols().stream().anyMatch(s -> s.name().equals(plt)), d + ": " + plt);
            assertSame(d.toString(), want, new DefaultSymbolLoader(false, d, dir).loadElf(p, dso));
        }
    }

    @Test
    void aFileModifiedJustNowIsNotCached() throws IOException {
        Path dir = tmp.resolve("cache");
        Path p = copy("bin/hot", "obj");
        Files.setLastModifiedTime(p, FileTime.fromMillis(System.currentTimeMillis()));
        Dso dso = new Dso(p.toString(), DsoKind.USER, null, d -> SymbolTable.EMPTY);
        new DefaultSymbolLoader(false, io.perfj.symbols.UserSymbolRules.PERFJ, dir).loadElf(p, dso);
        new DefaultSymbolLoader(false, io.perfj.symbols.UserSymbolRules.PERFJ, dir).hasSymtab(p);
        assertTrue(!Files.exists(dir), "no entry for a file two writes could not be told apart in");
    }

    @Test
    void aDamagedEntryIsParsedAgain() throws IOException {
        Path dir = tmp.resolve("cache");
        Path p = copy("bin/hot", "obj");
        Dso dso = new Dso(p.toString(), DsoKind.USER, null, d -> SymbolTable.EMPTY);
        SymbolTable want = new DefaultSymbolLoader(false, io.perfj.symbols.UserSymbolRules.PERFJ, null).loadElf(p, dso);
        new DefaultSymbolLoader(false, io.perfj.symbols.UserSymbolRules.PERFJ, dir).loadElf(p, dso);
        new DefaultSymbolLoader(false, io.perfj.symbols.UserSymbolRules.PERFJ, dir).hasSymtab(p);
        List<Path> entries;
        try (Stream<Path> s = Files.walk(dir)) {
            entries = s.filter(Files::isRegularFile).toList();
        }
        assertEquals(2, entries.size(), "a facts entry and a symbols entry: " + entries);
        Random r = new Random(3);
        for (Path e : entries) {
            byte[] good = Files.readAllBytes(e);
            for (int i = 0; i < 100; i++) {
                // cut short anywhere: never used (a read never fails, and gives the parsed table)
                Files.write(e, java.util.Arrays.copyOf(good, r.nextInt(good.length)));
                DefaultSymbolLoader l = new DefaultSymbolLoader(false, io.perfj.symbols.UserSymbolRules.PERFJ, dir);
                assertSame("cut at " + i, want, l.loadElf(p, dso));
                assertTrue(l.hasSymtab(p));
            }
            Files.write(e, good);
        }
    }

    /** The same symbols, by position: addresses, ends, bindings and names. */
    private static void assertSame(String what, SymbolTable want, SymbolTable got) {
        assertEquals(want.size(), got.size(), what);
        List<Symbol> w = want.symbols();
        List<Symbol> g = got.symbols();
        for (int i = 0; i < w.size(); i++) {
            assertEquals(w.get(i), g.get(i), what + ": symbol " + i);
        }
        for (Symbol s : w) {
            assertEquals(want.find(s.start()), got.find(s.start()), what + " lookup " + Long.toHexString(s.start()));
        }
    }
}
