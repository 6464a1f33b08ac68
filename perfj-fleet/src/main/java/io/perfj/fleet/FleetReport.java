package io.perfj.fleet;

import io.perfj.report.Report;
import io.perfj.report.ReportOptions;
import io.perfj.report.SortKey;
import io.perfj.symbols.Dso;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A report over every sample of a fleet directory: Spark groups the samples by what the report's
 * sort keys and filters look at and sums their periods; the driver feeds the merged rows to
 * {@link Report#ofRows}, so rows are keyed, filtered, ordered and printed by the single-file
 * report's own code.
 */
public final class FleetReport {
    private FleetReport() {
    }

    /** The samples of a fleet directory, read by the perfj data source with these options. */
    public static Dataset<Row> samples(SparkSession spark, String dir, Map<String, String> options) {
        return spark.read().format("perfj").options(options).load(dir);
    }

    /**
     * The report of these samples: self rows, and with callchains (-g) or --children, each
     * row's callchain (the stack column, each frame keyed as the report keys a chain frame).
     *
     * @param where a SQL condition on the sample columns, or null
     */
    public static Report report(Dataset<Row> samples, ReportOptions o, String where) {
        Dataset<Row> s = where == null ? samples : samples.where(where);
        boolean comm = o.has(SortKey.COMM) || o.comms() != null;
        boolean thread = o.has(SortKey.PID) || o.has(SortKey.TID) || o.pids() != null || o.tids() != null;
        boolean cpu = o.has(SortKey.CPU) || o.cpus() != null;
        boolean chains = o.children() || o.mode() != io.perfj.report.CallchainMode.NONE;
        // a GROUP BY of plain columns, which the reader does itself when there is no WHERE
        List<String> keys = new ArrayList<>(List.of("event"));
        if (comm) {
            keys.add("comm");
        }
        if (thread) {
            keys.addAll(List.of("pid", "tid"));
        }
        if (cpu) {
            keys.add("cpu");
        }
        keys.add("frame_key");
        if (chains) {
            keys.add("chain_key");
        }
        List<Row> merged = s.groupBy(keys.stream().map(org.apache.spark.sql.functions::col).toArray(Column[]::new))
                .agg(org.apache.spark.sql.functions.sum("period").as("period"),
                        org.apache.spark.sql.functions.count("*").as("samples"),
                        org.apache.spark.sql.functions.min("event_index").as("event_index"))
                .selectExpr("event", comm ? "comm" : "CAST(NULL AS STRING) AS comm",
                        thread ? "pid" : "-1 AS pid", thread ? "tid" : "-1 AS tid", cpu ? "cpu" : "-1 AS cpu",
                        "frame_key AS frame", chains ? "chain_key AS chain" : "CAST(NULL AS STRING) AS chain",
                        "period", "samples", "event_index")
                .orderBy("event", "comm", "pid", "tid", "cpu", "frame.dso", "frame.symbol", "frame.sym_start",
                        "frame.address", "frame.level", "chain")
                .collectAsList();
        // the events in the order their first samples came (by their place in the recordings):
        // an event's least index over its rows, from the same pass over the samples
        Map<String, Integer> first = new HashMap<>();
        for (Row r : merged) {
            first.merge(r.getString(0), r.getInt(9), Math::min);
        }
        List<String> names = inOrder(first);
        Map<String, Integer> index = new HashMap<>();
        for (String e : names) {
            index.put(e, index.size());
        }
        Map<List<String>, Dso> dsos = new HashMap<>();
        List<Report.MergedRow> rows = new ArrayList<>(merged.size());
        for (Row r : merged) {
            List<io.perfj.symbols.Location> chain = List.of();
            if (chains && !r.isNullAt(6)) {
                List<Row> c = r.getList(6);
                chain = new ArrayList<>(c.size());
                for (Row f : c) {
                    chain.add(FleetSchema.location(f, dsos));
                }
            }
            rows.add(new Report.MergedRow(index.get(r.getString(0)), r.getString(1), r.getInt(2), r.getInt(3),
                    r.getInt(4), FleetSchema.location(r.getStruct(5), dsos), chain, r.getLong(7), r.getLong(8)));
        }
        Map<Long, String> threads = new HashMap<>();
        if (o.has(SortKey.PID)) {
            // the pid column names a thread by its last command: that of its latest sample
            for (Row t : s.groupBy("pid", "tid").agg(org.apache.spark.sql.functions.max_by(
                    org.apache.spark.sql.functions.col("comm"), org.apache.spark.sql.functions.col("time")))
                    .collectAsList()) {
                threads.put(thread(t.getInt(0), t.getInt(1)), t.getString(2));
            }
        }
        return Report.ofRows(o, names, rows, 0, (pid, tid) -> threads.get(thread(pid, tid)));
    }

    /** Event names in the order of their least index in the recordings ({@code first}), then by name. */
    static List<String> inOrder(Map<String, Integer> first) {
        List<String> names = new ArrayList<>(first.keySet());
        names.sort(java.util.Comparator.comparing((String e) -> first.get(e)).thenComparing(e -> e));
        return names;
    }

    private static long thread(int pid, int tid) {
        return ((long) pid << 32) | (tid & 0xffffffffL);
    }
}
