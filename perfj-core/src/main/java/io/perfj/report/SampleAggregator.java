package io.perfj.report;

import io.perfj.profile.StackTable;
import io.perfj.util.SharedWork;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * The last step of reading a report: a sample's resolved frames interned as a stack
 * ({@link StackTable}) and the sample merged into its event's {@link AggTable}. Neither needs
 * the process model, so with two threads this runs on a thread of its own ("perfj-aggregate")
 * while the caller's thread resolves the next samples: samples are written into reusable
 * batches of ints (no object per sample) and consumed in the order they were written, so stack
 * and row numbers are the ones a single thread gives.
 *
 * <p>The tables may be read only after {@link #finish}.
 */
final class SampleAggregator {
    /** ints per batch: a few thousand samples of a deep callchain. */
    private static final int BATCH_INTS = 1 << 16;
    /** Batches written ahead of the consumer at most. */
    private static final int QUEUED = 4;
    /** Ints of a sample before its frames: event, command, pid, tid, cpu, own frame, trace id, frame count. */
    private static final int HEAD = 8;

    private final StackTable stacks;
    private final List<AggTable> agg;

    /** The batch being written (threaded), or null when samples are merged on the caller's thread. */
    private Batch open;
    private BlockingQueue<Batch> full;
    private BlockingQueue<Batch> free;
    private Thread consumer;
    private volatile Throwable failed;
    private boolean finished;

    private static final class Batch {
        final int[] ints = new int[BATCH_INTS];
        final long[] periods = new long[BATCH_INTS / HEAD];
        int used;
        int samples;
        /** The batch that ends the stream. */
        boolean last;
    }

    /** Whether the pid, the tid separate samples (they are handed over either way). */
    private final boolean byPid;
    private final boolean byTid;

    /**
     * Merges into {@code agg} (one table per event, grown as events come); on its own thread when
     * {@code threads > 1}. {@code byPid}, {@code byTid}: whether those keys separate samples.
     */
    SampleAggregator(StackTable stacks, List<AggTable> agg, int threads, boolean byPid, boolean byTid) {
        this.stacks = stacks;
        this.agg = agg;
        this.byPid = byPid;
        this.byTid = byTid;
        if (threads > 1) {
            full = new ArrayBlockingQueue<>(QUEUED + 1);
            free = new ArrayBlockingQueue<>(QUEUED + 2);
            for (int i = 0; i < QUEUED + 1; i++) {
                free.add(new Batch());
            }
            open = new Batch();
            consumer = new Thread(this::consume, "perfj-aggregate");
            consumer.setDaemon(true);
            consumer.start();
        }
    }

    /**
     * One sample: its keys (-1 for those the report does not separate; pid and tid always
     * given), its own frame, its trace text id (-1 when that is no key), the first {@code n} entries of {@code chain} (leaf first) and its
     * period.
     */
    void add(int ev, int comm, int pid, int tid, int cpu, int self, int trace, int[] chain, int n, long period) {
        if (open == null) {
            merge(ev, comm, pid, tid, cpu, self, trace, chain, 0, n, period);
            return;
        }
        Batch b = open;
        if (b.used + HEAD + n > BATCH_INTS || b.samples == b.periods.length) {
            b = handOver(b);
            if (HEAD + n > BATCH_INTS) {
                // a chain longer than a batch (perf's limit keeps them far shorter): wait for the
                // consumer to catch up, then merge it here; the tables are not shared meanwhile
                drain();
                merge(ev, comm, pid, tid, cpu, self, trace, chain, 0, n, period);
                return;
            }
        }
        int[] a = b.ints;
        int u = b.used;
        a[u] = ev;
        a[u + 1] = comm;
        a[u + 2] = pid;
        a[u + 3] = tid;
        a[u + 4] = cpu;
        a[u + 5] = self;
        a[u + 6] = trace;
        a[u + 7] = n;
        System.arraycopy(chain, 0, a, u + HEAD, n);
        b.used = u + HEAD + n;
        b.periods[b.samples++] = period;
    }

    /** Waits until every sample handed over is merged, then stops the consumer; rethrows what it met. */
    void finish() {
        stop();
        rethrow();
    }

    /**
     * Like {@link #finish} but keeps quiet about the consumer's failure: for a read that is
     * ending with an exception of its own.
     */
    void stop() {
        if (finished) {
            return;
        }
        finished = true;
        if (open == null) {
            return;
        }
        Batch b = open;
        b.last = true;
        put(full, b);
        open = null;
        SharedWork.join(consumer);
    }

    /** Hands {@code b} to the consumer and returns an empty batch to write. */
    private Batch handOver(Batch b) {
        rethrow();
        put(full, b);
        Batch next = take(free);
        next.used = 0;
        next.samples = 0;
        next.last = false;
        open = next;
        return next;
    }

    /** Waits until the consumer has merged everything handed over (every batch back but the open one). */
    private void drain() {
        List<Batch> back = new ArrayList<>();
        while (back.size() < QUEUED + 1) {
            back.add(take(free));
        }
        free.addAll(back);
        rethrow();
    }

    private void consume() {
        while (true) {
            Batch b = take(full);
            if (failed == null) {
                try {
                    mergeBatch(b);
                } catch (Throwable e) {
                    // the writer rethrows it at its next hand-over; batches keep coming back to
                    // it meanwhile, so that it never blocks
                    failed = e;
                }
            }
            if (b.last) {
                return;
            }
            put(free, b);
        }
    }

    private void mergeBatch(Batch b) {
        int[] a = b.ints;
        int u = 0;
        for (int s = 0; s < b.samples; s++) {
            int n = a[u + 7];
            merge(a[u], a[u + 1], a[u + 2], a[u + 3], a[u + 4], a[u + 5], a[u + 6], a, u + HEAD, n, b.periods[s]);
            u += HEAD + n;
        }
    }

    private void merge(int ev, int comm, int pid, int tid, int cpu, int self, int trace, int[] chain, int from,
                       int n, long period) {
        int stack = StackTable.EMPTY;
        for (int i = from, end = from + n; i < end; i++) {
            stack = stacks.push(stack, chain[i]);
        }
        while (agg.size() <= ev) {
            agg.add(new AggTable(byPid, byTid));
        }
        agg.get(ev).add(comm, pid, tid, cpu, self, stack, trace, period);
    }

    private void rethrow() {
        SharedWork.rethrow(failed);
    }

    private static <T> void put(BlockingQueue<T> q, T t) {
        boolean interrupted = false;
        while (true) {
            try {
                q.put(t);
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private static <T> T take(BlockingQueue<T> q) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return q.take();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
