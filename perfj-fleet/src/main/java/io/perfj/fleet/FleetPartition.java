package io.perfj.fleet;

import org.apache.spark.sql.connector.read.InputPartition;

import java.util.ArrayList;
import java.util.List;

/**
 * One task of a fleet read: recordings (or slices of them) read one after the other. Small
 * recordings are packed together as Spark packs small files ({@code spark.sql.files}'
 * {@code maxPartitionBytes} and {@code openCostInBytes}): a task costs its bytes plus an opening
 * cost per recording, up to {@code min(split-bytes, max(open-cost-bytes, total / parallelism))},
 * so a thousand 80 KB files are a few dozen tasks, not a thousand, and every core still gets
 * work.
 */
record FleetPartition(RecordingPartition[] pieces) implements InputPartition {
    /** Spark's default {@code spark.sql.files.openCostInBytes}. */
    static final long DEFAULT_OPEN_COST = 4L << 20;

    /**
     * The pieces in their order, packed next-fit into tasks of at most {@code maxBytes} (a piece
     * costing more is a task of its own), each piece costing its bytes plus {@code openCost}.
     */
    static List<FleetPartition> pack(List<RecordingPartition> pieces, long split, long openCost, int parallelism) {
        long total = 0;
        for (RecordingPartition p : pieces) {
            total += p.bytes() + openCost;
        }
        long max = Math.min(split > 0 ? split : Long.MAX_VALUE, Math.max(openCost, total / Math.max(1, parallelism)));
        List<FleetPartition> out = new ArrayList<>();
        List<RecordingPartition> now = new ArrayList<>();
        long size = 0;
        for (RecordingPartition p : pieces) {
            long cost = p.bytes() + openCost;
            if (!now.isEmpty() && size + cost > max) {
                out.add(new FleetPartition(now.toArray(RecordingPartition[]::new)));
                now.clear();
                size = 0;
            }
            now.add(p);
            size += cost;
        }
        if (!now.isEmpty()) {
            out.add(new FleetPartition(now.toArray(RecordingPartition[]::new)));
        }
        return out;
    }
}
