package io.perfj.fleet;

import io.perfj.profile.FlameTree;
import io.perfj.profile.Profile;
import io.perfj.symbols.Dso;
import io.perfj.symbols.Location;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.desc;
import static org.apache.spark.sql.functions.min;
import static org.apache.spark.sql.functions.sum;

/**
 * The weighted stacks of a fleet as the one UI's model: Spark sums the period of every distinct
 * (host, thread, event, stack), each frame keyed as a report keys it (with a symbol, its
 * addresses do not matter, unless it is inlined: those tell an inline chain's frames apart);
 * the driver makes of them a {@link Profile} ({@link Profile.Stacks}), each summed stack one
 * of its samples (standing for the samples summed in it), with the hosts' threads as its threads. {@code fleet flamegraph} draws its
 * {@link FlameTree}, {@code fleet serve} serves it as {@code perfj serve} serves a recording's.
 */
public final class FleetFlame {
    private FleetFlame() {
    }

    /** The event drawn by default: the one that comes first in the recordings. */
    public static String firstEvent(Dataset<Row> samples) {
        List<Row> e = samples.groupBy("event").agg(min("event_index").as("i"))
                .orderBy("i", "event").limit(1).collectAsList();
        return e.isEmpty() ? null : e.getFirst().getString(0);
    }

    /** The flame tree of one event's samples that {@code where} keeps (null: all), a level per command. */
    public static FlameTree tree(Dataset<Row> samples, String event, String where) {
        return FlameTree.of(profile(samples, event, where, false), i -> true, true);
    }

    /**
     * The profile of the samples of {@code event} (null: every event) that the SQL condition
     * {@code where} keeps (null: all). Its samples have no time and no CPU (-1): they are sums.
     * Without {@code threads}, for a flame graph alone: of commands only (host null, pid and tid
     * -1), each frame only what the graph draws of it (its object's short name and kind, symbol,
     * level and inline mark), so that fewer distinct stacks are summed.
     */
    public static Profile profile(Dataset<Row> samples, String event, String where, boolean threads) {
        Dataset<Row> s = event == null ? samples : samples.where(col("event").equalTo(event));
        if (where != null) {
            s = s.where(where);
        }
        List<Row> rows = s.selectExpr(threads ? "host" : "CAST(NULL AS STRING) AS host", threads ? "pid" : "-1 AS pid",
                        threads ? "tid" : "-1 AS tid", "comm", "event", "event_index",
                        "transform(stack, f -> " + (threads ? "IF(f.inline, f, " + FleetReport.frameKey("f") + ")"
                                : drawn("f")) + ") AS stack", "period")
                .groupBy("host", "pid", "tid", "comm", "event", "stack")
                .agg(sum("period").as("weight"), min("event_index").as("event_index"), count("*").as("samples"))
                .orderBy(desc("weight"), col("host"), col("comm"), col("pid"), col("tid"))
                .collectAsList();
        Map<String, Integer> first = new HashMap<>();
        for (Row r : rows) {
            first.merge(r.getString(4), r.getInt(7), Math::min);
        }
        List<String> names = FleetReport.inOrder(first);
        Map<String, Integer> index = new HashMap<>();
        for (String e : names) {
            index.put(e, index.size());
        }
        boolean[] periods = new boolean[names.size()];
        Arrays.fill(periods, true);
        Profile.Stacks p = new Profile.Stacks(names, periods);
        Map<List<String>, Dso> dsos = new HashMap<>();
        for (Row r : rows) {
            List<Row> stack = r.getList(5);
            List<Location> chain = new ArrayList<>(stack.size());
            for (Row f : stack) {
                chain.add(FleetSchema.location(f, dsos));
            }
            p.add(r.getString(0), r.getInt(1), r.getInt(2), r.getString(3), index.get(r.getString(4)), -1, -1,
                    chain, r.getLong(8), r.getLong(6));
        }
        return p.build();
    }

    /** A frame reduced to what a flame graph draws of it (a frame of the same columns). */
    private static String drawn(String f) {
        return "named_struct('dso', " + f + ".dso_short, 'dso_short', " + f + ".dso_short, 'dso_kind', " + f
                + ".dso_kind, 'build_id', CAST(NULL AS STRING), 'symbol', " + f + ".symbol, 'sym_start', 0L, "
                + "'sym_end', 0L, 'sym_binding', IF(" + f + ".inline, '" + io.perfj.symbols.Symbol.INLINED + "', 'T'), "
                + "'offset', 0L, 'inline', " + f + ".inline, 'address', 0L, 'map_address', 0L, 'level', " + f + ".level)";
    }
}
