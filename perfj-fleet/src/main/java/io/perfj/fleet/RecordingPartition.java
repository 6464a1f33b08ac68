package io.perfj.fleet;

/**
 * One recording's share of a fleet read: its samples whose record's file offset ({@code
 * rounds}: whole FINISHED_ROUND windows, {@link Rounds}) or time is in [{@code from}, {@code
 * to}) (the whole file: {@link Long#MIN_VALUE}, {@link Long#MAX_VALUE}), about {@code bytes} of
 * it. A large recording is cut at round ends, or when it cannot be (compressed records) into
 * slices of its SAMPLE_TIME span; the records before a slice are still read for the process
 * model of its first sample, but only its own samples are resolved.
 */
record RecordingPartition(String file, String host, long from, long to, boolean rounds, long bytes)
        implements java.io.Serializable {
    /** Whether a sample at this file offset and time is this piece's. */
    boolean keeps(long offset, long time) {
        long v = rounds ? offset : time;
        return whole() || v >= from && v < to;
    }

    boolean whole() {
        return from == Long.MIN_VALUE && to == Long.MAX_VALUE;
    }
}
