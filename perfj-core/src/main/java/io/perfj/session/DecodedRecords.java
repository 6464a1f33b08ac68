package io.perfj.session;

import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.RawRecord;
import io.perfj.perfdata.RecordInput;
import io.perfj.perfdata.record.PerfRecord;
import io.perfj.perfdata.record.RecordDecoder;
import io.perfj.perfdata.record.Sample;

import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Reads, orders and decodes the records of a recording, and runs a {@link SampleStage} over them,
 * on a second thread, handing them over in delivery order in batches, so that this work overlaps
 * with the consumer's. Order and results are exactly those of a single thread: one producer, one
 * consumer, FIFO. A format error ends the stream after every record before it was delivered.
 *
 * <p>The hand-off is bounded: a batch is closed at {@link Bounds#batchRecords} records or
 * {@link Bounds#batchBytes} bytes of raw records (a {@code --call-graph dwarf} sample carries a
 * stack copy of several KB), and at most {@link Bounds#queued} batches wait; so at most
 * {@code (queued + 2)} batches are decoded and not yet consumed (one being filled, one being
 * read).
 *
 * <p>Made {@linkplain #inline inline}, nothing runs on another thread: each {@link #next()}
 * reads and decodes one record on the caller's thread (the single-threaded reference).
 */
final class DecodedRecords implements AutoCloseable {
    /** How much the producer may run ahead of the consumer. */
    record Bounds(int batchRecords, long batchBytes, int queued) {
        Bounds {
            if (batchRecords < 1 || batchBytes < 1 || queued < 1) {
                throw new IllegalArgumentException("bounds must be positive");
            }
        }

        /**
         * 2048 records or 4 MiB a batch, 8 batches queued: the queue holds at most ~40 MiB of
         * stack copies, and a batch is big enough that hand-offs cost nothing measurable.
         */
        static final Bounds DEFAULT = new Bounds(2048, 4L << 20, 8);
    }

    /** The result of a {@link SampleStage} that threw for a sample. */
    private record Failed(Throwable error) {
    }

    /** {@link #ahead()} when the stage gave nothing for a record (not a sample, or no stage). */
    static final Object NONE = new Object();

    private static final class Batch {
        final PerfRecord[] records;
        final Object[] results;
        int size;
        long bytes;

        Batch(int capacity, boolean withResults) {
            records = new PerfRecord[capacity];
            results = withResults ? new Object[capacity] : null;
        }
    }

    private static final Batch END = new Batch(0, false);

    private final PerfData data;
    private final SampleStage stage;
    private final Bounds bounds;
    private final BlockingQueue<Batch> queue;
    private final Thread producer;
    private final AtomicLong produced = new AtomicLong();
    /** What ended the producer early: any throwable, so that an Error (a missing library) is not taken for the end. */
    private volatile Throwable failure;
    private volatile List<String> warnings = List.of();
    private volatile boolean closed;
    private Batch current = new Batch(0, false);
    private int pos;
    private boolean ended;
    /** Records as stored rather than in perf's order. */
    private final boolean fileOrder;
    /** Inline mode: the records, read on the caller's thread. */
    private RecordInput in;

    private DecodedRecords(PerfData data, SampleStage stage, Bounds bounds, boolean threaded, boolean fileOrder) {
        this.data = data;
        this.fileOrder = fileOrder;
        this.stage = stage;
        this.bounds = bounds;
        if (threaded) {
            queue = new ArrayBlockingQueue<>(bounds.queued());
            producer = Thread.ofPlatform().daemon().name("perfj-decode").unstarted(this::produce);
            producer.start();
        } else {
            queue = null;
            producer = null;
        }
    }

    /** Decodes on a second thread, running {@code stage} (may be null) there too. */
    static DecodedRecords threaded(PerfData data, SampleStage stage, Bounds bounds) {
        return threaded(data, stage, bounds, false);
    }

    /** As {@link #threaded(PerfData, SampleStage, Bounds)}; {@code fileOrder}: as stored, not in perf's order. */
    static DecodedRecords threaded(PerfData data, SampleStage stage, Bounds bounds, boolean fileOrder) {
        return new DecodedRecords(data, stage, bounds, true, fileOrder);
    }

    /** Decodes on the caller's thread, record by record; {@code stage} (may be null) runs there too. */
    static DecodedRecords inline(PerfData data, SampleStage stage) {
        return inline(data, stage, false);
    }

    /** As {@link #inline(PerfData, SampleStage)}; {@code fileOrder}: as stored, not in perf's order. */
    static DecodedRecords inline(PerfData data, SampleStage stage, boolean fileOrder) {
        return new DecodedRecords(data, stage, Bounds.DEFAULT, false, fileOrder);
    }

    private void produce() {
        RecordInput input = null;
        Batch batch = newBatch();
        try {
            input = fileOrder ? data.records() : data.orderedRecords();
            for (RawRecord raw; !closed && (raw = input.next()) != null; ) {
                PerfRecord r = RecordDecoder.decode(raw, data.evlist());
                if (batch.results != null) {
                    batch.results[batch.size] = staged(r);
                }
                batch.records[batch.size++] = r;
                batch.bytes += raw.size();
                produced.incrementAndGet();
                if (batch.size == batch.records.length || batch.bytes >= bounds.batchBytes()) {
                    Batch full = batch;
                    batch = newBatch();
                    queue.put(full);
                }
            }
        } catch (InterruptedException e) {
            java.lang.Thread.currentThread().interrupt();
        } catch (RuntimeException | Error e) {
            failure = e;
        } finally {
            // the records decoded before a failure are delivered before it
            if (batch.size > 0 && !closed) {
                try {
                    queue.put(batch);
                } catch (InterruptedException e) {
                    java.lang.Thread.currentThread().interrupt();
                }
            }
            if (input != null) {
                warnings = input.warnings();
            }
            try {
                queue.put(END);
            } catch (InterruptedException e) {
                java.lang.Thread.currentThread().interrupt();
            }
        }
    }

    private Batch newBatch() {
        return new Batch(bounds.batchRecords(), stage != null);
    }

    /** The stage's result for a record: {@link #NONE} for other records, a {@link Failed} when it threw. */
    private Object staged(PerfRecord r) {
        if (r instanceof Sample s) {
            try {
                return stage.sample(s);
            } catch (RuntimeException | Error e) {
                return new Failed(e);
            }
        }
        stage.record(r);
        return NONE;
    }

    /** The next record in delivery order, or null at the end. */
    public PerfRecord next() {
        if (queue == null) {
            return nextInline();
        }
        while (pos == current.size) {
            if (ended) {
                return null;
            }
            try {
                current = queue.take();
            } catch (InterruptedException e) {
                java.lang.Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while reading records", e);
            }
            pos = 0;
            if (current == END) {
                ended = true;
                if (failure != null) {
                    throw rethrow(failure);
                }
                return null;
            }
        }
        return current.records[pos++];
    }

    private Object inlineResult = NONE;

    private PerfRecord nextInline() {
        if (ended) {
            return null;
        }
        if (in == null) {
            in = fileOrder ? data.records() : data.orderedRecords();
        }
        RawRecord raw;
        try {
            raw = in.next();
        } catch (RuntimeException | Error e) {
            ended = true;
            warnings = in.warnings();
            throw e;
        }
        if (raw == null) {
            ended = true;
            warnings = in.warnings();
            return null;
        }
        PerfRecord r = RecordDecoder.decode(raw, data.evlist());
        produced.incrementAndGet();
        inlineResult = stage == null ? NONE : staged(r);
        return r;
    }

    /**
     * The stage's result for the record {@link #next()} returned last, as stored: pass it to
     * {@link #result} where it is used, which throws what the stage threw for it.
     */
    public Object ahead() {
        return queue == null ? inlineResult : current.results == null ? NONE : current.results[pos - 1];
    }

    /** A stored stage result ({@link #ahead()}) itself; what the stage threw for its record is thrown here. */
    static Object result(Object stored) {
        if (stored instanceof Failed(Throwable t)) {
            throw rethrow(t);
        }
        return stored;
    }

    /** Throws {@code t} itself (unchecked as they all are here); declared to return for {@code throw}. */
    private static RuntimeException rethrow(Throwable t) {
        switch (t) {
            case RuntimeException e -> throw e;
            case Error e -> throw e;
            default -> throw new IllegalStateException(t);
        }
    }

    /** How many records have been decoded so far (by the producer, or inline). */
    long produced() {
        return produced.get();
    }

    public List<String> warnings() {
        return warnings;
    }

    /**
     * Stops the producer. With a stage it waits (a little) for the producer to end, so that
     * nothing the stage uses is released under it: see {@link #producerDone()}.
     */
    @Override
    public void close() {
        closed = true;
        if (queue == null) {
            return;
        }
        queue.clear();
        producer.interrupt();
        if (stage != null) {
            try {
                // a producer blocked reading a pipe does not see the interrupt: do not wait for it
                producer.join(2000);
            } catch (InterruptedException e) {
                java.lang.Thread.currentThread().interrupt();
            }
        }
    }

    /** Whether no producer thread runs (any more): the stage may be released. */
    boolean producerDone() {
        return producer == null || !producer.isAlive();
    }
}
