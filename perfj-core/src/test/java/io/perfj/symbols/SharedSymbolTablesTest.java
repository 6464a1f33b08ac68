package io.perfj.symbols;

import io.perfj.testing.BuildIdCacheFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import static io.perfj.symbols.MachineDsoFinderTest.HOT_BID;
import static io.perfj.symbols.MachineDsoFinderTest.KERNEL_BID;
import static io.perfj.symbols.MachineDsoFinderTest.id;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SharedSymbolTablesTest {
    @TempDir
    Path tmp;

    private static DsoFinder finder(SharedSymbolTables tables) {
        SymbolOptions o = MachineDsoFinderTest.opts(null, BuildIdCacheFixture.dir(), null, false);
        return new DsoFinder(o, new DefaultSymbolLoader(false), Path.of("/nonexistent-kallsyms"),
                Path.of("/nonexistent-notes"), tables);
    }

    /** A copy of fixtures' hot, old enough to be known by its attributes. */
    private Path settledHot() throws IOException {
        Path f = tmp.resolve("hot");
        if (!Files.exists(f)) {
            Files.copy(BuildIdCacheFixture.dir().resolve(".build-id").resolve(HOT_BID.substring(0, 2))
                    .resolve(HOT_BID.substring(2)).toRealPath().resolve("elf"), f);
            Files.setLastModifiedTime(f, FileTime.fromMillis(System.currentTimeMillis() - 60_000));
        }
        return f;
    }

    /** Two sessions' finders (each with its own loader, as each session has) over the same objects. */
    @Test
    void sessionsOfOneJvmShareTheKernelsAndAnObjectsTables() throws IOException {
        SharedSymbolTables shared = new SharedSymbolTables(10_000_000);
        Path hotFile = settledHot();
        List<SymbolTable> kernel = new ArrayList<>();
        List<SymbolTable> hot = new ArrayList<>();
        for (int session = 0; session < 2; session++) {
            DsoFinder f = finder(shared);
            // the recorded path (system files allowed, an empty build-id cache)
            DsoFinder g = new DsoFinder(MachineDsoFinderTest.opts(null, tmp.resolve("no-cache"), null, true), new DefaultSymbolLoader(true),
                    Path.of("/nonexistent-kallsyms"), Path.of("/nonexistent-notes"), shared);
            Dso k = new Dso("[kernel.kallsyms]", DsoKind.KERNEL, id(KERNEL_BID), f::load);
            Dso h = new Dso(hotFile.toString(), DsoKind.USER, id(HOT_BID), g::load);
            kernel.add(k.symbols());
            hot.add(h.symbols());
            assertEquals(hotFile.toString(), h.symbolSource());
            assertNotNull(k.symbolSource(), "each session's object still says where its symbols came from");
        }
        assertTrue(kernel.getFirst().size() > 1000, "kallsyms from the cache: " + kernel.getFirst().size());
        assertTrue(hot.getFirst().size() > 0);
        assertSame(kernel.get(0), kernel.get(1));
        assertSame(hot.get(0), hot.get(1));
        assertEquals(2, shared.loads());
        assertEquals(2, shared.hits());
        assertEquals(kernel.getFirst().size() + hot.getFirst().size(), shared.heldSymbols());
    }

    @Test
    void withSharingOffEachSessionLoadsItsOwn() {
        SharedSymbolTables off = new SharedSymbolTables(0);
        Dso a = new Dso("/opt/fleet/bin/hot", DsoKind.USER, id(HOT_BID), finder(off)::load);
        Dso b = new Dso("/opt/fleet/bin/hot", DsoKind.USER, id(HOT_BID), finder(off)::load);
        assertNotSame(a.symbols(), b.symbols());
        assertEquals(a.symbols().size(), b.symbols().size());
        assertEquals(0, off.size());
    }

    private static SymbolTable table(int n, long base) {
        List<Symbol> s = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            s.add(new Symbol(base + 16L * i, base + 16L * i + 8, "f" + i, 'T'));
        }
        return SymbolTable.ofSorted(s);
    }

    @Test
    void theLeastRecentlyAskedGoPastTheBound() throws IOException {
        SharedSymbolTables t = new SharedSymbolTables(5);
        AtomicInteger loads = new AtomicInteger();
        SharedSymbolTables.Load three = () -> {
            loads.incrementAndGet();
            return table(3, 0x1000);
        };
        SymbolTable a = t.get("a", three);
        assertSame(a, t.get("a", three));
        t.get("b", three); // 6 > 5: a goes
        assertEquals(3, t.heldSymbols());
        assertEquals(1, t.size());
        assertNotSame(a, t.get("a", three));
        assertEquals(3, loads.get());
        // a table larger than the bound is answered, not kept
        assertEquals(9, t.get("big", () -> table(9, 0)).size());
        assertTrue(t.heldSymbols() <= 5);
    }

    @Test
    void aFailedLoadIsNotKeptAndNoKeyIsNoSharing() throws IOException {
        SharedSymbolTables t = new SharedSymbolTables(100);
        assertThrows(IOException.class, () -> t.get("x", () -> {
            throw new IOException("damaged");
        }));
        assertEquals(0, t.size());
        SymbolTable ok = t.get("x", () -> table(2, 0));
        assertSame(ok, t.get("x", () -> table(2, 0)));
        assertNotSame(t.get(null, () -> table(2, 0)), t.get(null, () -> table(2, 0)));
    }

    @Test
    void oneLoadPerKeyWhateverTheThreads() throws Exception {
        SharedSymbolTables t = new SharedSymbolTables(1000);
        AtomicInteger loads = new AtomicInteger();
        CountDownLatch go = new CountDownLatch(1);
        List<java.lang.Thread> threads = new ArrayList<>();
        SymbolTable[] got = new SymbolTable[8];
        for (int i = 0; i < got.length; i++) {
            int at = i;
            threads.add(java.lang.Thread.ofPlatform().start(() -> {
                try {
                    go.await();
                    got[at] = t.get("k" + (at % 2), () -> {
                        loads.incrementAndGet();
                        java.util.concurrent.locks.LockSupport.parkNanos(20_000_000);
                        return table(4, 0);
                    });
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            }));
        }
        go.countDown();
        for (java.lang.Thread th : threads) {
            th.join();
        }
        assertEquals(2, loads.get());
        for (int i = 2; i < got.length; i++) {
            assertSame(got[i % 2], got[i]);
        }
    }

    /** The key is the file's identity: a file changed in place is another table. */
    @Test
    void aChangedFileIsAnotherKey() throws IOException {
        Path f = settledHot();
        DefaultSymbolLoader loader = new DefaultSymbolLoader(false);
        Dso dso = new Dso(f.toString(), DsoKind.USER, null, null);
        String before = loader.elfKey(f, dso);
        assertNotNull(before);
        assertEquals(before, new DefaultSymbolLoader(false).elfKey(f, dso), "another session's loader, the same key");
        assertNotEquals(before, new DefaultSymbolLoader(false, io.perfj.compat.PerfSymbolTree.RULES).elfKey(f, dso), "perf's trees are other tables");
        assertNotEquals(before, new DefaultSymbolLoader(false, Demangling.PERF_6_1, CacheFiles.directory()).elfKey(f, dso),
                "perf 6.1's names are other tables");
        Files.write(f, new byte[]{0}, java.nio.file.StandardOpenOption.APPEND);
        Files.setLastModifiedTime(f, FileTime.fromMillis(System.currentTimeMillis() - 30_000));
        assertNotEquals(before, loader.elfKey(f, dso));
        Files.setLastModifiedTime(f, FileTime.fromMillis(System.currentTimeMillis()));
        assertEquals(null, loader.elfKey(f, dso), "a file just written is not known by its attributes");
    }
}
