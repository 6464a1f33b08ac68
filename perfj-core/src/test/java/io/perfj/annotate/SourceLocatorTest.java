package io.perfj.annotate;

import io.perfj.bpf.RecordedBpf;
import io.perfj.symbols.DefaultSymbolLoader;
import io.perfj.symbols.Dso;
import io.perfj.symbols.DsoFinder;
import io.perfj.symbols.DsoKind;
import io.perfj.symbols.Symbol;
import io.perfj.symbols.SymbolOptions;
import io.perfj.symbols.SymbolTable;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Functions' source positions from a build-id cache's files, and the reasons when there are none. */
class SourceLocatorTest {
    private static final String BUILD_ID = "e2db302c322df9b8b21885b46c9d468e43446773";
    /** compute_a in fixtures/bin/hot ({@code nm}). */
    private static final Symbol COMPUTE_A = new Symbol(0x1182, 0x1182 + 45, "compute_a", 'G');

    @TempDir
    Path cache;

    private SourceLocator locator(byte[] file) throws Exception {
        return locator(file, BUILD_ID);
    }

    private SourceLocator locator(byte[] file, String buildId) throws Exception {
        Path link = DsoFinder.linkName(cache, buildId);
        Files.createDirectories(link.getParent());
        Files.write(link, file);
        SymbolOptions opts = SymbolOptions.builder().buildIdDir(cache).perfMapDir(null).noSystemFiles().build();
        return new SourceLocator(new DsoFinder(opts, new DefaultSymbolLoader(false)),
                () -> RecordedBpf.of(List.of(), Map.of(), ByteOrder.LITTLE_ENDIAN));
    }

    private static Dso hot() {
        return new Dso("/build/hot", DsoKind.USER, HexFormat.of().parseHex(BUILD_ID), d -> SymbolTable.ofSorted(List.of(COMPUTE_A)));
    }

    @Test
    void aFunctionStartsAtItsLineTableRow() throws Exception {
        SourceLocator.Answer a = locator(Files.readAllBytes(Fixtures.file("bin/hot"))).find(hot(), COMPUTE_A);
        assertEquals(new SourceLocator.Place("./src/hot.c", 18, a.place().column(), "dwarf"), a.place());
        assertNull(a.reason());
    }

    /**
     * LLD's layout (rust-lld.data's binary): the symbol is kept as file offset 0x20ac0, the line
     * table is keyed by its address 0x21ac0.
     */
    @Test
    void aFunctionOfAnLldBinaryStartsAtItsAddressesRow() throws Exception {
        String id = "1c46f5f4748e891f05fed16fb83b9bf568969a74";
        Path elf = io.perfj.testing.BuildIdCacheFixture.unpacked("rust-lld.buildid-cache")
                .resolve("work/wt-rust/fixtures/bin/rustlld/" + id + "/elf");
        Symbol rehash = new Symbol(0x20ac0, 0x20ac0 + 0x86b, "hashbrown::raw::RawTable<T,A>::reserve_rehash", 'G');
        Dso dso = new Dso("/build/rustlld", DsoKind.USER, HexFormat.of().parseHex(id),
                d -> SymbolTable.ofSorted(List.of(rehash)));
        SourceLocator.Answer a = locator(Files.readAllBytes(elf), id).find(dso, rehash);
        assertEquals("/rust/deps/hashbrown-0.16.1/src/raw/mod.rs", a.place().file(), String.valueOf(a.reason()));
        assertEquals(999, a.place().line());
    }

    @Test
    void aDamagedFileIsAReasonNamingIt() throws Exception {
        byte[] whole = Files.readAllBytes(Fixtures.file("bin/hot"));
        byte[] cut = java.util.Arrays.copyOf(whole, 200);
        SourceLocator.Answer a = locator(cut).find(hot(), COMPUTE_A);
        assertNull(a.place());
        assertTrue(a.reason().startsWith("cannot read the line table of "), a.reason());
    }

    @Test
    void noPositionForWhatHasNone() throws Exception {
        SourceLocator l = locator(Files.readAllBytes(Fixtures.file("bin/hot")));
        Symbol inlined = new Symbol(0x1182, 0x1182 + 45, "inner", Symbol.INLINED);
        assertEquals("inlined function", l.find(hot(), inlined).reason());
        assertEquals("no symbol", l.find(hot(), null).reason());
        Dso bpf = new Dso("bpf_prog_x", DsoKind.BPF, null, d -> SymbolTable.ofSorted(List.of()));
        assertTrue(l.find(bpf, new Symbol(0xffffffffc0000000L, 0xffffffffc0000010L, "bpf_prog_x", 'G')).reason()
                .contains("no BPF program info"));
    }

    private static io.perfj.jit.JitCode nodeRun() throws Exception {
        Path dump;
        try (var files = Files.list(Fixtures.file("jitdump"))) {
            dump = files.filter(f -> f.getFileName().toString().endsWith(".dump")).findFirst().orElseThrow();
        }
        return io.perfj.jit.JitDump.read(dump).codes().stream()
                .filter(c -> c.name().startsWith("JS:*run /tmp/perfj-jitdump/hot.js:")).findFirst().orElseThrow();
    }

    private static SourceLocator.Answer jitAnswer(io.perfj.jit.JitCode code) throws Exception {
        Dso d = new Dso("/tmp/jitted-1-" + code.index() + ".so", code);
        return new SourceLocator(null, () -> null).find(d, d.symbols().symbols().getFirst());
    }

    /** JIT code: the runtime's own source position, from the jitdump's debug-info record for the load. */
    @Test
    void jitCodeFromTheDumpsDebugInfo() throws Exception {
        io.perfj.jit.JitCode run = nodeRun();
        long at = run.codeAddr();
        var first = new io.perfj.jit.JitRecord.LineEntry(at + 0x20, 6, 13, "/tmp/perfj-jitdump/hot.js");
        var later = new io.perfj.jit.JitRecord.LineEntry(at + 0x40, 7, 5, "/tmp/perfj-jitdump/hot.js");
        var outside = new io.perfj.jit.JitRecord.LineEntry(at - 0x10, 1, 1, "/tmp/other.js");
        // node starts its entries after the prologue: the first one inside the code is the function's
        SourceLocator.Answer a = jitAnswer(new io.perfj.jit.JitCode(run.dump(), run.load(), List.of(later, outside, first), run.mapLength()));
        assertEquals(new SourceLocator.Place("/tmp/perfj-jitdump/hot.js", 6, 0, "jitdump"), a.place(), a.reason());
        var atStart = new io.perfj.jit.JitRecord.LineEntry(at, 5, 1, "/tmp/perfj-jitdump/hot.js");
        a = jitAnswer(new io.perfj.jit.JitCode(run.dump(), run.load(), List.of(first, atStart), run.mapLength()));
        assertEquals(5, a.place().line());
        a = jitAnswer(new io.perfj.jit.JitCode(run.dump(), run.load(), List.of(outside), run.mapLength()));
        assertNull(a.place());
        assertEquals("the jitdump has no debug info for the function", a.reason());
    }

    /** node 20's own records: their file names are shifted out of place, and that is said, not shown. */
    @Test
    void nodesDamagedDebugInfoIsAReasonNotAName() throws Exception {
        SourceLocator.Answer a = jitAnswer(nodeRun());
        assertNull(a.place(), String.valueOf(a.place()));
        assertTrue(a.reason().contains("damaged"), a.reason());
    }
}
