package io.perfj.symbols;

import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Kallsyms read through its cache gives what a parse gives; a stale or damaged entry is parsed again. */
class KallsymsCacheTest {
    @TempDir
    Path tmp;

    /**
     * A kallsyms file of this test's making, shaped as a real one: the fixture's lines, then
     * thousands of kernel symbols (some at one address, some of types perf drops), a malformed
     * line, and module symbols of two modules.
     */
    private Path copy() throws IOException {
        Path k = tmp.resolve("kallsyms");
        StringBuilder b = new StringBuilder(Files.readString(Fixtures.file("bpf-xlated/golden/kallsyms.txt")));
        Random r = new Random(11);
        long a = 0xffff_ffff_8100_0000L;
        String types = "TtTtWDdBbrR";
        for (int i = 0; i < 6000; i++) {
            a += r.nextInt(8) == 0 ? 0 : 16 + r.nextInt(400);
            b.append(Long.toHexString(a)).append(' ').append(types.charAt(r.nextInt(types.length())))
                    .append(" sym_").append(i).append('\n');
        }
        b.append("not a line\n");
        a = 0xffff_ffff_c000_0000L;
        for (int i = 0; i < 400; i++) {
            a += 32 + r.nextInt(100);
            b.append(Long.toHexString(a)).append(" t mod_sym_").append(i).append("\t[").append(i < 250 ? "m_one" : "m_two").append("]\n");
        }
        Files.writeString(k, b);
        // an hour old: a file modified in the last seconds is not cached (its time says too little)
        Files.setLastModifiedTime(k, FileTime.fromMillis(System.currentTimeMillis() - 3_600_000));
        return k;
    }

    @Test
    void secondReadComesFromTheEntryAndEqualsAParse() throws IOException {
        Path k = copy();
        Path dir = tmp.resolve("cache");
        KallsymsCache c = KallsymsCache.forFile(k, dir);
        assertNotNull(c);
        assertNull(c.load(Files.readAllBytes(k)), "no entry before the first read");
        Kallsyms first = Kallsyms.read(k, c);
        assertTrue(Files.isRegularFile(c.entry()), "the first read leaves an entry");
        assertNotNull(c.load(Files.readAllBytes(k)), "the entry is used by the next read");
        Kallsyms second = Kallsyms.read(k, KallsymsCache.forFile(k, dir));
        Kallsyms parsed = Kallsyms.parse(Files.readAllBytes(k), k.toString());
        assertSame(parsed, first);
        assertSame(parsed, second);
        assertTrue(parsed.kernel().size() > 1000, "kernel symbols: " + parsed.kernel().size());
        assertEquals(2, parsed.modules().size());
        assertNotNull(parsed.warning(), "the malformed line is counted");
    }

    @Test
    void aChangedFileIsParsedAgain() throws IOException {
        Path k = copy();
        Path dir = tmp.resolve("cache");
        Kallsyms.read(k, KallsymsCache.forFile(k, dir));
        // the same size, another symbol at the first line's address, and a new time
        FileTime before = Files.getLastModifiedTime(k);
        List<String> lines = Files.readAllLines(k);
        String l = lines.getFirst();
        lines.set(0, l.substring(0, l.length() - 1) + (l.endsWith("x") ? "y" : "x"));
        Files.write(k, lines);
        Files.setLastModifiedTime(k, FileTime.fromMillis(before.toMillis() + 5000));
        KallsymsCache c = KallsymsCache.forFile(k, dir);
        assertNull(c.load(Files.readAllBytes(k)), "an entry of the old file is not used");
        assertSame(Kallsyms.parse(Files.readAllBytes(k), k.toString()), Kallsyms.read(k, c));
    }

    @Test
    void aDamagedEntryIsParsedAgain() throws IOException {
        Path k = copy();
        Path dir = tmp.resolve("cache");
        KallsymsCache c = KallsymsCache.forFile(k, dir);
        Kallsyms.read(k, c);
        byte[] good = Files.readAllBytes(c.entry());
        Kallsyms parsed = Kallsyms.parse(Files.readAllBytes(k), k.toString());
        Random r = new Random(7);
        for (int i = 0; i < 200; i++) {
            byte[] bad = good.clone();
            if (i % 2 == 0) {
                bad = java.util.Arrays.copyOf(bad, r.nextInt(bad.length));
            } else {
                for (int j = 0; j < 1 + r.nextInt(4); j++) {
                    bad[r.nextInt(bad.length)] ^= (byte) (1 + r.nextInt(255));
                }
            }
            Files.write(c.entry(), bad);
            // whatever the damage, the tables equal a parse: damage in the columns' values themselves
            // cannot be told from the file, so flipped bytes there are restored by the key check only
            // when they hit it; what must hold is that a read never fails and a cut entry is never used
            Kallsyms got = Kallsyms.read(k, KallsymsCache.forFile(k, dir));
            if (i % 2 == 0) {
                assertSame(parsed, got);
            }
            assertNotNull(got.kernel());
        }
    }

    @Test
    void missingFilesAndNoDirectoryAreNotCached() {
        assertNull(KallsymsCache.forFile(tmp.resolve("absent"), tmp));
        assertNull(KallsymsCache.forFile(tmp, null));
        assertNull(KallsymsCache.forContent(tmp, null));
    }

    @Test
    void aFileModifiedJustNowIsNotCached() throws IOException {
        Path k = copy();
        Files.setLastModifiedTime(k, FileTime.fromMillis(System.currentTimeMillis()));
        assertNull(KallsymsCache.forFile(k, tmp.resolve("cache")), "two writes in one clock tick would look alike");
    }

    @Test
    void procFilesAreKnownByTheirContent() throws IOException {
        KallsymsCache proc = KallsymsCache.forFile(Path.of("/proc/kallsyms"), tmp);
        assertNotNull(proc, "/proc/kallsyms has an entry, keyed by what is read");
        // a copy keyed the same way: same path, size and time, one symbol changed
        Path k = copy();
        Path dir = tmp.resolve("cache");
        FileTime time = Files.getLastModifiedTime(k);
        Kallsyms first = Kallsyms.read(k, KallsymsCache.forContent(k, dir));
        assertNotNull(KallsymsCache.forContent(k, dir).load(Files.readAllBytes(k)), "the same bytes use the entry");
        assertSame(Kallsyms.parse(Files.readAllBytes(k), k.toString()), first);
        // a symbol perf keeps, renamed in place
        String kept = first.kernel().symbols().stream().map(Symbol::name).filter(n -> n.startsWith("sym_1")).findFirst().orElseThrow();
        String renamed = "sXm" + kept.substring(3);
        byte[] b = Files.readAllBytes(k);
        int at = new String(b, java.nio.charset.StandardCharsets.ISO_8859_1).indexOf(" " + kept + "\n") + 2;
        b[at] = 'X';
        Files.write(k, b);
        Files.setLastModifiedTime(k, time);
        KallsymsCache c = KallsymsCache.forContent(k, dir);
        assertNull(c.load(Files.readAllBytes(k)), "other bytes of the same length are parsed");
        Kallsyms changed = Kallsyms.read(k, c);
        assertSame(Kallsyms.parse(Files.readAllBytes(k), k.toString()), changed);
        assertTrue(changed.kernel().symbols().stream().anyMatch(s -> s.name().equals(renamed)), "the changed name is read");
    }

    /** The same symbols, by position: addresses, ends, bindings and names, kernel and modules. */
    private static void assertSame(Kallsyms want, Kallsyms got) {
        assertTables(want.kernel(), got.kernel());
        assertEquals(want.modules().keySet().stream().toList(), got.modules().keySet().stream().toList());
        want.modules().forEach((m, t) -> assertTables(t, got.modules().get(m)));
        assertEquals(want.textStart(), got.textStart());
        assertEquals(want.textEnd(), got.textEnd());
        assertEquals(want.badLines(), got.badLines());
        assertEquals(want.warning(), got.warning());
    }

    private static void assertTables(SymbolTable want, SymbolTable got) {
        assertEquals(want.size(), got.size());
        List<Symbol> w = want.symbols();
        List<Symbol> g = got.symbols();
        for (int i = 0; i < w.size(); i++) {
            assertEquals(w.get(i).toString(), g.get(i).toString(), "symbol " + i);
            assertEquals(w.get(i).start(), g.get(i).start());
            assertEquals(w.get(i).end(), g.get(i).end());
        }
    }
}
