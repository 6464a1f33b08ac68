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
    public static final StructType FRAME = struct(
            "dso", DataTypes.StringType, "dso_short", DataTypes.StringType, "dso_kind", DataTypes.StringType,
            "build_id", DataTypes.StringType, "symbol", DataTypes.StringType, "sym_start", DataTypes.LongType,
            "sym_end", DataTypes.LongType, "sym_binding", DataTypes.StringType, "offset", DataTypes.LongType,
            "inline", DataTypes.BooleanType, "address", DataTypes.LongType, "map_address", DataTypes.LongType,
            "level", DataTypes.StringType);

    /** One sample. */
    public static final StructType SAMPLE = struct(
            "host", DataTypes.StringType, "file", DataTypes.StringType, "event", DataTypes.StringType,
            "event_index", DataTypes.IntegerType, "time", DataTypes.LongType, "pid", DataTypes.IntegerType,
            "tid", DataTypes.IntegerType, "comm", DataTypes.StringType, "cpu", DataTypes.IntegerType,
            "period", DataTypes.LongType, "sampled", FRAME, "stack", DataTypes.createArrayType(FRAME, false),
            "chained", DataTypes.BooleanType,
            "frame_key", FRAME, "chain_key", DataTypes.createArrayType(FRAME, false),
            "stack_key", DataTypes.createArrayType(FRAME, false), "flame_stack", DataTypes.createArrayType(FRAME, false));

    /**
     * The columns made of others for grouping by them (so that a GROUP BY of plain columns can be
     * pushed to the reader, {@link SampleScan#pushAggregation}): {@code frame_key}, the sampled
     * frame as a report row is keyed by it (with a symbol, its addresses and offset zero, else the
     * frame); {@code chain_key}, the
     * stack's frames keyed so, when the sample is {@code chained}, else empty; {@code stack_key},
     * the stack's frames keyed so except inlined ones (whole); {@code flame_stack}, the stack's
     * frames reduced to what a flame graph draws ({@link FleetFlame}).
     */
    static final java.util.Set<String> KEYS = java.util.Set.of("frame_key", "chain_key", "stack_key", "flame_stack");

    /** A struct of nullable fields, given as name, type, name, type, ... */
    private static StructType struct(Object... namesAndTypes) {
        StructField[] f = new StructField[namesAndTypes.length / 2];
        for (int i = 0; i < f.length; i++) {
            f[i] = DataTypes.createStructField((String) namesAndTypes[2 * i],
                    (org.apache.spark.sql.types.DataType) namesAndTypes[2 * i + 1], true);
        }
        return new StructType(f);
    }

    /** The columns of {@link #SAMPLE} that a scan reads (all, or those Spark asked for). */
    static StructType pruned(StructType required) {
        java.util.List<StructField> keep = new java.util.ArrayList<>();
        for (StructField f : SAMPLE.fields()) {
            if (required.getFieldIndex(f.name()).isDefined()) {
                // whole, whatever nested fields were asked for
                keep.add(f);
            }
        }
        return new StructType(keep.toArray(StructField[]::new));
    }

    /**
     * Whether the stack (or whether there is a callchain) is among these columns (else the
     * session resolves the sampled address alone).
     */
    static boolean hasStack(StructType columns) {
        for (String c : new String[]{"stack", "chained", "chain_key", "stack_key", "flame_stack"}) {
            if (columns.getFieldIndex(c).isDefined()) {
                return true;
            }
        }
        return false;
    }

    /**
     * The Spark values of one recording's frames, made once per distinct frame: the session
     * answers each address from its location cache, so a {@link Location} met again is the same
     * object, and its row (immutable once made) is the same row. A reader's own; not thread-safe.
     */
    static final class Frames {
        private static final int MAX = 1 << 16;
        private final java.util.IdentityHashMap<Location, InternalRow> rows = new java.util.IdentityHashMap<>();
        /** Per frame: its report key, its stack key, its drawn frame (made when first asked for). */
        private final java.util.IdentityHashMap<Location, InternalRow[]> keys = new java.util.IdentityHashMap<>();
        private final java.util.IdentityHashMap<Dso, UTF8String[]> dsos = new java.util.IdentityHashMap<>();
        private final java.util.HashMap<String, UTF8String> events = new java.util.HashMap<>();

        InternalRow row(Location l) {
            InternalRow r = rows.get(l);
            if (r == null) {
                if (rows.size() == MAX) {
                    rows.clear();
                }
                r = frame(l, dsos);
                rows.put(l, r);
            }
            return r;
        }

        /** The frame's row of a kind of key column: 0 frame/chain key, 1 stack key, 2 drawn. */
        InternalRow key(Location l, int kind) {
            InternalRow[] k = keys.get(l);
            if (k == null) {
                if (keys.size() == MAX) {
                    keys.clear();
                }
                k = new InternalRow[3];
                keys.put(l, k);
            }
            if (k[kind] == null) {
                InternalRow f = row(l);
                k[kind] = switch (kind) {
                    case 0 -> reportKey(f);
                    case 1 -> f.getBoolean(INLINE) ? f : key(l, 0);
                    default -> drawn(f);
                };
            }
            return k[kind];
        }

        UTF8String event(String name) {
            return events.computeIfAbsent(name, UTF8String::fromString);
        }
    }

    /** One sample's row of these columns (a subset of {@link #SAMPLE}, in its order). */
    static InternalRow row(StructType columns, UTF8String host, UTF8String file, ResolvedSample s, Frames frames) {
        StructField[] fields = columns.fields();
        Object[] v = new Object[fields.length];
        for (int i = 0; i < v.length; i++) {
            v[i] = switch (fields[i].name()) {
                case "host" -> host;
                case "file" -> file;
                case "event" -> frames.event(s.eventName());
                case "event_index" -> s.event();
                case "time" -> s.time();
                case "pid" -> s.pid();
                case "tid" -> s.tid();
                case "comm" -> str(s.comm());
                case "cpu" -> s.cpu();
                case "period" -> s.period();
                case "sampled" -> frames.row(s.sampled());
                case "stack" -> stack(s.frames(), frames);
                case "chained" -> s.chained();
                case "frame_key" -> frames.key(s.sampled(), 0);
                case "chain_key" -> s.chained() ? keys(s.frames(), frames, 0) : new GenericArrayData(new Object[0]);
                case "stack_key" -> keys(s.frames(), frames, 1);
                case "flame_stack" -> keys(s.frames(), frames, 2);
                default -> throw new IllegalArgumentException("no column " + fields[i].name());
            };
        }
        return new GenericInternalRow(v);
    }

    private static GenericArrayData stack(List<Location> frames, Frames rows) {
        Object[] stack = new Object[frames.size()];
        for (int i = 0; i < stack.length; i++) {
            stack[i] = rows.row(frames.get(i));
        }
        return new GenericArrayData(stack);
    }

    private static GenericArrayData keys(List<Location> frames, Frames rows, int kind) {
        Object[] stack = new Object[frames.size()];
        for (int i = 0; i < stack.length; i++) {
            stack[i] = rows.key(frames.get(i), kind);
        }
        return new GenericArrayData(stack);
    }

    private static final int SYMBOL = 4;
    private static final int OFFSET = 8;
    private static final int INLINE = 9;
    private static final int ADDRESS = 10;
    private static final int MAP_ADDRESS = 11;

    /** A frame as a report keys it: with a symbol, its addresses and offset zero. */
    private static InternalRow reportKey(InternalRow f) {
        if (f.isNullAt(SYMBOL)) {
            return f;
        }
        Object[] v = values(f);
        v[OFFSET] = 0L;
        v[ADDRESS] = 0L;
        v[MAP_ADDRESS] = 0L;
        return new GenericInternalRow(v);
    }

    /**
     * A frame reduced to what a flame graph draws of it: the object's short name (also as its
     * name) and kind, the symbol, inline mark (as the binding) and level.
     */
    private static InternalRow drawn(InternalRow f) {
        boolean inline = f.getBoolean(INLINE);
        Object[] d = values(f);
        return new GenericInternalRow(new Object[]{d[1], d[1], d[2], null, d[SYMBOL], 0L, 0L,
                UTF8String.fromString(String.valueOf(inline ? Symbol.INLINED : 'T')), 0L, inline, 0L, 0L, d[12]});
    }

    private static Object[] values(InternalRow f) {
        return ((GenericInternalRow) f).values().clone();
    }

    private static UTF8String str(String s) {
        return s == null ? null : UTF8String.fromString(s);
    }

    private static InternalRow frame(Location l, Map<Dso, UTF8String[]> dsos) {
        Dso d = l.dso();
        Symbol y = l.symbol();
        UTF8String[] o = d == null ? new UTF8String[4] : dsos.get(d);
        if (d != null && (o == null || o[3] == null && d.buildId().isPresent())) {
            // (again when the object learnt its build-id since)
            o = new UTF8String[]{str(d.longName()), str(d.shortName()), str(d.kind().name()), str(d.buildIdHex())};
            dsos.put(d, o);
        }
        return new GenericInternalRow(new Object[]{
                o[0], o[1], o[2], o[3],
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
