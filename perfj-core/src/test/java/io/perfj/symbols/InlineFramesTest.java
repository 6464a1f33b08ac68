package io.perfj.symbols;

import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * No addr2line is started for a recorded frame in an object without DWARF within addr2line's
 * reach (it could only name the frame's own function), nor where a {@code .gnu_debuglink} file
 * brings DWARF that perfj reads itself: a stand-in for {@code addr2line} writes down each start
 * and answers every address with two functions.
 */
class InlineFramesTest {
    private static final Path FIXTURE = Path.of("debuglink/opt/perfj-debuglink/beside");

    @TempDir
    Path tmp;

    /** The stand-in: each start appends its file to {@code starts}. */
    private Path tool(Path starts) throws IOException {
        Path t = tmp.resolve("fake-addr2line");
        Files.writeString(t, """
                #!/bin/sh
                echo "$5" >> '%s'
                while read a; do
                  echo "$a"
                  case "$a" in
                    0xffffffffffffffff) echo '??'; echo '??:0' ;;
                    *) echo inner; echo 'a.c:1'; echo outer; echo 'a.c:2' ;;
                  esac
                done
                """.formatted(starts));
        Files.setPosixFilePermissions(t, PosixFilePermissions.fromString("rwx------"));
        return t;
    }

    /** The frames perf 7.2 makes of a recorded address in {@code program}. */
    private List<Location> recorded(Path program, Path starts, long ip) throws IOException {
        SymbolOptions o = MachineDsoFinderTest.opts(null, tmp.resolve("no-cache"), null, true);
        ObjectCache cache = new ObjectCache(new DsoFinder(o, new DefaultSymbolLoader(false)));
        try (Addr2Line names = new Addr2Line(tool(starts).toString())) {
            InlineFrames frames = new InlineFrames(cache, names);
            Dso dso = new Dso(program.toString(), DsoKind.USER, null, d -> null);
            Location loc = new Location(null, dso, new Symbol(0x1080, 0x11c0, "main", 'T'), ip, ip, '.');
            List<Location> out = frames.withInlinesAndFrame(loc);
            // the frame itself comes last (with the line addr2line gives it, when it runs)
            assertEquals(loc.symbol(), out.getLast().symbol());
            assertEquals(loc.ip(), out.getLast().ip());
            return out;
        } finally {
            cache.close();
        }
    }

    @Test
    void anObjectWithoutDwarfStartsNoAddr2line() throws IOException {
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        Path program = Files.copy(Fixtures.file(FIXTURE.resolve("dlprog").toString()), bin.resolve("dlprog"));
        Path starts = tmp.resolve("starts");
        assertEquals(1, recorded(program, starts, 0x1090).size());
        assertFalse(Files.exists(starts), "addr2line started");
    }

    @Test
    void aDebugLinkFileBringsDwarf() throws IOException {
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        Path program = Files.copy(Fixtures.file(FIXTURE.resolve("dlprog").toString()), bin.resolve("dlprog"));
        Files.copy(Fixtures.file(FIXTURE.resolve("dlprog.debug").toString()), bin.resolve("dlprog.debug"));
        Path starts = tmp.resolve("starts");
        // mix_block inlined in main at dlprog.c:42, as addr2line names it
        List<Location> frames = recorded(program, starts, 0x1150);
        assertEquals(List.of("mix_block", "main"), frames.stream().map(l -> l.symbol().name()).toList());
        assertEquals(List.of("dlprog.c:19", "dlprog.c:42"), frames.stream().map(Location::srcline).toList());
        assertFalse(Files.exists(starts), "addr2line started");
    }
}
