package io.perfj.fleet;

import io.perfj.profile.FlameTree;
import io.perfj.report.Frame;
import io.perfj.symbols.Dso;
import io.perfj.symbols.DsoKind;
import io.perfj.symbols.Symbol;
import io.perfj.symbols.SymbolTable;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The flame graph of a fleet: Spark sums the period of every distinct (command, stack) of one
 * event, each frame reduced to what the flame graph draws (object, symbol, level, inline flag);
 * the driver names the frames by {@link FlameTree.Function#of} and builds the tree of
 * {@link FlameTree#ofPaths}, which perfj's flame graph pages draw.
 */
public final class FleetFlame {
    private FleetFlame() {
    }

    /** The event drawn by default: the one that comes first in the recordings. */
    public static String firstEvent(Dataset<Row> samples) {
        List<Row> e = samples.groupBy("event").agg(org.apache.spark.sql.functions.min("event_index").as("i"))
                .orderBy("i", "event").limit(1).collectAsList();
        return e.isEmpty() ? null : e.getFirst().getString(0);
    }

    public static FlameTree tree(Dataset<Row> samples, String event, String where) {
        Dataset<Row> s = samples.where(org.apache.spark.sql.functions.col("event").equalTo(event));
        if (where != null) {
            s = s.where(where);
        }
        List<Row> rows = s.selectExpr("comm", "transform(reverse(stack), f -> named_struct('dso_short', f.dso_short, "
                        + "'symbol', f.symbol, 'level', f.level, 'inline', f.inline)) AS path", "period")
                .groupBy("comm", "path").agg(org.apache.spark.sql.functions.sum("period").as("weight"))
                .orderBy(org.apache.spark.sql.functions.desc("weight"), org.apache.spark.sql.functions.col("comm"))
                .collectAsList();
        Map<String, Dso> dsos = new HashMap<>();
        List<FlameTree.Path> paths = new ArrayList<>(rows.size());
        for (Row r : rows) {
            List<Row> frames = r.getList(1);
            List<FlameTree.Function> fns = new ArrayList<>(frames.size());
            for (Row f : frames) {
                String object = f.getString(0);
                Dso dso = object == null ? null : dsos.computeIfAbsent(object,
                        o -> new Dso(o, o, DsoKind.USER, null, d -> SymbolTable.EMPTY));
                Symbol sym = f.isNullAt(1) ? null
                        : new Symbol(0, 0, f.getString(1), f.getBoolean(3) ? Symbol.INLINED : 'T');
                fns.add(FlameTree.Function.of(new Frame(dso, sym, 0, f.getString(2).charAt(0))));
            }
            paths.add(new FlameTree.Path(r.getString(0), fns, r.getLong(2)));
        }
        return FlameTree.ofPaths(paths);
    }
}
