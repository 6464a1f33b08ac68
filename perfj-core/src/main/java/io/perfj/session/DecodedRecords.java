package io.perfj.session;

import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.RawRecord;
import io.perfj.perfdata.RecordInput;
import io.perfj.perfdata.record.PerfRecord;
import io.perfj.perfdata.record.RecordDecoder;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Reads, orders and decodes the records of a recording on a second thread, handing them over in
 * delivery order in batches, so that reading and decoding overlap with the consumer's work on the
 * process model. Order and results are exactly those of a single thread: one producer, one
 * consumer, FIFO. A format error ends the stream after every record before it was delivered.
 */
final class DecodedRecords implements AutoCloseable {
    private static final int BATCH = 2048;
    private static final List<PerfRecord> END = List.of();

    private final BlockingQueue<List<PerfRecord>> queue = new ArrayBlockingQueue<>(16);
    private final Thread producer;
    /** What ended the producer early: any throwable, so that an Error (a missing library) is not taken for the end. */
    private volatile Throwable failure;
    private volatile List<String> warnings = List.of();
    private volatile boolean closed;
    private List<PerfRecord> current = List.of();
    private int pos;
    private boolean ended;

    public DecodedRecords(PerfData data) {
        producer = Thread.ofPlatform().daemon().name("perfj-decode").unstarted(() -> produce(data));
        producer.start();
    }

    private void produce(PerfData data) {
        RecordInput in = null;
        try {
            in = data.orderedRecords();
            List<PerfRecord> batch = new ArrayList<>(BATCH);
            for (RawRecord raw; !closed && (raw = in.next()) != null; ) {
                batch.add(RecordDecoder.decode(raw, data.evlist()));
                if (batch.size() == BATCH) {
                    queue.put(batch);
                    batch = new ArrayList<>(BATCH);
                }
            }
            if (!batch.isEmpty()) {
                queue.put(batch);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | Error e) {
            failure = e;
        } finally {
            if (in != null) {
                warnings = in.warnings();
            }
            try {
                queue.put(END);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The next record in delivery order, or null at the end. */
    public PerfRecord next() {
        while (pos == current.size()) {
            if (ended) {
                return null;
            }
            try {
                current = queue.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while reading records", e);
            }
            pos = 0;
            if (current == END) {
                ended = true;
                // not a pattern switch, which is bootstrapped (a class spun) at its first run
                if (failure instanceof RuntimeException e) {
                    throw e;
                } else if (failure instanceof Error e) {
                    throw e;
                } else if (failure != null) {
                    throw new IllegalStateException(failure);
                }
                return null;
            }
        }
        return current.get(pos++);
    }

    public List<String> warnings() {
        return warnings;
    }

    @Override
    public void close() {
        closed = true;
        queue.clear();
        producer.interrupt();
    }
}
