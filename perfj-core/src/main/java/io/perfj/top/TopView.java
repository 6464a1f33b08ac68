package io.perfj.top;

import io.perfj.report.SortKey;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The state of {@code perfj top}'s full-screen view, apart from any terminal: the rows of the
 * last snapshot in the chosen order, the cursor and the first row shown, the zooms (one command,
 * one object), and a text page (help, annotation) shown over the list. The screen feeds it keys
 * and snapshots and draws {@link #lines}; what needs the profile (new counts, an annotation) is
 * returned as an {@link Effect} for the screen to do.
 */
public final class TopView {
    /** What the rows are ordered by; {@code s} steps through them in this order. */
    public enum Order {
        OVERHEAD, DSO, SYMBOL, COMM;

        Order next() {
            return values()[(ordinal() + 1) % values().length];
        }
    }

    /** The keys the view understands (decoded from the terminal's bytes by {@link #decode}). */
    public enum Key {
        UP, DOWN, PAGE_UP, PAGE_DOWN, HOME, END, SORT, ZOOM_DSO, ZOOM_THREAD, ANNOTATE, EXPAND, RESET, HELP,
        /** On an annotate page: to the hottest instruction, the next hottest, the previous (perf's H, TAB, shift-TAB). */
        HOTTEST, NEXT_HOT, PREV_HOT,
        BACK, QUIT, NONE
    }

    /** What the screen does after a key. */
    public enum Effect {
        /** Draw again. */
        DRAW,
        /** Take a new snapshot (the keys or zooms changed), then draw. */
        REFRESH,
        /** Forget the counts ({@link LiveProfile#reset}), then refresh. */
        RESET,
        /** Show the selected row's annotation ({@link #showText}). */
        ANNOTATE,
        /** Show the selected row's callchains ({@link #showText}). */
        EXPAND,
        QUIT
    }

    private static final List<String> HELP = List.of(
            "perfj top: keys",
            "",
            "  UP/DOWN PGUP/PGDN HOME/END  move the selection",
            "  s                           order by the next key: overhead, dso, symbol, comm",
            "  d                           zoom into the selected row's object (again: unzoom)",
            "  t                           zoom into the selected row's command (again: unzoom)",
            "  a, ENTER                    annotate the selected symbol",
            "  +, e                        the selected symbol's callchains (with -g)",
            "  z                           reset the counts",
            "  h, ?                        this help",
            "  H, TAB, shift-TAB           on an annotation: the hottest instruction, the next, the previous",
            "  q, ESC                      back from a page; q in the list quits");

    private List<SortKey> keys;
    private Order order = Order.OVERHEAD;
    private String zoomComm;
    private String zoomDso;
    private LiveProfile.Snapshot snap = new LiveProfile.Snapshot(0, 0, 0, 0, List.of());
    private List<LiveProfile.Row> rows = List.of();
    /** Each row's accumulated period (--children: a Children column, the order's overhead), or null. */
    private java.util.function.ToLongFunction<LiveProfile.Row> children;
    private int cursor;
    private int first;
    private int height = 20;
    private String status = "";
    /** The page shown over the list, or null. */
    private List<String> text;
    private String textTitle;
    private int textFirst;
    /** The page's lines with a percentage above zero, hottest first (an annotation's instructions). */
    private int[] hot = new int[0];
    /** The index in {@link #hot} of the highlighted line, or -1. */
    private int hotAt = -1;

    /** A view over rows merged by {@code keys} (of comm, dso, sym), hottest first. */
    public TopView(List<SortKey> keys) {
        this.keys = List.copyOf(keys);
    }

    /** The keys the next snapshot is to be merged by. */
    public List<SortKey> keys() {
        return keys;
    }

    /** The command zoomed into, or null. */
    public String zoomComm() {
        return zoomComm;
    }

    /** The object zoomed into (its name), or null. */
    public String zoomDso() {
        return zoomDso;
    }

    public Order order() {
        return order;
    }

    public int cursor() {
        return cursor;
    }

    public int first() {
        return first;
    }

    /** The rows in the view's order. */
    public List<LiveProfile.Row> rows() {
        return rows;
    }

    /** The selected row, or null when there is none. */
    public LiveProfile.Row selected() {
        return rows.isEmpty() ? null : rows.get(cursor);
    }

    /** Whether a text page (help, annotation) is shown over the list. */
    public boolean showingText() {
        return text != null;
    }

    /** How many rows fit below the header: the cursor is kept in that window. */
    public void height(int rowsShown) {
        height = Math.max(1, rowsShown);
        clamp();
    }

    /** The rows of a new snapshot, ordered as chosen; the selection stays on the same row when it is still there. */
    public void update(LiveProfile.Snapshot s) {
        update(s, null);
    }

    /**
     * As {@link #update(LiveProfile.Snapshot)}, the rows with their accumulated periods
     * ({@code children}, null for none: perf top's Children column, which orders the rows).
     */
    public void update(LiveProfile.Snapshot s, java.util.function.ToLongFunction<LiveProfile.Row> children) {
        LiveProfile.Row was = selected();
        snap = s;
        this.children = children;
        List<LiveProfile.Row> r = new ArrayList<>(s.rows());
        r.sort(comparator(order, children));
        rows = List.copyOf(r);
        if (was != null) {
            for (int i = 0; i < rows.size(); i++) {
                if (sameRow(rows.get(i), was)) {
                    cursor = i;
                    break;
                }
            }
        }
        clamp();
    }

    private static boolean sameRow(LiveProfile.Row a, LiveProfile.Row b) {
        return Objects.equals(a.comm(), b.comm()) && Objects.equals(a.dso(), b.dso())
                && Objects.equals(a.symbol(), b.symbol());
    }

    /** The rows' order for {@code o}: its column ascending (overhead descending), then the hottest first. */
    static Comparator<LiveProfile.Row> comparator(Order o) {
        return comparator(o, null);
    }

    /** As {@link #comparator(Order)}, the hottest by {@code children} when given (--children). */
    static Comparator<LiveProfile.Row> comparator(Order o, java.util.function.ToLongFunction<LiveProfile.Row> children) {
        Comparator<LiveProfile.Row> hottest = (children != null ? Comparator.comparingLong(children)
                : Comparator.comparingLong(LiveProfile.Row::period)).reversed();
        Comparator<LiveProfile.Row> byName = switch (o) {
            case OVERHEAD -> (a, b) -> 0;
            case DSO -> Comparator.comparing(r -> Objects.toString(r.dso(), ""));
            case SYMBOL -> Comparator.comparing(r -> r.frame() == null ? "" : r.frame().symName());
            case COMM -> Comparator.comparing(r -> Objects.toString(r.comm(), ""));
        };
        return byName.thenComparing(hottest);
    }

    /** Shows {@code lines} as a page over the list until q or ESC. */
    public void showText(String title, List<String> lines) {
        text = expandTabs(lines);
        textTitle = title;
        textFirst = 0;
        hot = hotLines(text);
        // as perf's annotate browser: open at the hottest instruction
        hotAt = -1;
        if (hot.length > 0) {
            goToHot(0);
        }
    }

    /** The lines of an annotation ({@code perfj annotate --stdio}'s: {@code "  12.34 :   addr: insn"}) by percent, hottest first. */
    static int[] hotLines(List<String> lines) {
        List<double[]> found = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            int colon = l.indexOf(" : ");
            if (colon <= 0 || colon > 12) {
                continue;
            }
            try {
                double p = Double.parseDouble(l.substring(0, colon).strip());
                if (p > 0) {
                    found.add(new double[] {p, i});
                }
            } catch (NumberFormatException e) {
                // a source or text line
            }
        }
        found.sort(Comparator.comparingDouble((double[] d) -> -d[0]).thenComparingDouble(d -> d[1]));
        int[] out = new int[found.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = (int) found.get(i)[1];
        }
        return out;
    }

    /** Highlights hot line {@code at} (of {@link #hot}) and scrolls it to the middle of the page, as perf does. */
    private void goToHot(int at) {
        hotAt = Math.floorMod(at, hot.length);
        textFirst = Math.clamp(hot[hotAt] - height / 2, 0, Math.max(0, text.size() - height));
    }

    /**
     * New lines for the page shown (an annotation refreshed with the live sums), kept at the
     * same scroll position; nothing when no page is shown.
     */
    public void replaceText(List<String> lines) {
        if (text != null) {
            text = expandTabs(lines);
            textFirst = Math.clamp(textFirst, 0, Math.max(0, text.size() - height));
            // the highlighted line stays where it was when it is still hot, else none is
            int line = hotAt >= 0 ? hot[hotAt] : -1;
            hot = hotLines(text);
            hotAt = -1;
            for (int i = 0; i < hot.length; i++) {
                if (hot[i] == line) {
                    hotAt = i;
                }
            }
        }
    }

    /** Tabs as the spaces to the next multiple of 8 columns (a page's lines are cut by columns). */
    public static List<String> expandTabs(List<String> lines) {
        List<String> out = new ArrayList<>(lines.size());
        for (String l : lines) {
            if (l.indexOf('\t') < 0) {
                out.add(l);
                continue;
            }
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < l.length(); i++) {
                char c = l.charAt(i);
                if (c == '\t') {
                    b.append(" ".repeat(8 - b.length() % 8));
                } else {
                    b.append(c);
                }
            }
            out.add(b.toString());
        }
        return List.copyOf(out);
    }

    /** A status line shown under the header until the next key. */
    public void status(String s) {
        status = s == null ? "" : s;
    }

    /** Applies one key. */
    public Effect press(Key k) {
        status = "";
        if (text != null) {
            return pressOnText(k);
        }
        switch (k) {
            case UP -> cursor--;
            case DOWN -> cursor++;
            case PAGE_UP -> cursor -= height;
            case PAGE_DOWN -> cursor += height;
            case HOME -> cursor = 0;
            case END -> cursor = rows.size() - 1;
            case SORT -> {
                order = order.next();
                if (order == Order.COMM && !keys.contains(SortKey.COMM)) {
                    keys = withComm(keys);
                }
                status = "ordered by " + order.name().toLowerCase(Locale.ROOT);
                return Effect.REFRESH;
            }
            case ZOOM_DSO -> {
                if (zoomDso != null) {
                    zoomDso = null;
                    return Effect.REFRESH;
                }
                LiveProfile.Row r = selected();
                if (r == null || r.dso() == null) {
                    status = "no object to zoom into";
                    return Effect.DRAW;
                }
                zoomDso = r.dso();
                return Effect.REFRESH;
            }
            case ZOOM_THREAD -> {
                if (zoomComm != null) {
                    zoomComm = null;
                    return Effect.REFRESH;
                }
                LiveProfile.Row r = selected();
                if (r != null && r.comm() != null) {
                    zoomComm = r.comm();
                    return Effect.REFRESH;
                }
                if (!keys.contains(SortKey.COMM)) {
                    // the rows are merged over commands: show them apart, then t picks one
                    keys = withComm(keys);
                    status = "rows now by command: t again zooms into the selected one";
                    return Effect.REFRESH;
                }
                status = "no command to zoom into";
                return Effect.DRAW;
            }
            case ANNOTATE -> {
                return selected() == null ? Effect.DRAW : Effect.ANNOTATE;
            }
            case EXPAND -> {
                return selected() == null ? Effect.DRAW : Effect.EXPAND;
            }
            case RESET -> {
                return Effect.RESET;
            }
            case HELP -> showText("help", HELP);
            case QUIT -> {
                return Effect.QUIT;
            }
            default -> {
                return Effect.DRAW;
            }
        }
        clamp();
        return Effect.DRAW;
    }

    private static List<SortKey> withComm(List<SortKey> keys) {
        List<SortKey> k = new ArrayList<>();
        k.add(SortKey.COMM);
        k.addAll(keys);
        return List.copyOf(k);
    }

    private Effect pressOnText(Key k) {
        int last = Math.max(0, text.size() - height);
        switch (k) {
            case UP -> textFirst--;
            case DOWN -> textFirst++;
            case PAGE_UP -> textFirst -= height;
            case PAGE_DOWN -> textFirst += height;
            case HOME -> textFirst = 0;
            case END -> textFirst = last;
            case HOTTEST, NEXT_HOT, PREV_HOT -> {
                if (hot.length > 0) {
                    goToHot(k == Key.HOTTEST || hotAt < 0 ? 0 : hotAt + (k == Key.NEXT_HOT ? 1 : -1));
                }
                return Effect.DRAW;
            }
            case QUIT, BACK -> {
                text = null;
                return Effect.DRAW;
            }
            default -> {
                return Effect.DRAW;
            }
        }
        textFirst = Math.clamp(textFirst, 0, last);
        return Effect.DRAW;
    }

    private void clamp() {
        cursor = rows.isEmpty() ? 0 : Math.clamp(cursor, 0, rows.size() - 1);
        if (cursor < first) {
            first = cursor;
        } else if (cursor >= first + height) {
            first = cursor - height + 1;
        }
        first = Math.clamp(first, 0, Math.max(0, rows.size() - height));
    }

    /** The lines above the rows: perf top's summary, the zooms or status, the column titles. */
    public static final int HEADER_LINES = 4;

    /**
     * The screen's lines (at most {@code height} rows after {@link #HEADER_LINES} header lines,
     * none longer than {@code width}); {@link #selectedLine} is the index of the highlighted one.
     */
    public List<String> lines(String event, int width) {
        List<String> out = new ArrayList<>();
        if (text != null) {
            out.add(cut("perfj top: " + textTitle + "  (q, ESC: back; " + (textFirst + 1) + "-"
                    + Math.min(text.size(), textFirst + height) + " of " + text.size() + ")", width));
            out.add(cut("-".repeat(width), width));
            out.add("");
            out.add("");
            for (int i = textFirst; i < Math.min(text.size(), textFirst + height); i++) {
                out.add(cut(text.get(i), width));
            }
            return out;
        }
        out.add(cut(String.format(Locale.ROOT, "   PerfTop: %d samples, event: %s, lost: %d, ordered by %s",
                snap.samples(), event, snap.lost(), order.name().toLowerCase(Locale.ROOT)), width));
        StringBuilder z = new StringBuilder();
        if (zoomComm != null) {
            z.append("   command: ").append(zoomComm);
        }
        if (zoomDso != null) {
            z.append("   object: ").append(zoomDso);
        }
        if (!status.isEmpty()) {
            z.append("   ").append(status);
        }
        out.add(cut(z.isEmpty() ? "-".repeat(width) : z.toString(), width));
        out.add("");
        // the columns as wide as every row needs; only the rows on the page formatted
        int last = Math.min(rows.size(), first + height);
        for (String line : rowLines(snap, rows, keys, true, children, Math.min(first, last), last)) {
            out.add(cut(line, width));
        }
        return out;
    }

    /**
     * The index in {@link #lines} of the selected row (on an annotate page: of the highlighted
     * instruction), or -1 without one.
     */
    public int selectedLine() {
        if (text != null) {
            // an annotation's highlighted instruction, when it is on the page
            int line = hotAt >= 0 ? hot[hotAt] : -1;
            return line >= textFirst && line < textFirst + height ? HEADER_LINES + line - textFirst : -1;
        }
        return rows.isEmpty() ? -1 : HEADER_LINES + cursor - first;
    }

    /**
     * The rows in report's layout: {@code  OVERHEAD  [COMMAND]  SHARED-OBJECT  [.] SYMBOL}, the
     * columns as wide as their widest value; with {@code titles}, a title line first.
     */
    public static List<String> rowLines(LiveProfile.Snapshot snap, List<LiveProfile.Row> rows, List<SortKey> keys,
                                        boolean titles) {
        return rowLines(snap, rows, keys, titles, null);
    }

    /** As {@link #rowLines(LiveProfile.Snapshot, List, List, boolean)}; with {@code children}, report's Children and Self columns. */
    public static List<String> rowLines(LiveProfile.Snapshot snap, List<LiveProfile.Row> rows, List<SortKey> keys,
                                        boolean titles, java.util.function.ToLongFunction<LiveProfile.Row> children) {
        return rowLines(snap, rows, keys, titles, children, 0, rows.size());
    }

    /**
     * As {@link #rowLines(LiveProfile.Snapshot, List, List, boolean, java.util.function.ToLongFunction)}
     * for the rows {@code from} to {@code to} (exclusive) alone, the columns as wide as all of
     * {@code rows} need (a page of the full-screen view).
     */
    static List<String> rowLines(LiveProfile.Snapshot snap, List<LiveProfile.Row> rows, List<SortKey> keys,
                                 boolean titles, java.util.function.ToLongFunction<LiveProfile.Row> children,
                                 int from, int to) {
        int comm = titles ? "Command".length() : 0;
        int dso = titles ? "Shared Object".length() : 0;
        for (LiveProfile.Row row : rows) {
            comm = Math.max(comm, row.comm() == null ? 0 : row.comm().length());
            dso = Math.max(dso, row.dso() == null ? 0 : row.dso().length());
        }
        List<String> out = new ArrayList<>();
        if (titles) {
            StringBuilder b = new StringBuilder(children != null ? "  Children      Self" : "  Overhead");
            for (SortKey k : keys) {
                b.append("  ");
                switch (k) {
                    case COMM -> b.append(String.format("%-" + comm + "s", "Command"));
                    case DSO -> b.append(String.format("%-" + dso + "s", "Shared Object"));
                    default -> b.append("Symbol");
                }
            }
            out.add(b.toString().stripTrailing());
        }
        for (LiveProfile.Row row : rows.subList(from, to)) {
            StringBuilder b = new StringBuilder();
            if (children != null) {
                long acc = children.applyAsLong(row);
                b.append(String.format(Locale.ROOT, "%9.2f%%", snap.period() == 0 ? 0 : 100.0 * acc / snap.period()));
            }
            b.append(String.format(Locale.ROOT, "%9.2f%%", snap.percent(row)));
            for (SortKey k : keys) {
                b.append("  ");
                switch (k) {
                    case COMM -> b.append(String.format("%-" + comm + "s", row.comm()));
                    case DSO -> b.append(String.format("%-" + dso + "s", row.dso()));
                    default -> b.append(row.symbol());
                }
            }
            out.add(b.toString().stripTrailing());
        }
        return out;
    }

    private static String cut(String s, int width) {
        return s.length() <= width ? s : s.substring(0, Math.max(0, width));
    }

    /**
     * The key a terminal's bytes mean: one character, or an escape sequence ({@code ESC [ A} and
     * {@code ESC O A} arrows, {@code ESC [ 5 ~} pages, {@code ESC [ H}/{@code 1~}/{@code 7~} home,
     * {@code ESC [ F}/{@code 4~}/{@code 8~} end); a lone ESC is {@link Key#BACK}, Ctrl-C (when the
     * terminal passes it as a byte) {@link Key#QUIT}.
     */
    public static Key decode(String seq) {
        if (seq.isEmpty()) {
            return Key.NONE;
        }
        if (seq.length() == 1) {
            return switch (seq.charAt(0)) {
                case 'q', 'Q', 3 -> Key.QUIT;
                case 27 -> Key.BACK;
                case 's', 'S' -> Key.SORT;
                case 'd' -> Key.ZOOM_DSO;
                case 't', 'T' -> Key.ZOOM_THREAD;
                case 'a', '\r', '\n' -> Key.ANNOTATE;
                case '+', 'e', 'E' -> Key.EXPAND;
                case 'z' -> Key.RESET;
                case 'h', '?' -> Key.HELP;
                case 'H' -> Key.HOTTEST;
                case '\t' -> Key.NEXT_HOT;
                case 'k' -> Key.UP;
                case 'j' -> Key.DOWN;
                case ' ' -> Key.PAGE_DOWN;
                default -> Key.NONE;
            };
        }
        if (seq.charAt(0) != 27 || seq.length() < 3 || seq.charAt(1) != '[' && seq.charAt(1) != 'O') {
            return Key.NONE;
        }
        return switch (seq.substring(2)) {
            case "A" -> Key.UP;
            case "B" -> Key.DOWN;
            case "H", "1~", "7~" -> Key.HOME;
            case "F", "4~", "8~" -> Key.END;
            case "5~" -> Key.PAGE_UP;
            case "6~" -> Key.PAGE_DOWN;
            case "Z" -> Key.PREV_HOT;
            default -> Key.NONE;
        };
    }

    /** Whether {@code seq}, begun with ESC, is a whole sequence (its last character ends it). */
    public static boolean sequenceDone(String seq) {
        if (seq.length() < 2) {
            return false;
        }
        if (seq.charAt(1) != '[' && seq.charAt(1) != 'O') {
            return true;
        }
        if (seq.length() < 3) {
            return false;
        }
        char c = seq.charAt(seq.length() - 1);
        return c >= 0x40 && c <= 0x7e;
    }
}
