package io.perfj.util;

import org.junit.jupiter.api.Test;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicIntegerArray;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** {@link SharedWork}: every task once, on the threads asked for, a helper's failure rethrown. */
class SharedWorkTest {
    @Test
    void everyTaskRunsOnce() {
        for (int threads : new int[] {1, 2, 3}) {
            AtomicIntegerArray runs = new AtomicIntegerArray(5000);
            Set<Thread> seen = ConcurrentHashMap.newKeySet();
            SharedWork.run(runs.length(), threads, "test-work", () -> i -> {
                seen.add(Thread.currentThread());
                runs.incrementAndGet(i);
            });
            for (int i = 0; i < runs.length(); i++) {
                assertEquals(1, runs.get(i), "task " + i + " with " + threads + " threads");
            }
            assertEquals(true, seen.size() <= threads, seen.toString());
        }
    }

    @Test
    void oneThreadRunsOnTheCaller() {
        Set<Thread> seen = ConcurrentHashMap.newKeySet();
        SharedWork.run(100, 1, "test-work", () -> i -> seen.add(Thread.currentThread()));
        assertEquals(Set.of(Thread.currentThread()), seen);
    }

    @Test
    void helpersFailureIsRethrown() {
        IllegalStateException boom = new IllegalStateException("task failed");
        Thread caller = Thread.currentThread();
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> SharedWork.run(10_000, 2, "test-work", () -> i -> {
                    if (Thread.currentThread() != caller) {
                        throw boom;
                    }
                    try {
                        Thread.sleep(1); // leaves tasks for the helper however late it starts
                    } catch (InterruptedException x) {
                        Thread.currentThread().interrupt();
                    }
                }));
        assertSame(boom, e);
    }
}
