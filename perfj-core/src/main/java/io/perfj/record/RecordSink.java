package io.perfj.record;

import java.lang.foreign.MemorySegment;

/**
 * Where the recorder's records go: a perf.data file ({@link PerfDataWriter}) or a pipe-mode
 * stream ({@link PipeWriter}) that a live profile reads as it is written.
 */
interface RecordSink {
    /** Records copied from a ring buffer: {@code len} bytes of whole records at {@code offset}. */
    void write(MemorySegment src, long offset, long len);

    /** One record, header included. */
    void write(byte[] record);

    /** A pass over the rings has ended (its FINISHED_ROUND written): what is buffered goes out now. */
    default void endOfPass() {
    }
}
