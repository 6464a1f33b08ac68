package io.perfj.report;

import io.perfj.profile.Frame;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;

/**
 * Prints a {@link Report} in the layout of {@code perf report --stdio} (perf 6.1): the preamble,
 * per event the sample and event-count lines, the column header with its dotted line, one row
 * per entry with perf's percentage format and column widths, and the callchain graph, flat,
 * fractal or folded view under each row. perf's closing random tip is not printed.
 */
public final class StdioReport {
    private static final String MARGIN = "            ";
    static final String IPC_HEADER = "IPC   [IPC Coverage]";
    private static final String IPC_VALUE = "-      -            ";

    private final Report report;
    private final PrintWriter out;
    /** {@code -q}: the comment lines are not printed. */
    private final PrintWriter comments;
    private final ReportView view;
    /**
     * What a column header or a callchain name prints as: itself, or under --compat perf-6.1
     * cut as perf's fixed buffers cut it ({@link ReportQuirks#stdioText()}).
     */
    private final UnaryOperator<String> buffer;

    public StdioReport(Report report, PrintWriter out) {
        this.report = report;
        this.out = out;
        ReportView v = report.options().view();
        this.view = v == null ? ReportView.DEFAULT : v;
        this.buffer = report.quirks().stdioText();
        this.comments = view.quiet() ? new PrintWriter(java.io.Writer.nullWriter()) : out;
    }

    /** perf names the --time window after the sample count. */
    private static String timeSlices(ReportOptions o) {
        return o.select() == null || o.select().time() == null ? "" : " (time slices: " + o.select().time().text() + ")";
    }

    /** The period the rows' percentages are of: all samples', or (--percentage relative) the kept rows'. */
    private long total(Hists h) {
        return view.relative() ? h.rowsPeriod() : h.totalPeriod();
    }

    /** The period callchain percentages are of: all samples', or (--percentage relative) the kept ones'. */
    private long chainTotal(Hists h) {
        return view.relative() ? h.keptPeriod() : h.totalPeriod();
    }

    public boolean print() {
        return print(true);
    }

    /**
     * The callchain tree this report prints under entry {@code e} of one of its events (the
     * lines {@link #print} writes after the entry's line; none without callchains).
     */
    public static List<String> callchainLines(Report report, HistEntry e) {
        java.io.StringWriter w = new java.io.StringWriter();
        PrintWriter out = new PrintWriter(w);
        StdioReport s = new StdioReport(report, out);
        for (Hists h : report.hists()) {
            if (h.entries().contains(e)) {
                s.printChains(h, e, report.options());
                break;
            }
        }
        out.flush();
        return w.toString().lines().toList();
    }

    /**
     * Prints the report; {@code hint}: with perf's first line pointing to --header (perf leaves
     * it out after printing the header itself). Returns false, having printed only those first
     * lines, when no sample made an entry at all (perf's "data has no samples" error, which is
     * the caller's to print).
     */
    public boolean print(boolean hint) {
        ReportOptions o = report.options();
        if (hint) {
            comments.print("# To display the perf.data header info, please use --header/--header-only options.\n");
            comments.print("#\n");
        }
        // perf prints these as it sets up its columns, before reading anything, -q or not
        for (SortKey k : o.sortKeys()) {
            String only = onlyValue(o, k);
            if (only != null) {
                out.print("# " + elideName(k) + ": " + only + "\n");
            }
        }
        if (!hasSamples()) {
            out.flush();
            return false;
        }
        comments.print("#\n");
        comments.print("# Total Lost Samples: " + report.lostSamples() + "\n");
        comments.print("#\n");
        for (Hists h : report.shownHists()) {
            if (h.totalSamples() == 0) {
                continue;
            }
            printHists(h, o);
            out.print("\n\n");
        }
        out.flush();
        return true;
    }

    /** Whether any sample was counted (those the filters hide too; not those -C or --time drop). */
    private boolean hasSamples() {
        for (Hists h : report.hists()) {
            if (h.totalSamples() > 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * The one value a filter allows for a sort key's column ({@code --comms}, {@code --dsos},
     * {@code --symbols} with a single entry), or null. perf leaves such a column out and names
     * the value in the preamble instead ({@code sort__setup_elide}).
     */
    static String onlyValue(ReportOptions o, SortKey k) {
        java.util.Set<String> list = switch (k) {
            case COMM -> o.comms();
            case DSO -> o.dsos();
            case SYM -> o.symbols();
            default -> null;
        };
        return list != null && list.size() == 1 ? list.iterator().next() : null;
    }

    private static String elideName(SortKey k) {
        return switch (k) {
            case COMM -> "comm";
            case DSO -> "dso";
            default -> "symbol";
        };
    }

    /** The sort keys shown as columns: all but the elided ones, or all when every one would be. */
    static List<SortKey> shownKeys(ReportOptions o) {
        List<SortKey> keys = new ArrayList<>();
        for (SortKey k : o.sortKeys()) {
            if (onlyValue(o, k) == null) {
                keys.add(k);
            }
        }
        return keys.isEmpty() ? o.sortKeys() : keys;
    }

    /** perf's convert_unit: divided by 1000 while above 1000 (1000 samples print as {@code 1000 }, 1001 as {@code 1K}). */
    static String unitNumber(long n) {
        char[] units = {' ', 'K', 'M', 'G'};
        int i = 0;
        while (n > 1000 && i < units.length - 1) {
            n /= 1000;
            i++;
        }
        return n + String.valueOf(units[i]).stripTrailing() + (i == 0 ? " " : "");
    }

    /** The event and its group's members (in the group view), whose columns a row shows side by side. */
    private static List<Hists> group(Hists h) {
        List<Hists> g = new ArrayList<>();
        g.add(h);
        g.addAll(h.members());
        return g;
    }

    /**
     * perf's sample and event-count lines: for a group the sums over its events ("Samples: 388
     * of events 'anon group { a, b }'"), "events" for any leader of a recorded group.
     */
    private void printCounts(Hists h, List<Hists> group, ReportOptions o) {
        long samples = 0;
        long period = 0;
        for (Hists m : group) {
            samples += view.relative() ? m.keptSamples() : m.totalSamples();
            period += total(m);
        }
        comments.print("# Samples: " + unitNumber(samples) + " of event" + (h.recordedMembers() > 1 ? "s" : "")
                + " '" + h.label() + "'" + timeSlices(o) + "\n");
        comments.print("# Event count (approx.): " + Long.toUnsignedString(period) + "\n");
        comments.print("#\n");
    }

    /** One value column per event of the group, each {@code width} wide, after perf's "  " separator. */
    private static void appendValues(StringBuilder row, HistEntry e, List<Hists> group, int width,
                                     java.util.function.BiFunction<HistEntry, Hists, String> value) {
        row.append("  ");
        for (int i = 0; i < group.size(); i++) {
            HistEntry m = i == 0 ? e : e.pair(i);
            row.append(pad(value.apply(m, group.get(i)), width, true));
        }
    }

    /**
     * One column: a value of each event of the group ({@code value}), or a sort key's
     * ({@code key}; trace_fields makes one per field, {@code field}).
     */
    private record Column(String header, int width, boolean right, ReportFields.Value value, SortKey key, int field) {
    }

    /** The columns perf prints by default: Children and Self, or Overhead; -n's and --show-total-period's. */
    private List<ReportFields.Field> defaultColumns(ReportOptions o) {
        List<ReportFields.Field> cols = new ArrayList<>();
        if (o.children()) {
            cols.add(new ReportFields.Field(ReportFields.Value.OVERHEAD_CHILDREN, null, "Children"));
            cols.add(new ReportFields.Field(ReportFields.Value.OVERHEAD, null, "Self"));
        } else {
            cols.add(new ReportFields.Field(ReportFields.Value.OVERHEAD, null, "Overhead"));
        }
        if (view.samples()) {
            cols.add(new ReportFields.Field(ReportFields.Value.SAMPLE, null, "Samples"));
        }
        if (view.period()) {
            cols.add(new ReportFields.Field(ReportFields.Value.PERIOD, null, "Period"));
        }
        for (SortKey k : shownKeys(o)) {
            cols.add(new ReportFields.Field(null, k, k.header()));
        }
        return cols;
    }

    /** The fields' columns with their widths (a value's per event of the group, a key's from the rows). */
    private List<Column> columns(Hists h, ReportOptions o, int n) {
        List<ReportFields.Field> fields = view.fields() != null ? view.fields().columns() : defaultColumns(o);
        List<io.perfj.trace.FormatField> traceFields = o.has(SortKey.TRACE_FIELDS) ? h.traceFields() : List.of();
        List<Column> cols = new ArrayList<>();
        for (ReportFields.Field fd : fields) {
            SortKey k = fd.key();
            if (k == null) {
                cols.add(new Column(fd.header(), fd.value().width() * n, true, fd.value(), null, -1));
                continue;
            }
            if (view.fields() != null && onlyValue(o, k) != null && shownKeys(o).size() < o.sortKeys().size()) {
                continue;
            }
            if (k == SortKey.TRACE_FIELDS) {
                // a right-aligned column per field, as wide as its name, its size and its texts
                for (int f = 0; f < traceFields.size(); f++) {
                    int w = TraceFieldsColumns.minWidth(traceFields.get(f));
                    for (HistEntry e : h.entries()) {
                        if (h.traceFieldFromText(e, f)) {
                            w = Math.max(w, utf8Length(h.traceField(e, f)));
                        }
                    }
                    cols.add(new Column(traceFields.get(f).name(), w, true, null, k, f));
                }
                continue;
            }
            int w = k.header().length();
            // perf's cpu column keeps its header's width whatever it prints (-001, 1000); its
            // command column is as wide as the entries' threads' last names, and cuts a longer
            // command to that (a sample before an exec: "perf-ex" of a thread now "sleep")
            // the trace column is as wide as the texts perf had formatted when it sized it
            boolean fixed = k == SortKey.CPU || k == SortKey.TRACE && !h.traceCompared();
            for (HistEntry e : fixed ? List.<HistEntry>of() : h.sizingEntries()) {
                w = Math.max(w, k == SortKey.COMM ? utf8Length(h.threadComm(e))
                        : utf8Length(h.column(e, k)) - inlinedSuffix(h, e, k) - unresolvedVerbose(h, e, k));
                if (k == SortKey.DSO && o.dsos() == null && e.frame() >= 0 && h.frames().get(e.frame()).sym() == null) {
                    // perf's hists__set_unres_dso_col_len: an entry without a symbol widens the
                    // object column to an address's 16 digits
                    w = Math.max(w, 16);
                }
            }
            cols.add(new Column(k.header(), w, false, null, k, -1));
        }
        return cols;
    }

    /** A value column's text for one event's row ({@code m} null: the event has no such row). */
    private String value(ReportFields.Value v, HistEntry m, Hists mh, ReportOptions o) {
        return switch (v) {
            case OVERHEAD_CHILDREN -> o.children() ? pct(m == null ? 0 : m.accPeriod(), total(mh)) : "N/A";
            case OVERHEAD -> pct(m == null ? 0 : m.selfPeriod(), total(mh));
            case OVERHEAD_SYS -> pct(m == null ? 0 : m.sysPeriod(), total(mh));
            case OVERHEAD_US -> pct(m == null ? 0 : m.usPeriod(), total(mh));
            case SAMPLE -> Long.toString(m == null ? 0 : m.selfSamples());
            case PERIOD -> Long.toUnsignedString(m == null ? 0 : m.selfPeriod());
        };
    }

    private void printHists(Hists h, ReportOptions o) {
        long total = total(h);
        List<Hists> group = group(h);
        int n = group.size();
        printCounts(h, group, o);
        List<HistEntry> shown = new ArrayList<>();
        for (HistEntry e : h.entries()) {
            if (percent(o.children() ? e.accPeriod() : e.selfPeriod(), total) >= o.percentLimit()
                    || o.percentLimit() <= 0) {
                shown.add(e);
            }
        }
        List<Column> cols = columns(h, o, n);
        boolean ipc = o.symbolIpc();
        if (view.hierarchy()) {
            // perf's default columns (--hierarchy takes no -F): the values, then the sort keys
            List<SortKey> keys = shownKeys(o);
            int nv = cols.size() - keys.size();
            List<Integer> ws = cols.stream().map(Column::width).toList();
            new Hierarchy(h, keys, ipc, cols.subList(0, nv).stream().map(Column::header).toList(),
                    ws.subList(0, nv), ws.subList(nv, ws.size()))
                    .print(h.entriesBeforeSymbolFilter(), o);
            return;
        }
        StringBuilder hdr = new StringBuilder("# ");
        StringBuilder dots = new StringBuilder("# ");
        for (int i = 0; i < cols.size(); i++) {
            if (i > 0) {
                hdr.append("  ");
                dots.append("  ");
            }
            hdr.append(buffer.apply(pad(cols.get(i).header(), cols.get(i).width(), cols.get(i).right())));
            dots.append(".".repeat(cols.get(i).width()));
        }
        if (ipc) {
            hdr.append("  ").append(buffer.apply(IPC_HEADER));
            dots.append("  ").append(".".repeat(IPC_HEADER.length()));
        }
        comments.print(hdr.append('\n'));
        comments.print(dots.append('\n'));
        comments.print("#\n");
        for (HistEntry e : shown) {
            StringBuilder row = new StringBuilder();
            for (int i = 0; i < cols.size(); i++) {
                Column c = cols.get(i);
                SortKey k = c.key();
                if (k == null) {
                    appendValues(row, e, group, c.width() / n, (m, mh) -> value(c.value(), m, mh, o));
                } else if (k == SortKey.TRACE_FIELDS) {
                    row.append("  ").append(pad(cut(h.traceField(e, c.field()), c.width()), c.width(), true));
                } else {
                    boolean last = i == cols.size() - 1 && !ipc;
                    // perf pads every column to its width except a symbol, a trace or a source
                    // position in the last column (their printers leave padding to the column
                    // aligner, which skips the last).
                    String v = h.column(e, k);
                    if (k == SortKey.COMM || k == SortKey.TRACE) {
                        v = cut(v, c.width());
                    }
                    row.append("  ").append((k == SortKey.SYM || k == SortKey.TRACE || k.source()) && last ? v
                            : pad(v, c.width(), false));
                }
            }
            if (ipc) {
                row.append("  ").append(IPC_VALUE);
            }
            out.print(row.append('\n'));
            if (o.mode() != CallchainMode.NONE && e.chains() != null) {
                printChains(h, e, o);
            }
        }
    }

    /**
     * perf's {@code --hierarchy} layout: a row per value of the first sort key, under it a row
     * per value of the second among its rows, and so on ({@link #INDENT} more columns a
     * level), the last level's rows with their callchains; perf's IPC key, when it has one, is
     * the last level. The value columns come first on every row; the sort keys' headers are one
     * header joined by " / ".
     */
    private final class Hierarchy {
        static final int INDENT = 3;
        private final Hists h;
        private final List<SortKey> keys;
        private final boolean ipc;
        private final List<String> valueHeaders;
        private final List<Integer> valueWidths;
        private final List<Integer> keyWidths;
        /** perf's nr_hpp_node: the value columns' node and one per level. */
        private final int nodes;

        Hierarchy(Hists h, List<SortKey> keys, boolean ipc, List<String> valueHeaders, List<Integer> valueWidths,
                  List<Integer> keyWidths) {
            this.h = h;
            this.keys = keys;
            this.ipc = ipc;
            this.valueHeaders = valueHeaders;
            this.valueWidths = valueWidths;
            this.keyWidths = keyWidths;
            this.nodes = 1 + keys.size() + (ipc ? 1 : 0);
        }

        /** The rows of one level under one parent: the entries they sum, in output order. */
        private final class Node {
            final List<HistEntry> entries = new ArrayList<>();
            long period;
            List<Node> children = List.of();
        }

        void print(List<HistEntry> all, ReportOptions o) {
            printHeader();
            for (Node n : level(all, 0)) {
                printNode(n, 0, o);
            }
        }

        private void printHeader() {
            String indent = nodes < 2 ? "" : " ".repeat((nodes - 2) * INDENT);
            StringBuilder hdr = new StringBuilder("# ").append(indent);
            StringBuilder dots = new StringBuilder("# ").append(".".repeat(indent.length()));
            for (int i = 0; i < valueHeaders.size(); i++) {
                hdr.append(pad(valueHeaders.get(i), valueWidths.get(i), true)).append("  ");
                dots.append(i > 0 ? ".." : "").append(".".repeat(valueWidths.get(i)));
            }
            List<String> names = new ArrayList<>();
            int width = 0;
            for (int d = 0; d < levels(); d++) {
                names.add(d < keys.size() ? keys.get(d).header().strip() : IPC_HEADER);
                width = Math.max(width, d * INDENT + levelWidth(d));
            }
            String joined = String.join(" / ", names);
            hdr.append(joined);
            dots.append("  ").append(".".repeat(Math.max(width, utf8Length(joined))));
            comments.print(hdr.append('\n'));
            comments.print(dots.append('\n'));
            comments.print("#\n");
        }

        private int levels() {
            return keys.size() + (ipc ? 1 : 0);
        }

        private int levelWidth(int d) {
            return d < keys.size() ? keyWidths.get(d) : IPC_HEADER.length();
        }

        /** The rows of level {@code d} over these entries: larger period first, then perf's key order. */
        private List<Node> level(List<HistEntry> entries, int d) {
            java.util.Map<Object, Node> byValue = new java.util.LinkedHashMap<>();
            for (HistEntry e : entries) {
                Node n = byValue.computeIfAbsent(d < keys.size() ? h.keyValue(e, keys.get(d)) : "", v -> new Node());
                n.entries.add(e);
                n.period += e.selfPeriod();
            }
            List<Node> out = new ArrayList<>(byValue.values());
            out.sort((a, b) -> a.period != b.period ? Long.compare(b.period, a.period)
                    : h.keyOrder(a.entries.getFirst(), b.entries.getFirst()));
            if (d + 1 < levels()) {
                for (Node n : out) {
                    n.children = level(n.entries, d + 1);
                }
            }
            return out;
        }

        /** The period (or samples) of a row's entries in event {@code i} of the group (0: this event). */
        private static long sum(Node n, int i, boolean samples) {
            long v = 0;
            for (HistEntry e : n.entries) {
                HistEntry m = i == 0 ? e : e.pair(i);
                v += m == null ? 0 : samples ? m.selfSamples() : m.selfPeriod();
            }
            return v;
        }

        /**
         * Whether a row is shown: perf's --percent-limit hides a row (and so the smaller rows
         * under it), --symbol-filter the rows {@link Hists#hidesLevel} says.
         */
        private boolean shown(Node n, int d, ReportOptions o) {
            return (o.percentLimit() <= 0 || percent(n.period, total(h)) >= o.percentLimit())
                    && !h.hidesLevel(n.entries, Math.min(d, keys.size() - 1));
        }

        /** The row (when shown), then the rows under it, each shown or not on its own. */
        private void printNode(Node n, int d, ReportOptions o) {
            if (shown(n, d, o)) {
                printRow(n, d, o);
            }
            for (Node child : n.children) {
                printNode(child, d + 1, o);
            }
        }

        private void printRow(Node n, int d, ReportOptions o) {
            HistEntry first = n.entries.getFirst();
            StringBuilder row = new StringBuilder(" ".repeat(d * INDENT));
            // a value per event of the group, each as wide as one event's column
            List<Hists> events = group(h);
            row.append("  ");
            for (int i = 0; i < events.size(); i++) {
                row.append(pad(pct(sum(n, i, false), total(events.get(i))), 8, true));
            }
            if (view.samples()) {
                row.append("  ");
                for (int i = 0; i < events.size(); i++) {
                    row.append(pad(Long.toString(sum(n, i, true)), 12, true));
                }
            }
            if (view.period()) {
                row.append("  ");
                for (int i = 0; i < events.size(); i++) {
                    row.append(pad(Long.toUnsignedString(sum(n, i, false)), 12, true));
                }
            }
            row.append(" ".repeat(Math.max(0, nodes - 2) * INDENT)).append("  ");
            String v;
            if (d < keys.size()) {
                SortKey k = keys.get(d);
                v = h.column(first, k);
                if (k == SortKey.COMM || k == SortKey.TRACE) {
                    v = cut(v, keyWidths.get(d));
                }
                // perf left-trims each level's text; a symbol is not padded
                v = k == SortKey.SYM || k == SortKey.TRACE ? v : pad(v, keyWidths.get(d), false);
                v = v.stripLeading();
            } else {
                v = IPC_VALUE;
            }
            out.print(row.append(v).append('\n'));
            if (d + 1 == levels()) {
                if (o.mode() != CallchainMode.NONE && first.chains() != null) {
                    printChains(h, first, o);
                }
                return;
            }
            if (n.children.stream().noneMatch(c -> shown(c, d + 1, o))) {
                // where a row under it would print its value
                int values = 2 * (valueWidths.size() - 1);
                for (int w : valueWidths) {
                    values += w;
                }
                out.print(" ".repeat((nodes + d - 1) * INDENT + values + 4) + "no entry >= " + fixed2(o.percentLimit())
                        + "%\n");
            }
        }
    }

    static double percent(long v, long total) {
        return total == 0 ? 0 : v * 100.0 / total;
    }

    static String pct(long v, long total) {
        return fixed2(percent(v, total)) + "%";
    }

    /**
     * C's {@code %.2f}: the double's exact binary value rounded, a tie (only possible when the
     * value has at most three decimals, e.g. 3.125) to even, where Java's formatter rounds it up.
     */
    static String fixed2(double d) {
        if (d >= 0 && d < 1e12) {
            // away from a half hundredth, rounding d * 100 gives the rounding of d's exact value
            double h = d * 100;
            double f = h - Math.floor(h);
            if (Math.abs(f - 0.5) > 1e-6) {
                long n = (long) Math.floor(h + 0.5);
                long frac = n % 100;
                return (n / 100) + (frac < 10 ? ".0" : ".") + frac;
            }
        }
        // near a half hundredth: C rounds d's exact binary value, ties to even (32.065 is
        // 32.06499999999999772626324556767940521240234375, printed 32.06; Java's %.2f rounds the
        // shortest decimal, 32.065, up)
        if (d >= 0 && Double.isFinite(d)) {
            return new java.math.BigDecimal(d).setScale(2, java.math.RoundingMode.HALF_EVEN).toPlainString();
        }
        return String.format(Locale.ROOT, "%.2f", d);
    }

    /**
     * perf sizes the symbol column by the symbol's name alone and then prints " (inlined)" after
     * an inlined one, past the column: the length of that suffix when it is there.
     */
    private static int inlinedSuffix(Hists h, HistEntry e, SortKey k) {
        if (k != SortKey.SYM || e.frame() < 0) {
            return 0;
        }
        Frame f = h.frames().get(e.frame());
        return f.sym() != null && f.sym().inlined() ? " (inlined)".length() : 0;
    }

    /**
     * perf sizes the symbol column of an address without a symbol as if {@code -v} printed
     * nothing before it: the length of what it prints there then.
     */
    private int unresolvedVerbose(Hists h, HistEntry e, SortKey k) {
        return k == SortKey.SYM && view.verbose() && e.frame() >= 0 && h.frames().get(e.frame()).sym() == null
                ? Hists.VERBOSE_PREFIX : 0;
    }

    /**
     * Pads to {@code w} the way perf's printf does: widths count UTF-8 bytes, so names with
     * non-ASCII characters (Rust v0 punycode identifiers) get less padding than they look.
     */
    static String pad(String s, int w, boolean right) {
        int len = utf8Length(s);
        if (len >= w) {
            return s;
        }
        String sp = " ".repeat(w - len);
        return right ? sp + s : s + sp;
    }

    /** C's {@code %.*s}: at most {@code w} bytes of UTF-8 (a character that does not fit whole is left out). */
    static String cut(String s, int w) {
        if (utf8Length(s) <= w) {
            return s;
        }
        int end = 0;
        int len = 0;
        while (end < s.length()) {
            int cp = s.codePointAt(end);
            int n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
            if (len + n > w) {
                break;
            }
            len += n;
            end += Character.charCount(cp);
        }
        return s.substring(0, end);
    }

    static int utf8Length(String s) {
        int n = s.length();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                // 2 bytes below U+0800, else 3; a surrogate pair (2 chars) makes 4
                n += c < 0x800 ? 1 : Character.isSurrogate(c) ? 1 : 2;
            }
        }
        return n;
    }

    private void printChains(Hists h, HistEntry e, ReportOptions o) {
        long total = chainTotal(h);
        long parent = o.children() ? e.accPeriod() : e.selfPeriod();
        // perf's threshold is a share of the period percentages are of, including the samples
        // the filters hide (absolute): an entry below it prints no callchain at all
        long minHit = (long) (total * (o.threshold() / 100.0));
        CallchainGraph g = new CallchainGraph(h.frames(), o, minHit, buffer, out);
        switch (o.mode()) {
            case GRAPH -> g.graph(e.chains(), total, parent, false, skipFirst(o));
            case FRACTAL -> g.graph(e.chains(), total, parent, true, skipFirst(o));
            case FLAT -> g.flat(e.chains(), total);
            case FOLDED -> g.folded(e.chains(), total);
            default -> {
            }
        }
    }

    /** perf leaves out the first chain entry when the sort order starts with the symbol (not with -F). */
    private static boolean skipFirst(ReportOptions o) {
        return (o.view() == null || o.view().fields() == null) && o.sortKeys().getFirst() == SortKey.SYM;
    }
}
