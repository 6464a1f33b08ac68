package io.perfj.fleet;

import io.perfj.perfdata.FeatureId;
import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.feature.Feature;
import io.perfj.perfdata.feature.Features;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.expressions.aggregate.Aggregation;
import org.apache.spark.sql.connector.read.SupportsPushDownAggregates;
import org.apache.spark.sql.connector.read.SupportsPushDownFilters;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The scan of a fleet directory: a piece per recording, or per slice of a recording larger than
 * the {@code split-bytes} option (default 64 MiB, 0: never split): FINISHED_ROUND windows about
 * that size ({@link Rounds}), else (compressed records) slices of its SAMPLE_TIME span; the pieces packed
 * into tasks ({@link FleetPartition}: options {@code open-cost-bytes}, default 4 MiB, and
 * {@code parallelism}, default Spark's default parallelism), with the
 * host, comm and time predicates applied by the reader ({@link Pushed}), and only the columns
 * the query reads: without {@code stack}, no callchain is decoded or resolved.
 */
final class SampleScan implements ScanBuilder, SupportsPushDownFilters, SupportsPushDownRequiredColumns,
        SupportsPushDownAggregates, Scan, Batch {
    static final long DEFAULT_SPLIT = 64L << 20;

    private final CaseInsensitiveStringMap options;
    private Pushed pushed = Pushed.NONE;
    private Filter[] used = new Filter[0];
    /** The columns read: all, or those the query needs (without the stack, none is resolved). */
    private StructType columns = FleetSchema.SAMPLE;
    /** The aggregate each task does itself, or null: a row per sample. */
    private Grouped grouped;

    SampleScan(CaseInsensitiveStringMap options) {
        this.options = options;
    }

    @Override
    public Filter[] pushFilters(Filter[] filters) {
        List<Filter> u = new ArrayList<>();
        for (Filter f : filters) {
            pushed = pushed.and(f, u);
        }
        used = u.toArray(Filter[]::new);
        // all of them are evaluated again on the rows
        return filters;
    }

    @Override
    public Filter[] pushedFilters() {
        return used;
    }

    @Override
    public void pruneColumns(StructType required) {
        columns = FleetSchema.pruned(required);
    }

    /**
     * Spark asks this only when every filter was pushed ({@link #pushFilters} returns them all
     * for Spark, so: a query without WHERE). Partial: Spark merges the tasks' rows.
     */
    @Override
    public boolean supportCompletePushDown(Aggregation aggregation) {
        return false;
    }

    @Override
    public boolean pushAggregation(Aggregation aggregation) {
        grouped = Grouped.of(aggregation);
        return grouped != null;
    }

    @Override
    public Scan build() {
        return this;
    }

    @Override
    public StructType readSchema() {
        return grouped == null ? columns : grouped.schema();
    }

    @Override
    public String description() {
        return "perfj " + options.get("path") + " " + pushed + (grouped == null ? "" : " " + grouped);
    }

    @Override
    public Batch toBatch() {
        return this;
    }

    @Override
    public InputPartition[] planInputPartitions() {
        String dir = options.get("path");
        if (dir == null) {
            throw new IllegalArgumentException("the perfj data source needs a directory: load(DIR)");
        }
        long split = options.getLong("split-bytes", DEFAULT_SPLIT);
        List<RecordingPartition> pieces = new ArrayList<>();
        for (Recordings.Recording r : Recordings.find(Path.of(dir))) {
            if (!pushed.keepsHost(r.host())) {
                continue;
            }
            String file = r.file().toString();
            long size = r.file().toFile().length();
            long[] cuts = split > 0 && size > split ? Rounds.cuts(r.file(), split) : null;
            if (cuts != null && cuts.length > 2) {
                for (int i = 0; i + 1 < cuts.length; i++) {
                    long from = i == 0 ? Long.MIN_VALUE : cuts[i];
                    long to = i + 2 == cuts.length ? Long.MAX_VALUE : cuts[i + 1];
                    pieces.add(new RecordingPartition(file, r.host(), from, to, true, cuts[i + 1] - cuts[i]));
                }
                continue;
            }
            long[] span = split > 0 && size > split ? sampleTimes(r.file()) : null;
            int slices = span == null ? 1 : (int) Math.min(1024, (size + split - 1) / split);
            if (slices <= 1 || span[1] <= span[0]) {
                pieces.add(new RecordingPartition(file, r.host(), Long.MIN_VALUE, Long.MAX_VALUE, false, size));
                continue;
            }
            long width = (span[1] - span[0]) / slices + 1;
            for (int i = 0; i < slices; i++) {
                long from = i == 0 ? Long.MIN_VALUE : span[0] + i * width;
                long to = i == slices - 1 ? Long.MAX_VALUE : span[0] + (i + 1) * width;
                pieces.add(new RecordingPartition(file, r.host(), from, to, false, size / slices));
            }
        }
        long openCost = options.getLong("open-cost-bytes", FleetPartition.DEFAULT_OPEN_COST);
        int parallelism = options.getInt("parallelism", defaultParallelism());
        return FleetPartition.pack(pieces, split, openCost, parallelism).toArray(InputPartition[]::new);
    }

    /** The cores the active session's cluster offers (Spark's default parallelism), else 1. */
    private static int defaultParallelism() {
        var s = org.apache.spark.sql.SparkSession.getActiveSession();
        if (s.isEmpty()) {
            s = org.apache.spark.sql.SparkSession.getDefaultSession();
        }
        return s.isEmpty() ? 1 : s.get().sparkContext().defaultParallelism();
    }

    /** The recording's first and last sample times (its SAMPLE_TIME feature), or null. */
    private static long[] sampleTimes(Path file) {
        if (!Files.isRegularFile(file)) {
            return null;
        }
        try (PerfData d = PerfData.open(file)) {
            var raw = d.features().get(FeatureId.SAMPLE_TIME);
            if (raw != null && Features.decode(FeatureId.SAMPLE_TIME, raw, d) instanceof Feature.SampleTime t) {
                return new long[]{t.first(), t.last()};
            }
            return null;
        }
    }

    @Override
    public PartitionReaderFactory createReaderFactory() {
        return new SampleReader.Factory(SourceOptions.of(options), pushed, columns, grouped);
    }
}
