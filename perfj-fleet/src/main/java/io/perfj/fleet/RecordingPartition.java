package io.perfj.fleet;

/**
 * One recording's share of a fleet read: its samples whose time is in [{@code from}, {@code to})
 * (the whole file: {@link Long#MIN_VALUE}, {@link Long#MAX_VALUE}), about {@code bytes} of it. A
 * large recording is cut into slices of its SAMPLE_TIME span; the records before a slice are
 * still read for the process model of its first sample, but only its own samples are resolved.
 */
record RecordingPartition(String file, String host, long from, long to, long bytes) implements java.io.Serializable {
    boolean whole() {
        return from == Long.MIN_VALUE && to == Long.MAX_VALUE;
    }
}
