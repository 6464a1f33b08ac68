package io.perfj.symbols;

import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MachineDsoFinderTest {
    static final String HOT_BID = "e2db302c322df9b8b21885b46c9d468e43446773";
    static final String KERNEL_BID = "85c7e4e2ed76f4417e8aaad7c6b040d2bb897a26";
    static final String LIBC_BID = "93ac61ec5a8eb1396f9fbd350e3169a558528a40";

    @TempDir
    Path tmp;

    static byte[] id(String hex) {
        return HexFormat.of().parseHex(hex);
    }

    static SymbolOptions opts(Path symfs, Path cache, Path kallsyms, boolean system) {
        return SymbolOptions.builder().symfs(symfs).buildIdDir(cache).kallsyms(kallsyms).perfMapDir(Path.of("/nonexistent-perf-maps")).systemFiles(system).build();
    }

    /** A loader that says which files have a .symtab (by name) and loads nothing. */
    static class Recording implements SymbolLoader {
        final DefaultSymbolLoader basic = new DefaultSymbolLoader();
        Path loaded;

        @Override
        public SymbolTable loadElf(Path file, Dso dso) throws IOException {
            loaded = file;
            return basic.loadElf(file, dso);
        }

        @Override
        public boolean hasSymtab(Path file) {
            return file.getFileName().toString().equals("debug");
        }

        @Override
        public byte[] elfBuildId(Path file) throws IOException {
            return basic.elfBuildId(file);
        }

        @Override
        public SymbolTable loadKallsyms(Path file) throws IOException {
            loaded = file;
            return basic.loadKallsyms(file);
        }

        @Override
        public SymbolTable loadPerfMap(Path file) throws IOException {
            loaded = file;
            return basic.loadPerfMap(file);
        }
    }

    @Test
    void userObjectFromTheCacheByBuildIdLink() {
        Path cache = BuildIdCacheFixture.dir();
        DsoFinder f = new DsoFinder(opts(null, cache, null, false), new DefaultSymbolLoader());
        Dso hot = new Dso("/work/main/fixtures/bin/hot", DsoKind.USER, id(HOT_BID), null);
        Path p = f.find(hot);
        assertNotNull(p);
        assertTrue(p.endsWith("elf"), p.toString());
        assertTrue(p.toString().contains(".build-id/e2/"), p.toString());
    }

    @Test
    void aFileWithASymtabWinsOverTheFirstFound() {
        Path cache = BuildIdCacheFixture.dir();
        Recording loader = new Recording();
        DsoFinder f = new DsoFinder(opts(null, cache, null, false), loader);
        Dso libc = new Dso("/usr/lib/x86_64-linux-gnu/libc.so.6", DsoKind.USER, id(LIBC_BID), f::load);
        libc.symbols();
        assertNotNull(loader.loaded);
        assertEquals("debug", loader.loaded.getFileName().toString());
        assertEquals(loader.loaded.toString(), libc.symbolSource());
    }

    /**
     * Without a recorded build-id nothing is found without system access; with it, the file at
     * the recorded path gives its build-id, by which the cache is then searched first (perf's
     * dso__load order).
     */
    @Test
    void withoutBuildIdTheRecordedPathNeedsSystemAccessAndGivesTheBuildIdForTheCache() throws java.io.IOException {
        Path cache = BuildIdCacheFixture.dir();
        // A path the cache has no entry for (the checkout may sit where the fixture was recorded).
        Path hotFile = Files.createTempDirectory("perfj-hot").resolve("hot");
        Files.copy(Fixtures.file("bin/hot"), hotFile);
        Dso hot = new Dso(hotFile.toString(), DsoKind.USER, null, null);
        assertNull(new DsoFinder(opts(null, cache, null, false), new DefaultSymbolLoader()).find(hot));
        assertTrue(hot.buildId().isEmpty());
        Path found = new DsoFinder(opts(null, cache, null, true), new DefaultSymbolLoader()).find(hot);
        assertEquals(HOT_BID, hot.buildIdHex());
        assertTrue(found.startsWith(cache), found.toString());
        assertEquals(HOT_BID, HexFormat.of().formatHex(new DefaultSymbolLoader().elfBuildId(found)));
        // with no cache, the recorded path itself
        Dso again = new Dso(hotFile.toString(), DsoKind.USER, null, null);
        assertEquals(hotFile, new DsoFinder(opts(null, tmp.resolve("nocache"), null, true), new DefaultSymbolLoader()).find(again));
    }

    @Test
    void withoutBuildIdTheCachePathWithASingleBuildIdIsTheLastResort() {
        Path cache = BuildIdCacheFixture.dir();
        DsoFinder f = new DsoFinder(opts(null, cache, null, false), new DefaultSymbolLoader());
        Path p = f.find(new Dso("/work/main/fixtures/bin/hot", DsoKind.USER, null, null));
        assertNotNull(p);
        assertTrue(p.toString().endsWith(HOT_BID + "/elf"), p.toString());
        Path k = f.find(new Dso("[kernel.kallsyms]", DsoKind.KERNEL, null, null));
        assertNotNull(k);
        assertTrue(k.toString().endsWith(KERNEL_BID + "/kallsyms"), k.toString());
    }

    @Test
    void recordedPathIsSkippedOnBuildIdMismatch() {
        Path hotFile = Fixtures.file("bin/hot");
        DsoFinder f = new DsoFinder(opts(null, tmp, null, true), new DefaultSymbolLoader());
        Dso right = new Dso(hotFile.toString(), DsoKind.USER, id(HOT_BID), null);
        Dso wrong = new Dso(hotFile.toString(), DsoKind.USER, id("00112233445566778899aabbccddeeff00112233"), null);
        assertEquals(hotFile, f.find(right));
        assertNull(f.find(wrong));
    }

    /**
     * Neither the recording nor the cache knows the object's build-id: it is read from the file,
     * and the debug file under /usr/lib/debug/.build-id found by it (where the file itself has
     * no .symtab), as perf's dso__load does.
     */
    @Test
    void withoutARecordedBuildIdTheFilesOwnFindsItsDebugFile() throws IOException {
        Path root = tmp.resolve("root");
        Path bin = root.resolve("opt/app/hot");
        Path debug = root.resolve("usr/lib/debug/.build-id/" + HOT_BID.substring(0, 2) + "/" + HOT_BID.substring(2) + ".debug");
        Files.createDirectories(bin.getParent());
        Files.createDirectories(debug.getParent());
        Files.copy(Fixtures.file("bin/hot"), bin);
        Files.copy(Fixtures.file("bin/hot"), debug);
        Recording onlyDebugHasSymtab = new Recording() {
            @Override
            public boolean hasSymtab(Path file) {
                return file.getFileName().toString().endsWith(".debug");
            }
        };
        DsoFinder f = new DsoFinder(opts(root, tmp.resolve("nocache"), null, false), onlyDebugHasSymtab);
        Dso hot = new Dso("/opt/app/hot", DsoKind.USER, null, null);
        assertEquals(debug, f.find(hot));
        assertEquals(HOT_BID, hot.buildIdHex());
    }

    @Test
    void symfsPrefixesRecordedPaths() throws IOException {
        Path root = tmp.resolve("root");
        Path copy = root.resolve("opt/app/hot");
        Files.createDirectories(copy.getParent());
        Files.copy(Fixtures.file("bin/hot"), copy);
        DsoFinder f = new DsoFinder(opts(root, tmp.resolve("nocache"), null, false), new DefaultSymbolLoader());
        assertEquals(copy, f.find(new Dso("/opt/app/hot", DsoKind.USER, id(HOT_BID), null)));
    }

    @Test
    void kernelFromKallsymsOptionThenCacheThenProcOnlyWithMatchingBuildId() throws IOException {
        Path cache = BuildIdCacheFixture.dir();
        Dso kernel = new Dso("[kernel.kallsyms]", DsoKind.KERNEL, id(KERNEL_BID), null);
        Path given = tmp.resolve("my-kallsyms");
        Files.writeString(given, "ffffffff81000000 T _text\n");
        assertEquals(given, new DsoFinder(opts(null, cache, given, false), new DefaultSymbolLoader()).find(kernel));
        Path fromCache = new DsoFinder(opts(null, cache, null, false), new DefaultSymbolLoader()).find(kernel);
        assertNotNull(fromCache);
        assertTrue(fromCache.endsWith("kallsyms"));

        Path proc = tmp.resolve("proc-kallsyms");
        Files.writeString(proc, "ffffffff81000000 T _text\n");
        Path notes = tmp.resolve("notes");
        Files.write(notes, note(id(KERNEL_BID)));
        Path empty = tmp.resolve("empty-cache");
        DsoFinder matching = new DsoFinder(opts(null, empty, null, true), new DefaultSymbolLoader(), proc, notes);
        assertEquals(proc, matching.find(kernel));
        Files.write(notes, note(id("00112233445566778899aabbccddeeff00112233")));
        assertNull(matching.find(kernel), "running kernel differs: /proc/kallsyms is not used");
        DsoFinder noSystem = new DsoFinder(opts(null, empty, null, false), new DefaultSymbolLoader(), proc, notes);
        assertNull(noSystem.find(new Dso("[kernel.kallsyms]", DsoKind.KERNEL, null, null)));
    }

    @Test
    void underSymfsTheKernelTakesNoKallsymsOfThisMachine() throws IOException {
        Path proc = tmp.resolve("proc-kallsyms");
        Files.writeString(proc, "ffffffff81000000 T _text\n");
        Path notes = tmp.resolve("notes");
        Files.write(notes, note(id(KERNEL_BID)));
        Path symfs = Files.createDirectories(tmp.resolve("symfs"));
        Path onlyOne = tmp.resolve("cache");
        Files.createDirectories(onlyOne.resolve("[kernel.kallsyms]").resolve(KERNEL_BID));
        Files.writeString(onlyOne.resolve("[kernel.kallsyms]").resolve(KERNEL_BID).resolve("kallsyms"),
                "ffffffff81000000 T _text\n");
        Dso noBid = new Dso("[kernel.kallsyms]", DsoKind.KERNEL, null, null);
        Dso matching = new Dso("[kernel.kallsyms]", DsoKind.KERNEL, id(KERNEL_BID), null);
        DsoFinder withoutSymfs = new DsoFinder(opts(null, onlyOne, null, true), new DefaultSymbolLoader(), proc, notes);
        assertEquals(proc, withoutSymfs.find(noBid));
        DsoFinder f = new DsoFinder(opts(symfs, onlyOne, null, true), new DefaultSymbolLoader(), proc, notes);
        assertNull(f.find(noBid), "neither /proc/kallsyms nor the cache's only kernel");
        assertEquals(onlyOne.resolve("[kernel.kallsyms]").resolve(KERNEL_BID).resolve("kallsyms"), f.find(matching),
                "the cache's kallsyms of the recorded build-id");
        Path given = tmp.resolve("given");
        Files.writeString(given, "ffffffff81000000 T _text\n");
        assertEquals(given, new DsoFinder(opts(symfs, onlyOne, given, true), new DefaultSymbolLoader(), proc, notes)
                .find(noBid));
    }

    @Test
    void aKernelWithoutKallsymsAnywhereSaysSoInPerfsWords() throws IOException {
        Path notes = tmp.resolve("other-notes");
        Files.write(notes, note(id("00112233445566778899aabbccddeeff00112233")));
        DsoFinder f = new DsoFinder(opts(null, tmp.resolve("empty"), null, true), new DefaultSymbolLoader(),
                tmp.resolve("proc-kallsyms"), notes);
        Dso kernel = new Dso("[kernel.kallsyms]", DsoKind.KERNEL, id(KERNEL_BID), f::load);
        assertNull(kernel.symbols().find(0xffffffff8225fd19L));
        assertEquals("No kallsyms or vmlinux with build-id " + KERNEL_BID + " was found", kernel.loadError());
        // found in the build-id cache: no message
        Path cache = BuildIdCacheFixture.dir();
        DsoFinder cached = new DsoFinder(opts(null, cache, null, false), new DefaultSymbolLoader());
        Dso k2 = new Dso("[kernel.kallsyms]", DsoKind.KERNEL, id(KERNEL_BID), cached::load);
        assertNotNull(k2.symbols().find(0xffffffff8225fd19L));
        assertNull(k2.loadError());
        // a kallsyms file named by the user that is missing is not perf's case either
        DsoFinder given = new DsoFinder(opts(null, tmp.resolve("empty"), tmp.resolve("absent"), true), new DefaultSymbolLoader());
        Dso k3 = new Dso("[kernel.kallsyms]", DsoKind.KERNEL, id(KERNEL_BID), given::load);
        k3.symbols();
        assertNull(k3.loadError());
    }

    static byte[] note(byte[] desc) {
        ByteBuffer b = ByteBuffer.allocate(12 + 4 + desc.length).order(ByteOrder.nativeOrder());
        b.putInt(4).putInt(desc.length).putInt(3).put(new byte[] {'G', 'N', 'U', 0}).put(desc);
        return b.array();
    }

    @Test
    void kernelSymbolsLoadFromTheCachedKallsyms() {
        Path cache = BuildIdCacheFixture.dir();
        DsoFinder f = new DsoFinder(opts(null, cache, null, false), new DefaultSymbolLoader());
        Dso kernel = new Dso("[kernel.kallsyms]", DsoKind.KERNEL, id(KERNEL_BID), f::load);
        Symbol s = kernel.symbols().find(0xffffffff8225fd19L);
        assertNotNull(s);
        assertEquals("pvm_irq_enable", s.name());
        assertEquals(0x19, 0xffffffff8225fd19L - s.start());
    }

    /** report -v's letter for where each object's symbols came from (perf's dso__symtab_origin). */
    @Test
    void symtabOriginSaysWhichKindOfFileGaveTheSymbols() throws IOException {
        Path cache = BuildIdCacheFixture.dir();
        DsoFinder f = new DsoFinder(opts(null, cache, null, false), new DefaultSymbolLoader());
        Dso kernel = new Dso("[kernel.kallsyms]", DsoKind.KERNEL, id(KERNEL_BID), f::load);
        Dso hot = new Dso("/work/main/fixtures/bin/hot", DsoKind.USER, id(HOT_BID), f::load);
        Dso libc = new Dso("/usr/lib/x86_64-linux-gnu/libc.so.6", DsoKind.USER, id(LIBC_BID), f::load);
        Dso missing = new Dso("/opt/none/libx.so", DsoKind.USER, id("00112233"), f::load);
        for (Dso d : new Dso[] {kernel, hot, libc, missing}) {
            d.symbols();
        }
        assertEquals('k', kernel.symtabOrigin());
        assertEquals('B', hot.symtabOrigin(), "the cache's elf");
        assertEquals('D', libc.symtabOrigin(), "the cache's debug file, which has the .symtab");
        assertEquals('!', missing.symtabOrigin());
        // the object's own path, under --symfs
        Path root = tmp.resolve("root");
        Path copy = root.resolve("opt/app/hot");
        Files.createDirectories(copy.getParent());
        Files.copy(Fixtures.file("bin/hot"), copy);
        DsoFinder s = new DsoFinder(opts(root, tmp.resolve("nocache"), null, false), new DefaultSymbolLoader());
        Dso own = new Dso("/opt/app/hot", DsoKind.USER, id(HOT_BID), s::load);
        own.symbols();
        assertEquals('d', own.symtabOrigin());
    }

    @Test
    void missingFileShowsTheNameWithoutWarningAndACorruptFileGivesOneWarning() throws IOException {
        Path root = tmp.resolve("root");
        Path bad = root.resolve("lib/bad.so");
        Files.createDirectories(bad.getParent());
        Files.writeString(bad, "this is not an ELF file");
        DsoFinder f = new DsoFinder(opts(root, tmp.resolve("nocache"), null, false), new DefaultSymbolLoader());
        Dso missing = new Dso("/lib/missing.so", DsoKind.USER, null, f::load);
        Dso corrupt = new Dso("/lib/bad.so", DsoKind.USER, null, f::load);
        assertSame(SymbolTable.EMPTY, missing.symbols());
        assertNull(missing.loadError());
        assertEquals(0, corrupt.symbols().size());
        assertNotNull(corrupt.loadError());
        assertTrue(corrupt.loadError().contains("/lib/bad.so"), corrupt.loadError());
        String first = corrupt.loadError();
        corrupt.symbols();
        assertEquals(first, corrupt.loadError(), "loaded once, one message");
    }

    @Test
    void jitMapsComeFromThePerfMapDirectory() {
        Path maps = Fixtures.file("perf-maps");
        SymbolOptions o = SymbolOptions.builder().perfMapDir(maps).noSystemFiles().build();
        DsoFinder f = new DsoFinder(o, new DefaultSymbolLoader());
        Dso jit = new Dso("/tmp/perf-9690.map", DsoKind.JIT_MAP, null, f::load);
        assertEquals(maps.resolve("perf-9690.map"), f.find(jit));
        assertTrue(jit.symbols().size() > 0);
    }
}
