package io.perfj.fleet;

import io.perfj.profile.FlameTree;
import io.perfj.profile.Profile;
import io.perfj.symbols.Dso;
import io.perfj.symbols.Location;
import org.apache.spark.sql.Column;
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

    /** A flame tree of one event. */
    public record Flame(String event, FlameTree tree) {
    }

    /**
     * The flame tree, a level per command, of the samples that {@code where} keeps (null: all)
     * of {@code event}, or (null) of the event that comes first in the recordings; null when
     * there are no samples. One pass over the samples: every event's stacks are summed, then one
     * is drawn.
     */
    public static Flame flame(Dataset<Row> samples, String event, String where) {
        Profile p = profile(samples, null, where, false);
        if (p.events().isEmpty()) {
            return null;
        }
        String ev = event != null ? event : p.events().getFirst();
        int e = p.events().indexOf(ev);
        return new Flame(ev, FlameTree.of(p, i -> p.event(i) == e, true));
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
     * level and inline mark: the {@code flame_stack} column), so that fewer distinct stacks are
     * summed. The samples are grouped by plain columns (with {@code threads}, the stack as
     * {@code stack_key}), which the reader does itself when there is neither event nor WHERE.
     */
    public static Profile profile(Dataset<Row> samples, String event, String where, boolean threads) {
        Dataset<Row> s = event == null ? samples : samples.where(col("event").equalTo(event));
        if (where != null) {
            s = s.where(where);
        }
        Column[] keys = threads
                ? new Column[]{col("host"), col("pid"), col("tid"), col("comm"), col("event"), col("stack_key")}
                : new Column[]{col("comm"), col("event"), col("flame_stack")};
        List<Row> rows = s.groupBy(keys)
                .agg(sum("period").as("weight"), min("event_index").as("event_index"), count("*").as("samples"))
                .selectExpr(threads ? "host" : "CAST(NULL AS STRING) AS host", threads ? "pid" : "-1 AS pid",
                        threads ? "tid" : "-1 AS tid", "comm", "event",
                        (threads ? "stack_key" : "flame_stack") + " AS stack", "weight", "event_index", "samples")
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
}
