package io.perfj.symbols;

import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Where a .gnu_debuglink file is looked for, and that one with another CRC is not used. */
class DebugLinksTest {
    private static final Path FIXTURE = Path.of("debuglink/opt/perfj-debuglink/beside");

    @TempDir
    Path tmp;

    /** The stripped program in {@code tmp/bin/} and its debug file's bytes. */
    private Path program() throws IOException {
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        return Files.copy(Fixtures.file(FIXTURE.resolve("dlprog").toString()), bin.resolve("dlprog"));
    }

    private static byte[] debugBytes() throws IOException {
        return Files.readAllBytes(Fixtures.file(FIXTURE.resolve("dlprog.debug").toString()));
    }

    private static Path write(Path p, byte[] b) throws IOException {
        Files.createDirectories(p.getParent());
        return Files.write(p, b);
    }

    private Function<String, Path> global() {
        return d -> tmp.resolve("usr/lib/debug" + d);
    }

    @Test
    void linkNamesTheDebugFileAndItsCrc() throws IOException {
        var link = DebugLinks.link(program()).orElseThrow();
        assertEquals("dlprog.debug", link.fileName());
        assertTrue(DebugLinks.crcMatches(Fixtures.file(FIXTURE.resolve("dlprog.debug").toString()), link.crc()));
    }

    @Test
    void placesAreBesideThenDotDebugThenGlobalDirectory() throws IOException {
        Path p = program();
        assertEquals(List.of(p.resolveSibling("dlprog.debug"), p.resolveSibling(".debug").resolve("dlprog.debug"),
                        tmp.resolve("usr/lib/debug/opt/x/dlprog.debug")),
                DebugLinks.places(p, "dlprog.debug", "/opt/x", global()));
        assertEquals(List.of(p.resolveSibling(".debug").resolve("dlprog")),
                DebugLinks.places(p, "dlprog", "/opt/x", null), "a link naming the binary itself: not beside it");
    }

    @Test
    void findsInPerfsOrder() throws IOException {
        Path p = program();
        byte[] d = debugBytes();
        Path global = write(tmp.resolve("usr/lib/debug/opt/x/dlprog.debug"), d);
        assertEquals(List.of(global), DebugLinks.find(p, "/opt/x", global()));
        Path dot = write(p.resolveSibling(".debug").resolve("dlprog.debug"), d);
        assertEquals(List.of(dot, global), DebugLinks.find(p, "/opt/x", global()));
        Path beside = write(p.resolveSibling("dlprog.debug"), d);
        assertEquals(List.of(beside, dot, global), DebugLinks.find(p, "/opt/x", global()));
    }

    @Test
    void aFileWithAnotherCrcIsNotUsed() throws IOException {
        Path p = program();
        byte[] d = debugBytes();
        Path beside = write(p.resolveSibling("dlprog.debug"), d);
        Files.write(beside, new byte[] {0}, StandardOpenOption.APPEND);
        Path dot = write(p.resolveSibling(".debug").resolve("dlprog.debug"), d);
        assertEquals(List.of(dot), DebugLinks.find(p, "/opt/x", global()));
        Files.delete(dot);
        assertEquals(List.of(), DebugLinks.find(p, "/opt/x", global()));
        assertFalse(DebugLinks.crcMatches(beside, DebugLinks.link(p).orElseThrow().crc()));
    }

    @Test
    void noLinkNoFiles() throws IOException {
        Path notElf = write(tmp.resolve("bin/plain"), new byte[] {1, 2, 3});
        assertEquals(List.of(), DebugLinks.find(notElf, "/bin", global()));
        assertEquals(List.of(), DebugLinks.find(tmp.resolve("missing"), "/bin", global()));
    }

    /** The finder puts the linked file first, as perf's DEBUGLINK type comes before the others. */
    @Test
    void finderTriesTheLinkedFileFirstUnderSymfs() throws IOException {
        Path root = tmp.resolve("root");
        Path p = root.resolve("opt/x/dlprog");
        write(p, Files.readAllBytes(program()));
        Path dot = write(root.resolve("opt/x/.debug/dlprog.debug"), debugBytes());
        SymbolOptions o = MachineDsoFinderTest.opts(root, tmp.resolve("no-cache"), null, false);
        DsoFinder f = new DsoFinder(o, new DefaultSymbolLoader(o, io.perfj.symbols.UserSymbolRules.PERFJ));
        Dso dso = new Dso("/opt/x/dlprog", DsoKind.USER, null, null);
        List<Path> c = f.elfCandidates(dso);
        assertEquals(dot, c.getFirst(), c.toString());
        assertTrue(c.contains(p), c.toString());
    }
}
