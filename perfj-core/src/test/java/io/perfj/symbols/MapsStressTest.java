package io.perfj.symbols;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Eight threads look up addresses of maps that stay mapped while another thread inserts,
 * removes, overlap-inserts and mutates other maps (in slots between them): no lookup may miss.
 */
class MapsStressTest {
    private static final Dso DSO = new Dso("/stable", DsoKind.USER, null, d -> SymbolTable.EMPTY);
    private static final Dso CHURN = new Dso("/churn", DsoKind.USER, null, d -> SymbolTable.EMPTY);
    private static final long SLOT = 0x2000;
    private static final int STABLE = 256;
    private static final int READERS = 8;
    private static final int LOOKUPS_PER_READER = 200_000;
    private static final long MIN_WRITES = 20_000;

    @Test
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void lookupsOfStableMapsNeverFailWhileOthersChange() throws Exception {
        Maps maps = new Maps();
        long base = 0x7f0000000000L;
        Map[] stable = new Map[STABLE];
        // stable maps in even slots; inserted out of order so the first lookup has to sort
        for (int i = STABLE - 1; i >= 0; i--) {
            stable[i] = Map.of(base + 2 * i * SLOT, base + 2 * i * SLOT + SLOT, i * 0x1000L, DSO);
            maps.insert(stable[i]);
        }
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong lookups = new AtomicLong();
        AtomicLong failures = new AtomicLong();
        AtomicLong writes = new AtomicLong();
        AtomicReference<Throwable> error = new AtomicReference<>();
        CountDownLatch start = new CountDownLatch(1);

        java.lang.Thread writer = new java.lang.Thread(() -> {
            ThreadLocalRandom r = ThreadLocalRandom.current();
            List<Map> churn = new ArrayList<>();
            try {
                start.await();
                while (!stop.get()) {
                    int slot = 2 * r.nextInt(STABLE) + 1; // odd slots only
                    long s = base + slot * SLOT;
                    switch (r.nextInt(4)) {
                        case 0 -> {
                            long from = s + r.nextLong(SLOT / 2);
                            long to = from + 1 + r.nextLong(s + SLOT - from - 1);
                            Map m = Map.of(from, to, 0, CHURN);
                            maps.fixupOverlapAndInsert(m);
                            churn.add(m);
                        }
                        case 1 -> {
                            // a plain insert only into an odd slot that holds nothing yet
                            Map m = Map.of(s, s + SLOT, 0, CHURN);
                            if (maps.find(s) == null && maps.find(s + SLOT - 1) == null
                                    && churn.stream().noneMatch(c -> c.start() < s + SLOT && s < c.end())) {
                                maps.insert(m);
                                churn.add(m);
                            }
                        }
                        case 2 -> {
                            if (!churn.isEmpty()) {
                                maps.remove(churn.remove(r.nextInt(churn.size())));
                            }
                        }
                        default -> {
                            if (!churn.isEmpty()) {
                                Map m = churn.get(r.nextInt(churn.size()));
                                // shrink within its own range: stays inside its odd slot
                                long len = m.end() - m.start();
                                if (len > 1) {
                                    long cut = 1 + r.nextLong(len - 1);
                                    maps.mutate(m, e -> e.end(m.start() + cut));
                                }
                            }
                        }
                    }
                    writes.incrementAndGet();
                    // keep the churn list in step with overlap-inserts that dropped or cut maps
                    if (churn.size() > 4 * STABLE) {
                        churn.removeIf(c -> maps.find(c.start()) != c);
                    }
                }
            } catch (Throwable t) {
                error.compareAndSet(null, t);
            }
        }, "maps-writer");

        List<java.lang.Thread> readers = new ArrayList<>();
        for (int k = 0; k < READERS; k++) {
            java.lang.Thread t = new java.lang.Thread(() -> {
                ThreadLocalRandom r = ThreadLocalRandom.current();
                try {
                    start.await();
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(8);
                    for (int i = 0; (i < LOOKUPS_PER_READER || writes.get() < MIN_WRITES)
                            && System.nanoTime() < deadline; i++) {
                        int idx = r.nextInt(STABLE);
                        Map want = stable[idx];
                        long ip = want.start() + r.nextLong(SLOT);
                        Map got = maps.find(ip);
                        if (got != want || got.mapIp(ip) != ip - want.start() + idx * 0x1000L) {
                            failures.incrementAndGet();
                        }
                        lookups.incrementAndGet();
                    }
                } catch (Throwable t2) {
                    error.compareAndSet(null, t2);
                }
            }, "maps-reader-" + k);
            readers.add(t);
        }
        long t0 = System.nanoTime();
        writer.start();
        readers.forEach(java.lang.Thread::start);
        start.countDown();
        for (java.lang.Thread t : readers) {
            t.join();
        }
        stop.set(true);
        writer.join();
        long ms = (System.nanoTime() - t0) / 1_000_000;
        System.out.printf("[maps-stress] %d lookups, %d failed, %d writes, %d ms%n", lookups.get(), failures.get(),
                writes.get(), ms);
        assertNull(error.get(), () -> "thread failed: " + error.get());
        assertEquals(0, failures.get(), "failed lookups");
        assertTrue(lookups.get() >= 1_000_000, "at least 10^6 lookups");
        assertTrue(writes.get() > 0, "the writer ran");
        for (Map m : stable) {
            assertTrue(maps.find(m.start()) == m);
        }
    }
}
