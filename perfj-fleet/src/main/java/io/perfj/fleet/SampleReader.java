package io.perfj.fleet;

import io.perfj.session.Session;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.unsafe.types.UTF8String;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Reads one {@link FleetPartition}: its recordings' sessions, one after the other, run on a
 * thread of its own and hand their resolved samples over in batches through a short queue, so a
 * task holds a few thousand rows at a time whatever the files' size.
 */
final class SampleReader implements PartitionReader<InternalRow> {
    private static final int BATCH = 512;
    private static final List<InternalRow> END = List.of();

    /** Made on the driver, sent to the executors. */
    record Factory(SourceOptions options, Pushed pushed, org.apache.spark.sql.types.StructType columns,
                   Grouped grouped) implements PartitionReaderFactory {
        @Override
        public PartitionReader<InternalRow> createReader(InputPartition p) {
            return new SampleReader((FleetPartition) p, options, pushed, columns, grouped);
        }
    }

    private final BlockingQueue<List<InternalRow>> queue = new ArrayBlockingQueue<>(8);
    private final Thread producer;
    private volatile Throwable failure;
    private volatile boolean closed;
    private List<InternalRow> batch = new ArrayList<>();
    private int at;
    private InternalRow current;

    /**
     * A reader of these columns' rows, one per sample, or with {@code grouped}, of its rows, one
     * per key of the task's samples.
     */
    SampleReader(FleetPartition p, SourceOptions options, Pushed pushed,
                 org.apache.spark.sql.types.StructType columns, Grouped grouped) {
        producer = Thread.ofPlatform().daemon().name("perfj-fleet-read")
                .unstarted(() -> read(p, options, pushed, columns, grouped));
        producer.start();
    }

    private void read(FleetPartition task, SourceOptions options, Pushed pushed,
                      org.apache.spark.sql.types.StructType columns, Grouped grouped) {
        List<InternalRow> out = new ArrayList<>(BATCH);
        try {
            if (grouped == null) {
                for (RecordingPartition p : task.pieces()) {
                    read(p, options, pushed, columns, out::add, out);
                }
            } else {
                Grouped.Sums sums = grouped.new Sums();
                for (RecordingPartition p : task.pieces()) {
                    read(p, options, pushed, sums.columns(), sums::add, null);
                }
                sums.rows(r -> add(out, r));
            }
            if (!out.isEmpty()) {
                put(List.copyOf(out));
            }
        } catch (Stop e) {
            return;
        } catch (Throwable e) {
            failure = e;
        }
        try {
            put(END);
        } catch (Stop e) {
            // closed
        }
    }

    /** A row into {@code out}, handed over when the batch is full. */
    private void add(List<InternalRow> out, InternalRow r) {
        out.add(r);
        if (out.size() == BATCH) {
            put(List.copyOf(out));
            out.clear();
        }
    }

    /**
     * One recording's rows to {@code rows}; with a batch {@code out}, into it, handed over
     * whenever it is full.
     */
    private void read(RecordingPartition p, SourceOptions options, Pushed pushed,
                      org.apache.spark.sql.types.StructType columns,
                      java.util.function.Consumer<InternalRow> rows, List<InternalRow> out) {
        Path file = Path.of(p.file());
        UTF8String host = UTF8String.fromString(p.host());
        UTF8String name = UTF8String.fromString(p.file());
        FleetSchema.Frames frames = new FleetSchema.Frames();
        try (Session s = Session.open(file, options.session(file))) {
            boolean whole = p.whole();
            s.forEachSample(ref -> {
                long t = ref.time();
                return (whole || p.keeps(ref.offset(), t)) && pushed.keepsTime(t)
                        && pushed.keepsComm(s.resolver().comm(ref.pid(), ref.tid()));
            }, FleetSchema.hasStack(columns), r -> {
                InternalRow row = FleetSchema.row(columns, host, name, r, frames);
                if (out != null) {
                    add(out, row);
                } else {
                    rows.accept(row);
                }
            });
            // what a single-file command prints after its output (a recording cut short, objects
            // not found): on the executor's standard error, the driver's in local mode
            for (String w : s.warnings()) {
                System.err.println(w);
            }
        }
    }

    /** Thrown through the session when the task is closed before the file ends. */
    private static final class Stop extends RuntimeException {
        Stop() {
            super(null, null, false, false);
        }
    }

    private void put(List<InternalRow> rows) {
        try {
            while (!queue.offer(rows, 100, java.util.concurrent.TimeUnit.MILLISECONDS)) {
                if (closed) {
                    throw new Stop();
                }
            }
        } catch (InterruptedException e) {
            throw new Stop();
        }
    }

    @Override
    public boolean next() throws java.io.IOException {
        while (at == batch.size()) {
            if (batch == END) {
                return false;
            }
            try {
                batch = queue.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("perfj fleet read interrupted");
            }
            at = 0;
            if (batch == END && failure != null) {
                Throwable f = failure;
                if (f instanceof RuntimeException re) {
                    throw re;
                }
                if (f instanceof Error er) {
                    throw er;
                }
                throw new java.io.IOException(f);
            }
        }
        current = batch.get(at++);
        return true;
    }

    @Override
    public InternalRow get() {
        return current;
    }

    @Override
    public void close() {
        closed = true;
        producer.interrupt();
    }
}
