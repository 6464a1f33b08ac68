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
        // known by its attributes, the file is not read again: the entry holds the names
        Path moved = tmp.resolve("moved");
        Files.move(k, moved);
        Files.writeString(k, "");
        Files.setLastModifiedTime(k, Files.getLastModifiedTime(moved));
        assertNull(KallsymsCache.forFile(k, dir).load(null), "another size is another file");
        Files.delete(k);
        Files.move(moved, k);
        KallsymsCache again = KallsymsCache.forFile(k, dir);
        assertTrue(!again.needsBytes());
        assertSame(parsed, again.load(null));
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
            // the entry's checksum sees any damage past its key: the read parses then
            assertSame(parsed, Kallsyms.read(k, KallsymsCache.forFile(k, dir)));
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

    /** A /proc of this test's making: the files the running kernel's entry is keyed by. */
    private Path proc(String modules) throws IOException {
        Path p = tmp.resolve("proc");
        Files.createDirectories(p.resolve("sys/kernel/random"));
        Files.createDirectories(p.resolve("self"));
        Files.writeString(p.resolve("sys/kernel/random/boot_id"), "0f6f2a4e-9a53-4d7e-8d1c-5b2f0c9e7a11\n");
        Files.writeString(p.resolve("sys/kernel/kptr_restrict"), "0\n");
        Files.writeString(p.resolve("sys/kernel/perf_event_paranoid"), "2\n");
        Files.writeString(p.resolve("self/status"), "Name:\tjava\nUid:\t1000\t1000\t1000\t1000\nGid:\t1000\n");
        if (modules != null) {
            Files.writeString(p.resolve("modules"), modules);
        } else {
            Files.deleteIfExists(p.resolve("modules"));
        }
        return p;
    }

    private static final String MODULES = "m_one 16384 2 m_two, Live 0xffffffffc0000000\n"
            + "m_two 20480 0 - Live 0xffffffffc0004000 (OE)\n";

    @Test
    void theRunningKernelsFileIsKnownByItsStateAndNotReadAgain() throws IOException {
        Path k = copy();
        Path dir = tmp.resolve("cache");
        Path proc = proc(MODULES);
        KallsymsCache c = KallsymsCache.forRunningKernel(k, dir, proc);
        assertNotNull(c);
        assertTrue(!c.needsBytes(), "known without reading the file");
        assertNull(c.load(null), "no entry before the first read");
        Kallsyms first = Kallsyms.read(k, c);
        Kallsyms parsed = Kallsyms.parse(Files.readAllBytes(k), k.toString());
        assertSame(parsed, first);
        // the file is not read again: the entry holds its bytes (gone, the file would fail the read)
        Files.delete(k);
        Kallsyms second = Kallsyms.read(k, KallsymsCache.forRunningKernel(k, dir, proc));
        assertSame(parsed, second);
        // a module's use count changes while its symbols stay: the entry still holds
        Files.writeString(proc.resolve("modules"), MODULES.replace("m_one 16384 2 m_two,", "m_one 16384 3 m_two,x,"));
        assertNotNull(KallsymsCache.forRunningKernel(k, dir, proc).load(null), "use counts are not part of the key");
    }

    @Test
    void anotherBootModuleOrViewOfAddressesMeansAParse() throws IOException {
        Path k = copy();
        Path dir = tmp.resolve("cache");
        Path proc = proc(MODULES);
        Kallsyms.read(k, KallsymsCache.forRunningKernel(k, dir, proc));
        assertNotNull(KallsymsCache.forRunningKernel(k, dir, proc).load(null));
        String[][] changes = {
            {"modules", MODULES.replace("0xffffffffc0004000", "0xffffffffc0008000")},
            {"modules", MODULES + "m_three 8192 0 - Loading 0xffffffffc000a000\n"},
            {"modules", MODULES.replace("Live 0xffffffffc0000000", "Unloading 0xffffffffc0000000")},
            {"sys/kernel/random/boot_id", "7d0c1f5e-2b44-4a8e-9f31-6e8a2d4b1c90\n"},
            {"sys/kernel/kptr_restrict", "1\n"},
            {"sys/kernel/perf_event_paranoid", "-1\n"},
            {"self/status", "Name:\tjava\nUid:\t0\t0\t0\t0\n"},
        };
        for (String[] change : changes) {
            Path f = proc.resolve(change[0]);
            String was = Files.readString(f);
            Files.writeString(f, change[1]);
            assertNull(KallsymsCache.forRunningKernel(k, dir, proc).load(null), change[0] + " changed: " + change[1]);
            Files.writeString(f, was);
            assertNotNull(KallsymsCache.forRunningKernel(k, dir, proc).load(null), change[0] + " as before");
        }
        // a kernel without loadable modules has no /proc/modules: its state is still known
        Path none = proc(null);
        KallsymsCache c = KallsymsCache.forRunningKernel(k, dir, none);
        assertNotNull(c);
        assertNull(c.load(null), "no modules is another state");
        Kallsyms.read(k, c);
        assertNotNull(KallsymsCache.forRunningKernel(k, dir, none).load(null));
        // a state that cannot be read gives no entry of this kind (the content decides then)
        Files.delete(none.resolve("sys/kernel/random/boot_id"));
        assertNull(KallsymsCache.forRunningKernel(k, dir, none));
        Files.writeString(none.resolve("sys/kernel/random/boot_id"), "x\n");
        Files.writeString(none.resolve("modules"), "a line of another format\n");
        assertNull(KallsymsCache.forRunningKernel(k, dir, none));
    }

    @Test
    void aStateChangeDuringTheReadLeavesNoEntry() throws IOException {
        Path k = copy();
        Path dir = tmp.resolve("cache");
        Path proc = proc(MODULES);
        KallsymsCache c = KallsymsCache.forRunningKernel(k, dir, proc);
        // a module loads between the key's reading and the file's
        Files.writeString(proc.resolve("modules"), MODULES + "m_three 8192 0 - Live 0xffffffffc000a000\n");
        Kallsyms got = Kallsyms.read(k, c);
        assertSame(Kallsyms.parse(Files.readAllBytes(k), k.toString()), got);
        assertTrue(!Files.exists(c.entry()), "bytes of either state are not kept");
        assertNull(KallsymsCache.forRunningKernel(k, dir, proc).load(null));
    }

    @Test
    void aCutEntryWithBytesIsParsedAgain() throws IOException {
        Path k = copy();
        Path dir = tmp.resolve("cache");
        Path proc = proc(MODULES);
        KallsymsCache c = KallsymsCache.forRunningKernel(k, dir, proc);
        Kallsyms.read(k, c);
        byte[] entry = Files.readAllBytes(c.entry());
        Kallsyms want = Kallsyms.parse(Files.readAllBytes(k), k.toString());
        Random r = new Random(5);
        for (int i = 0; i < 20; i++) {
            // cut anywhere: in the key, the bytes' length, the bytes or the tables
            Files.write(c.entry(), java.util.Arrays.copyOf(entry, i == 0 ? entry.length - 1 : r.nextInt(entry.length)));
            assertSame(want, Kallsyms.read(k, KallsymsCache.forRunningKernel(k, dir, proc)));
        }
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
