package io.perfj.report;

import java.util.ArrayList;
import java.util.List;

/**
 * perf report's {@code -F/--fields}: the columns a report prints, in order, and the order its
 * rows are sorted in.
 *
 * <p>A list (perf's strict field order) is all the columns: the values and sort keys named,
 * then the {@code --sort} keys it does not name. Rows are keyed by every sort key of the two
 * lists and sorted by the {@code --sort} keys, then by the fields in their order (without
 * {@code --sort}, by the fields alone): each value larger first, each key ascending.
 *
 * <p>A list starting with {@code +} adds its fields to perf's default columns (Children and
 * Self with --children, else Overhead; Samples with -n, Period with --show-total-period), before
 * the sort keys' columns; rows are sorted as without it.
 *
 * @param columns the columns, in order
 * @param order   the fields rows are sorted by, in order (strict lists); null: perf's default order
 * @param keys    the sort keys rows are keyed by
 */
public record ReportFields(List<Field> columns, List<Field> order, List<SortKey> keys) {
    /** perf's output fields that are values of a row rather than sort keys. */
    public enum Value {
        /** {@code overhead}: the row's own period, a percentage ("Self" beside Children by default). */
        OVERHEAD("Overhead", 8),
        /** {@code overhead_sys}: the part of it sampled in the kernel. */
        OVERHEAD_SYS("sys", 8),
        /** {@code overhead_us}: the part of it sampled in user space. */
        OVERHEAD_US("usr", 8),
        /** {@code overhead_children}: the period with the callees' (N/A without --children). */
        OVERHEAD_CHILDREN("Children", 8),
        /** {@code sample}: the row's own samples. */
        SAMPLE("Samples", 12),
        /** {@code period}: the row's own period. */
        PERIOD("Period", 12);

        private final String header;
        private final int width;

        Value(String header, int width) {
            this.header = header;
            this.width = width;
        }

        public String header() {
            return header;
        }

        /** The column's width per event (a group's columns hold a value per event). */
        public int width() {
            return width;
        }
    }

    /**
     * One column: a value, or a sort key. {@code header} is the value column's header (perf
     * names the default Overhead column "Self" beside Children).
     */
    public record Field(Value value, SortKey key, String header) {
        static Field of(Value v) {
            return new Field(v, null, v.header());
        }

        static Field of(SortKey k) {
            return new Field(null, k, k.header());
        }

        boolean same(Field o) {
            return value == o.value && key == o.key;
        }
    }

    /**
     * Reads a {@code -F} list.
     *
     * @param text        the list as given
     * @param sort        the {@code --sort} keys, or null when none were given
     * @param defaultKeys the sort keys without {@code --sort}
     * @param children    whether --children is on
     * @param samples     {@code -n} (a default column, so only with a {@code +} list)
     * @param period      {@code --show-total-period} (likewise)
     * @throws IllegalArgumentException for a field perf does not have, or an empty list
     */
    public static ReportFields parse(String text, List<SortKey> sort, List<SortKey> defaultKeys, boolean children,
                                     boolean samples, boolean period) {
        String t = text.strip();
        boolean plus = t.startsWith("+");
        List<Field> named = new ArrayList<>();
        for (String name : SortKey.names(plus ? t.substring(1) : t)) {
            Value v = switch (name) {
                case "overhead" -> Value.OVERHEAD;
                case "overhead_sys" -> Value.OVERHEAD_SYS;
                case "overhead_us" -> Value.OVERHEAD_US;
                case "overhead_children" -> Value.OVERHEAD_CHILDREN;
                case "sample" -> Value.SAMPLE;
                case "period" -> Value.PERIOD;
                default -> null;
            };
            Field f;
            try {
                f = v != null ? Field.of(v) : Field.of(SortKey.parse(name).getFirst());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("unknown field '" + name + "' (fields: overhead, overhead_sys, "
                        + "overhead_us, overhead_children, sample, period, and the sort keys)");
            }
            add(named, f);
        }
        List<Field> columns = new ArrayList<>();
        List<Field> order = null;
        List<SortKey> keys = new ArrayList<>();
        if (plus) {
            if (children) {
                columns.add(Field.of(Value.OVERHEAD_CHILDREN));
                columns.add(new Field(Value.OVERHEAD, null, "Self"));
            } else {
                columns.add(Field.of(Value.OVERHEAD));
            }
            if (samples) {
                columns.add(Field.of(Value.SAMPLE));
            }
            if (period) {
                columns.add(Field.of(Value.PERIOD));
            }
            named.forEach(f -> add(columns, f));
            keys.addAll(sort != null ? sort : defaultKeys);
            for (Field f : named) {
                if (f.key() != null && !keys.contains(f.key())) {
                    keys.add(f.key());
                }
            }
        } else {
            columns.addAll(named);
            order = new ArrayList<>();
            for (SortKey k : sort != null ? sort : List.<SortKey>of()) {
                add(order, Field.of(k));
            }
            for (Field f : named) {
                add(order, f);
            }
            for (Field f : order) {
                if (f.key() != null) {
                    keys.add(f.key());
                }
            }
        }
        for (SortKey k : keys) {
            add(columns, Field.of(k));
        }
        return new ReportFields(List.copyOf(columns), order == null ? null : List.copyOf(order), List.copyOf(keys));
    }

    /** Adds a field unless the list has it. */
    private static void add(List<Field> list, Field f) {
        for (Field g : list) {
            if (g.same(f)) {
                return;
            }
        }
        list.add(f);
    }
}
