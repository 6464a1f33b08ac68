package io.perfj.fleet;

import org.apache.spark.sql.connector.read.InputPartition;

/**
 * One task's share of a fleet read: the samples of one recording whose time is in
 * [{@code from}, {@code to}) (the whole file: {@link Long#MIN_VALUE}, {@link Long#MAX_VALUE}).
 * A large recording is cut into slices of its SAMPLE_TIME span; the records before a slice are
 * still read for the process model of its first sample, but only its own samples are resolved.
 */
record RecordingPartition(String file, String host, long from, long to) implements InputPartition {
    boolean whole() {
        return from == Long.MIN_VALUE && to == Long.MAX_VALUE;
    }
}
