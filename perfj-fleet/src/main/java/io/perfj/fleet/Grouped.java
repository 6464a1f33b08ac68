package io.perfj.fleet;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.aggregate.AggregateFunc;
import org.apache.spark.sql.connector.expressions.aggregate.Aggregation;
import org.apache.spark.sql.connector.expressions.aggregate.Count;
import org.apache.spark.sql.connector.expressions.aggregate.CountStar;
import org.apache.spark.sql.connector.expressions.aggregate.Max;
import org.apache.spark.sql.connector.expressions.aggregate.Min;
import org.apache.spark.sql.connector.expressions.aggregate.Sum;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * An aggregate that a fleet read does itself ({@link SampleScan#pushAggregation}): GROUP BY
 * plain columns of {@link FleetSchema#SAMPLE}, with SUM, MIN and MAX of its integral columns,
 * COUNT(*) and COUNT of a column. A task sums its samples by key in Java ({@link Sums}) and
 * hands Spark one row per key (the key's columns, then the aggregates), which Spark merges over
 * the tasks (the push-down is partial), so no Spark row is made per sample.
 *
 * @param keys the grouped columns, in the query's order
 * @param aggs the aggregates, in the query's order
 */
record Grouped(StructType keys, List<Agg> aggs) implements Serializable {
    /** What an aggregate does. */
    enum Kind { SUM, MIN, MAX, COUNT }

    /** One aggregate: of this column (null for COUNT(*)). */
    record Agg(Kind kind, String column) implements Serializable {
    }

    private static final java.util.Set<String> INTEGRAL = java.util.Set.of("event_index", "time", "pid", "tid",
            "cpu", "period");

    /** This aggregation as the reader can do it, or null when it cannot. */
    static Grouped of(Aggregation a) {
        List<StructField> keys = new ArrayList<>();
        for (Expression e : a.groupByExpressions()) {
            String c = column(e);
            if (c == null) {
                return null;
            }
            keys.add(FleetSchema.SAMPLE.apply(c));
        }
        List<Agg> aggs = new ArrayList<>();
        for (AggregateFunc f : a.aggregateExpressions()) {
            Agg g = switch (f) {
                case CountStar c -> new Agg(Kind.COUNT, null);
                case Count c when !c.isDistinct() && column(c.column()) != null -> new Agg(Kind.COUNT, column(c.column()));
                case Sum s when !s.isDistinct() && integral(s.column()) -> new Agg(Kind.SUM, column(s.column()));
                case Min m when integral(m.column()) -> new Agg(Kind.MIN, column(m.column()));
                case Max m when integral(m.column()) -> new Agg(Kind.MAX, column(m.column()));
                default -> null;
            };
            if (g == null) {
                return null;
            }
            aggs.add(g);
        }
        return new Grouped(new StructType(keys.toArray(StructField[]::new)), List.copyOf(aggs));
    }

    private static String column(Expression e) {
        if (e instanceof NamedReference r && r.fieldNames().length == 1
                && FleetSchema.SAMPLE.getFieldIndex(r.fieldNames()[0]).isDefined()) {
            return r.fieldNames()[0];
        }
        return null;
    }

    private static boolean integral(Expression e) {
        String c = column(e);
        return c != null && INTEGRAL.contains(c);
    }

    /** As the scan's description shows it: {@code GROUP BY host, event: SUM(period), COUNT(*)}. */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("GROUP BY ").append(String.join(", ", keys.fieldNames())).append(":");
        for (Agg g : aggs) {
            b.append(b.charAt(b.length() - 1) == ':' ? " " : ", ").append(g.kind())
                    .append('(').append(g.column() == null ? "*" : g.column()).append(')');
        }
        return b.toString();
    }

    /** The columns a task reads to do it: the keys' and the aggregated ones. */
    StructType columns() {
        List<StructField> c = new ArrayList<>(List.of(keys.fields()));
        for (Agg g : aggs) {
            if (g.column() != null && c.stream().noneMatch(f -> f.name().equals(g.column()))) {
                c.add(FleetSchema.SAMPLE.apply(g.column()));
            }
        }
        return new StructType(c.toArray(StructField[]::new));
    }

    /** The rows a task makes: the keys, then each aggregate (a sum or count as a long). */
    StructType schema() {
        List<StructField> f = new ArrayList<>(List.of(keys.fields()));
        for (int i = 0; i < aggs.size(); i++) {
            Agg g = aggs.get(i);
            DataType t = g.kind() == Kind.MIN || g.kind() == Kind.MAX
                    ? FleetSchema.SAMPLE.apply(g.column()).dataType() : DataTypes.LongType;
            f.add(DataTypes.createStructField("agg_" + i, t, g.kind() != Kind.COUNT));
        }
        return new StructType(f.toArray(StructField[]::new));
    }

    /** A task's sums by key. Not thread-safe. */
    final class Sums {
        private final StructType columns = Grouped.this.columns();
        private final int[] at = new int[aggs.size()];
        private final Map<InternalRow, long[]> sums = new HashMap<>();

        Sums() {
            for (int i = 0; i < at.length; i++) {
                at[i] = aggs.get(i).column() == null ? -1 : columns.fieldIndex(aggs.get(i).column());
            }
        }

        /** The columns {@link #add} takes a row of. */
        StructType columns() {
            return columns;
        }

        /** One sample's row of {@link #columns()}. */
        void add(InternalRow r) {
            int n = keys.length();
            Object[] k = new Object[n];
            for (int i = 0; i < n; i++) {
                k[i] = r.get(i, columns.fields()[i].dataType());
            }
            long[] s = sums.computeIfAbsent(new GenericInternalRow(k), x -> start());
            for (int i = 0; i < at.length; i++) {
                Agg g = aggs.get(i);
                if (g.kind() == Kind.COUNT) {
                    s[i] += at[i] < 0 || !r.isNullAt(at[i]) ? 1 : 0;
                    continue;
                }
                long v = columns.fields()[at[i]].dataType() == DataTypes.IntegerType ? r.getInt(at[i]) : r.getLong(at[i]);
                s[i] = switch (g.kind()) {
                    case SUM -> s[i] + v;
                    case MIN -> Math.min(s[i], v);
                    default -> Math.max(s[i], v);
                };
            }
        }

        private long[] start() {
            long[] s = new long[at.length];
            for (int i = 0; i < s.length; i++) {
                s[i] = switch (aggs.get(i).kind()) {
                    case MIN -> Long.MAX_VALUE;
                    case MAX -> Long.MIN_VALUE;
                    default -> 0;
                };
            }
            return s;
        }

        /**
         * Each key's row of {@link #schema()}; without keys and samples, the row of none (counts
         * 0, the others null), as Spark's partial aggregate makes it.
         */
        void rows(Consumer<InternalRow> out) {
            int n = keys.length();
            if (n == 0 && sums.isEmpty()) {
                Object[] v = new Object[at.length];
                for (int i = 0; i < v.length; i++) {
                    v[i] = aggs.get(i).kind() == Kind.COUNT ? (Object) 0L : null;
                }
                out.accept(new GenericInternalRow(v));
                return;
            }
            for (Map.Entry<InternalRow, long[]> e : sums.entrySet()) {
                Object[] v = new Object[n + at.length];
                for (int i = 0; i < n; i++) {
                    v[i] = e.getKey().get(i, keys.fields()[i].dataType());
                }
                long[] s = e.getValue();
                for (int i = 0; i < at.length; i++) {
                    boolean isInt = at[i] >= 0 && aggs.get(i).kind() != Kind.SUM && aggs.get(i).kind() != Kind.COUNT
                            && columns.fields()[at[i]].dataType() == DataTypes.IntegerType;
                    v[n + i] = isInt ? (Object) (int) s[i] : (Object) s[i];
                }
                out.accept(new GenericInternalRow(v));
            }
        }
    }
}
