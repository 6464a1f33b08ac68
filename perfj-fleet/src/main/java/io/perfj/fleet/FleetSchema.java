package io.perfj.fleet;

import io.perfj.session.ResolvedSample;
import io.perfj.symbols.Dso;
import io.perfj.symbols.DsoKind;
import io.perfj.symbols.Location;
import io.perfj.symbols.Symbol;
import io.perfj.symbols.SymbolTable;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The rows of {@code spark.read.format("perfj")}: one per sample, with its recording, thread,
 * event and stack, each frame as the session resolved it. A frame keeps what a report needs to
 * key a row exactly as the single-file path does (the object's names and kind, the symbol's
 * range and binding, both addresses and the level), so rows merged over many files can be fed
 * back to {@link io.perfj.report.Report#ofRows} ({@link #location}).
 */
public final class FleetSchema {
    private FleetSchema() {
    }

    /** One resolved frame. */
    public static final StructType FRAME = new StructType(new StructField[]{
            field("dso", DataTypes.StringType),
            field("dso_short", DataTypes.StringType),
            field("dso_kind", DataTypes.StringType),
            field("build_id", DataTypes.StringType),
            field("symbol", DataTypes.StringType),
            field("sym_start", DataTypes.LongType),
            field("sym_end", DataTypes.LongType),
            field("sym_binding", DataTypes.StringType),
            field("offset", DataTypes.LongType),
            field("inline", DataTypes.BooleanType),
            field("address", DataTypes.LongType),
            field("map_address", DataTypes.LongType),
            field("level", DataTypes.StringType),
    });

    /** One sample. */
    public static final StructType SAMPLE = new StructType(new StructField[]{
            field("host", DataTypes.StringType),
            field("file", DataTypes.StringType),
            field("event", DataTypes.StringType),
            field("event_index", DataTypes.IntegerType),
            field("time", DataTypes.LongType),
            field("pid", DataTypes.IntegerType),
            field("tid", DataTypes.IntegerType),
            field("comm", DataTypes.StringType),
            field("cpu", DataTypes.IntegerType),
            field("period", DataTypes.LongType),
            field("sampled", FRAME),
            field("stack", DataTypes.createArrayType(FRAME, false)),
    });

    private static StructField field(String name, org.apache.spark.sql.types.DataType type) {
        return DataTypes.createStructField(name, type, true);
    }

    static InternalRow row(UTF8String host, UTF8String file, ResolvedSample s) {
        List<Location> frames = s.frames();
        Object[] stack = new Object[frames.size()];
        for (int i = 0; i < stack.length; i++) {
            stack[i] = frame(frames.get(i));
        }
        return new GenericInternalRow(new Object[]{host, file, UTF8String.fromString(s.eventName()), s.event(),
                s.time(), s.pid(), s.tid(), str(s.comm()), s.cpu(), s.period(), frame(s.sampled()),
                new GenericArrayData(stack)});
    }

    private static UTF8String str(String s) {
        return s == null ? null : UTF8String.fromString(s);
    }

    private static InternalRow frame(Location l) {
        Dso d = l.dso();
        Symbol y = l.symbol();
        return new GenericInternalRow(new Object[]{
                d == null ? null : str(d.longName()),
                d == null ? null : str(d.shortName()),
                d == null ? null : str(d.kind().name()),
                d == null ? null : str(d.buildIdHex()),
                y == null ? null : str(y.name()),
                y == null ? null : y.start(),
                y == null ? null : y.end(),
                y == null ? null : str(String.valueOf(y.binding())),
                y == null ? null : l.symbolOffset(),
                y != null && y.inlined(),
                l.ip(), l.mapIp(), str(String.valueOf(l.level()))});
    }

    /**
     * A frame of {@link #FRAME} (an external {@link Row}) as a {@link Location} again, its
     * object one per distinct (path, short name, kind) in {@code dsos}, as one session keys an
     * object by its path: builds of one program on many hosts are one row (slice them by
     * {@code build_id} with SQL). The object has no symbol table (the frame carries its symbol).
     */
    public static Location location(Row f, Map<List<String>, Dso> dsos) {
        String longName = f.getString(0);
        Dso dso = null;
        if (longName != null) {
            List<String> key = List.of(longName, f.getString(1), f.getString(2));
            dso = dsos.computeIfAbsent(key, k -> new Dso(k.get(0), k.get(1), DsoKind.valueOf(k.get(2)), null,
                    x -> SymbolTable.EMPTY));
            if (!f.isNullAt(3)) {
                // the first build-id seen (a Dso keeps its first)
                dso.buildId(HexFormat.of().parseHex(f.getString(3)));
            }
        }
        Symbol sym = f.isNullAt(4) ? null : new Symbol(f.getLong(5), f.getLong(6), f.getString(4),
                f.getString(7).charAt(0));
        return new Location(null, dso, sym, f.getLong(10), f.getLong(11), f.getString(12).charAt(0));
    }
}
