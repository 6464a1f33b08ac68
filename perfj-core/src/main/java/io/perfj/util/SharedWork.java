package io.perfj.util;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;
import java.util.function.Supplier;

/**
 * Independent tasks numbered 0..n-1, run by the caller and helper threads that each take the
 * next number until none is left. Tasks of very different sizes balance when they are numbered
 * largest first, which a split into fixed ranges (a parallel stream) does not do: there the
 * range holding the few large tasks ends up on one thread.
 */
public final class SharedWork {
    private SharedWork() {
    }

    /**
     * Runs tasks {@code 0..n-1} on {@code threads} threads (the caller's among them); each thread
     * gets its own consumer from {@code worker}, so it can keep scratch space of its own. What a
     * helper throws is rethrown on the caller's thread once every thread has stopped.
     */
    public static void run(int n, int threads, String name, Supplier<IntConsumer> worker) {
        AtomicInteger next = new AtomicInteger();
        Runnable loop = () -> {
            IntConsumer w = worker.get();
            for (int i; (i = next.getAndIncrement()) < n; ) {
                w.accept(i);
            }
        };
        int helpers = Math.min(threads, n) - 1;
        if (helpers <= 0) {
            loop.run();
            return;
        }
        Thread[] th = new Thread[helpers];
        Throwable[] failed = new Throwable[helpers];
        for (int t = 0; t < helpers; t++) {
            int slot = t;
            th[t] = new Thread(() -> {
                try {
                    loop.run();
                } catch (Throwable e) {
                    failed[slot] = e;
                    next.set(n); // the others stop at their next task
                }
            }, name);
            th[t].setDaemon(true);
            th[t].start();
        }
        try {
            loop.run();
        } catch (RuntimeException | Error e) {
            next.set(n);
            join(th);
            throw e;
        }
        join(th);
        for (Throwable e : failed) {
            rethrow(e);
        }
    }

    /** Throws {@code e} as it is when unchecked (wrapped otherwise); nothing when null. */
    public static void rethrow(Throwable e) {
        if (e instanceof RuntimeException r) {
            throw r;
        }
        if (e instanceof Error r) {
            throw r;
        }
        if (e != null) {
            throw new IllegalStateException(e);
        }
    }

    /** Waits for every thread to end; an interrupt meanwhile is kept for the caller, not lost. */
    public static void join(Thread... th) {
        boolean interrupted = false;
        for (Thread t : th) {
            while (true) {
                try {
                    t.join();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
