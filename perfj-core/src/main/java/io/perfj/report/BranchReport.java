package io.perfj.report;

import io.perfj.perfdata.FeatureId;
import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.SampleFormat;
import io.perfj.perfdata.Evsel;
import io.perfj.perfdata.record.BranchStack;
import io.perfj.perfdata.record.KernelRecord;
import io.perfj.perfdata.record.PerfRecord;
import io.perfj.perfdata.record.Sample;
import io.perfj.profile.Frame;
import io.perfj.session.FrameResolver;
import io.perfj.session.RecordHandler;
import io.perfj.session.SampleRef;
import io.perfj.session.Session;
import io.perfj.symbols.Dso;
import io.perfj.symbols.Location;
import io.perfj.symbols.Symbol;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * perf report's branch mode ({@code -b}; perf's default for a recording with the BRANCH_STACK
 * feature): every entry of a sample's branch stack counts as one sample of period 1 of its
 * event (perf's {@code hist_iter_branch}), so "Samples" and the event count are numbers of
 * branches. Rows are keyed by the branch sort keys ({@link BranchSortKey}; perf's default
 * {@value BranchSortKey#DEFAULT}), each end of a branch resolved as perf's
 * {@code ip__resolve_ams} does: in the thread's maps, else the kernel's, else nowhere (level
 * {@code H}). Rows are ordered by count, then by the keys as perf's comparisons order them:
 * command ascending, object names descending (no object first), symbols by start (unresolved
 * ends after, by raw address), cycles, in_tx and abort descending, source lines ascending.
 * Callchains are not shown.
 */
public final class BranchReport {
    /**
     * One end of a branch.
     *
     * @param srcline its source line as the srcline_from and srcline_to keys print it (null when
     *                neither is a key)
     */
    record End(Dso dso, Symbol sym, long ip, long addr, char level, String srcline) {
        String dsoName() {
            return dso == null ? "[unknown]" : dso.shortName();
        }

        String symColumn() {
            return "[" + level + "] " + (sym != null ? sym.name() : Frame.hex16(addr));
        }

        /** What perf's symbol comparison tells apart: a symbol's extent, else the raw address. */
        Object symKey() {
            return sym != null ? List.of(sym.start(), sym.end()) : (Object) ip;
        }
    }

    /** One row: the first branch's values, and how many branches share its keys. */
    static final class Row {
        final String comm;
        final End from;
        final End to;
        final long flags;
        final int order;
        long count;

        Row(String comm, End from, End to, long flags, int order) {
            this.comm = comm;
            this.from = from;
            this.to = to;
            this.flags = flags;
            this.order = order;
        }

        int cycles() {
            return (int) ((flags >>> 4) & 0xffff);
        }
    }

    /** One event's rows. */
    static final class Table {
        final Map<List<Object>, Row> rows = new HashMap<>();
        long branches;
        /** Samples with branches (perf 7.2's "Samples" line; perf 6.1 prints the branches there). */
        long samples;
    }

    private final List<BranchSortKey> keys;
    private final ReportQuirks quirks;
    /** perf appends its ipc_lbr key (an IPC column) to a --sort text containing "symbol". */
    private final boolean ipc;
    private final List<Table> tables = new ArrayList<>();
    private List<String> names = List.of();
    private long lostSamples;
    /** The branch ends' source lines, when srcline_from or srcline_to is a key. */
    private SourceLines sources;

    private BranchReport(List<BranchSortKey> keys, ReportQuirks quirks, boolean ipc) {
        this.quirks = quirks;
        this.keys = keys;
        this.ipc = ipc;
    }

    /**
     * Whether perf reports the recording in branch mode by default: it has the BRANCH_STACK
     * feature and no event copies user stacks ({@code --call-graph dwarf} turns it off).
     */
    public static boolean isDefault(PerfData data) {
        if (!data.features().containsKey(FeatureId.BRANCH_STACK)) {
            return false;
        }
        for (Evsel e : data.evlist().evsels()) {
            if ((e.attr().sampleType() & SampleFormat.STACK_USER) != 0) {
                return false;
            }
        }
        return true;
    }

    /** Whether any event of the recording samples branch stacks (what {@code -b} needs). */
    public static boolean hasBranchStacks(PerfData data) {
        for (Evsel e : data.evlist().evsels()) {
            if ((e.attr().sampleType() & SampleFormat.BRANCH_STACK) != 0) {
                return true;
            }
        }
        return data.isPipe();
    }

    /**
     * Reads the session's samples once and counts their branches.
     *
     * @param ipc whether to add perf's ipc_lbr key, which perf appends when the --sort text
     *            contains "symbol": rows are told apart by their target too, and an IPC column
     *            is printed; perfj does not compute its values and prints "-", as perf does for
     *            targets without a symbol
     */
    public static BranchReport build(Session session, List<BranchSortKey> keys, boolean ipc) {
        BranchReport r = new BranchReport(List.copyOf(keys), ReportQuirks.of(session), ipc);
        r.read(session);
        return r;
    }

    private void read(Session session) {
        FrameResolver resolver = session.resolver();
        if (keys.contains(BranchSortKey.SRCLINE_FROM) || keys.contains(BranchSortKey.SRCLINE_TO)) {
            sources = new SourceLines(new io.perfj.annotate.SourceLocator(session.machine().finder(),
                    () -> io.perfj.bpf.RecordedBpf.read(session.data())), true,
                    quirks.srclineNoRowFile(), null, quirks.srclineWithoutTable());
        }
        session.run(new RecordHandler() {
            @Override
            public boolean namesInlinedFrames() {
                return false; // branch entries, no callchain frames
            }

            @Override
            public void sample(SampleRef ref) {
                Sample s = ref.sample();
                BranchStack bs = s.branchStack();
                if (bs == null || bs.size() == 0) {
                    return;
                }
                int ev = s.evsel().index();
                while (tables.size() <= ev) {
                    tables.add(new Table());
                }
                Table t = tables.get(ev);
                t.samples++;
                String comm = resolver.comm(s.pid(), s.tid());
                for (int i = 0; i < bs.size(); i++) {
                    End from = end(resolver, s, bs.from(i));
                    End to = end(resolver, s, bs.to(i));
                    long flags = bs.flags(i);
                    List<Object> key = key(comm, from, to, flags);
                    Row row = t.rows.get(key);
                    if (row == null) {
                        row = new Row(comm, from, to, flags, t.rows.size());
                        t.rows.put(key, row);
                    }
                    row.count++;
                    t.branches++;
                }
            }

            @Override
            public void record(PerfRecord rec) {
                if (rec instanceof KernelRecord.LostSamples ls) {
                    lostSamples += ls.lost();
                }
            }
        });
        names = session.eventNames();
    }

    /**
     * perf's {@code thread__find_cpumode_addr_location}: user maps, then the kernel's; with the
     * source line perf's {@code map__srcline} gives ({@code ??:0} outside any map).
     */
    private End end(FrameResolver resolver, Sample s, long ip) {
        Location loc = resolver.resolve(s.pid(), s.tid(), 2, ip);
        if (loc.map() == null) {
            loc = resolver.resolve(s.pid(), s.tid(), 1, ip);
        }
        if (loc.map() == null) {
            return new End(null, null, ip, ip, 'H', sources == null ? null : "??:0");
        }
        return new End(loc.dso(), loc.symbol(), ip, loc.mapIp(), loc.level(),
                sources == null ? null : sources.text(sources.id(loc)).line());
    }

    private List<Object> key(String comm, End from, End to, long flags) {
        List<Object> k = new ArrayList<>(keys.size());
        for (BranchSortKey sk : keys) {
            k.add(switch (sk) {
                case COMM -> comm;
                case DSO_FROM -> from.dso == null ? "" : "/" + from.dsoName();
                case DSO_TO -> to.dso == null ? "" : "/" + to.dsoName();
                case SYM_FROM -> from.symKey();
                case SYM_TO -> to.symKey();
                case MISPREDICT -> flags & 3;
                case IN_TX -> flags & 4;
                case ABORT -> flags & 8;
                case CYCLES -> (flags >>> 4) & 0xffff;
                case SRCLINE_FROM -> from.srcline;
                case SRCLINE_TO -> to.srcline;
            });
        }
        if (ipc) {
            // ipc_lbr compares the entry's own symbol (perf's sort__sym_cmp), which in branch
            // mode is the branch target's: by raw address without one, else by object and symbol
            k.add(to.sym == null ? (Object) to.ip : List.of(to.dsoName(), to.symKey()));
        }
        return k;
    }

    /** Branches counted for event {@code ev} (its "Samples" and event count). */
    public long branches(int ev) {
        return ev < tables.size() ? tables.get(ev).branches : 0;
    }

    /** Event {@code ev}'s rows in print order, each as its columns' texts and count. */
    List<Row> rows(int ev) {
        List<Row> rows = new ArrayList<>(tables.get(ev).rows.values());
        rows.sort(order());
        return rows;
    }

    private Comparator<Row> order() {
        Comparator<Row> c = Comparator.comparingLong((Row r) -> r.count).reversed();
        for (BranchSortKey k : keys) {
            c = c.thenComparing(switch (k) {
                case COMM -> Comparator.comparing((Row r) -> r.comm);
                case DSO_FROM -> (a, b) -> dsoOrder(a.from, b.from);
                case DSO_TO -> (a, b) -> dsoOrder(a.to, b.to);
                case SYM_FROM -> (a, b) -> symOrder(a.from, b.from);
                case SYM_TO -> (a, b) -> symOrder(a.to, b.to);
                case MISPREDICT -> Comparator.comparingLong((Row r) -> r.flags & 3).reversed();
                case IN_TX -> Comparator.comparingLong((Row r) -> r.flags & 4).reversed();
                case ABORT -> Comparator.comparingLong((Row r) -> r.flags & 8).reversed();
                case CYCLES -> Comparator.comparingInt(Row::cycles).reversed();
                case SRCLINE_FROM -> Comparator.comparing((Row r) -> r.from.srcline);
                case SRCLINE_TO -> Comparator.comparing((Row r) -> r.to.srcline);
            });
        }
        if (ipc) {
            c = c.thenComparing((a, b) -> a.to.sym == null && b.to.sym == null ? Long.compare(a.to.ip, b.to.ip)
                    : dsoOrder(a.to, b.to) != 0 ? dsoOrder(a.to, b.to) : symOrder(a.to, b.to));
        }
        return c.thenComparingInt(r -> r.order);
    }

    /** perf's {@code _sort__dso_cmp} as its output tree orders it: no object first, then names descending. */
    private static int dsoOrder(End a, End b) {
        if (a.dso == null || b.dso == null) {
            return a.dso == null ? (b.dso == null ? 0 : -1) : 1;
        }
        return b.dsoName().compareTo(a.dsoName());
    }

    /** perf's {@code sort__sym_from_cmp}: symbols by start then end, before addresses, which go by value. */
    private static int symOrder(End a, End b) {
        if (a.sym == null && b.sym == null) {
            return Long.compare(a.ip, b.ip);
        }
        if (a.sym == null || b.sym == null) {
            return a.sym == null ? 1 : -1;
        }
        int c = Long.compareUnsigned(a.sym.start(), b.sym.start());
        return c != 0 ? c : Long.compareUnsigned(a.sym.end(), b.sym.end());
    }

    /**
     * Prints the report as perf report --stdio does in branch mode; {@code hint}: with perf's
     * first line pointing to --header. Rows below {@code percentLimit} are left out.
     */
    public void print(PrintWriter out, boolean hint, double percentLimit) {
        if (hint) {
            out.print("# To display the perf.data header info, please use --header/--header-only options.\n");
            out.print("#\n");
        }
        out.print("#\n");
        out.print("# Total Lost Samples: " + lostSamples + "\n");
        out.print("#\n");
        ReportQuirks.BranchFlags sticky = quirks.branchFlags();
        for (int ev = 0; ev < tables.size(); ev++) {
            Table t = tables.get(ev);
            if (t.branches == 0) {
                continue;
            }
            printTable(out, ev, t, percentLimit, sticky);
            out.print("\n\n");
        }
        out.flush();
    }

    private void printTable(PrintWriter out, int ev, Table t, double percentLimit, ReportQuirks.BranchFlags sticky) {
        out.print("# Samples: " + StdioReport.unitNumber(quirks.countsBranchesAsSamples() ? t.branches : t.samples) + " of event '"
                + (ev < names.size() ? names.get(ev) : "") + "'\n");
        out.print("# Event count (approx.): " + t.branches + "\n");
        out.print("#\n");
        List<Row> rows = rows(ev);
        int[] widths = new int[keys.size()];
        for (int i = 0; i < keys.size(); i++) {
            BranchSortKey k = keys.get(i);
            int w = k.header().length();
            for (Row r : rows) {
                w = Math.max(w, width(k, r));
            }
            widths[i] = w;
        }
        StringBuilder hdr = new StringBuilder("# ").append(StdioReport.pad("Overhead", 8, true));
        StringBuilder dots = new StringBuilder("# ").append("........");
        for (int i = 0; i < keys.size(); i++) {
            hdr.append("  ").append(StdioReport.pad(keys.get(i).header(), widths[i], false));
            dots.append("  ").append(".".repeat(widths[i]));
        }
        if (ipc) {
            hdr.append("  ").append(StdioReport.IPC_HEADER);
            dots.append("  ").append(".".repeat(StdioReport.IPC_HEADER.length()));
        }
        out.print(hdr.append('\n'));
        out.print(dots.append('\n'));
        out.print("#\n");
        for (Row r : rows) {
            if (percentLimit > 0 && StdioReport.percent(r.count, t.branches) < percentLimit) {
                continue;
            }
            StringBuilder row = new StringBuilder("  ").append(StdioReport.pad(StdioReport.pct(r.count, t.branches), 8, true));
            for (int i = 0; i < keys.size(); i++) {
                row.append("  ").append(column(keys.get(i), r, widths[i], i == keys.size() - 1 && !ipc, sticky));
            }
            if (ipc) {
                row.append("  ").append(StdioReport.pad("-", StdioReport.IPC_HEADER.length(), false));
            }
            out.print(row.append('\n'));
        }
    }

    /**
     * What a row needs of a column's width (perf's {@code hists__calc_col_len}): an end without
     * a symbol asks 22 for its symbol and 16 for its object, whatever the object's name.
     */
    private static int width(BranchSortKey k, Row r) {
        return switch (k) {
            case COMM -> StdioReport.utf8Length(r.comm);
            case DSO_FROM -> r.from.sym != null ? StdioReport.utf8Length(r.from.dsoName()) : 16;
            case DSO_TO -> r.to.sym != null ? StdioReport.utf8Length(r.to.dsoName()) : 16;
            case SYM_FROM -> r.from.sym != null ? StdioReport.utf8Length(r.from.sym.name()) + 4 : 22;
            case SYM_TO -> r.to.sym != null ? StdioReport.utf8Length(r.to.sym.name()) + 4 : 22;
            case SRCLINE_FROM -> StdioReport.utf8Length(r.from.srcline);
            case SRCLINE_TO -> StdioReport.utf8Length(r.to.srcline);
            default -> 0;
        };
    }

    private static String column(BranchSortKey k, Row r, int w, boolean last, ReportQuirks.BranchFlags sticky) {
        return switch (k) {
            case COMM -> cut(r.comm, w);
            case DSO_FROM -> cut(r.from.dsoName(), w);
            case DSO_TO -> cut(r.to.dsoName(), w);
            // perf's symbol printer does not pad; the column aligner pads all but the last column
            case SYM_FROM -> last ? r.from.symColumn() : StdioReport.pad(r.from.symColumn(), w, false);
            case SYM_TO -> last ? r.to.symColumn() : StdioReport.pad(r.to.symColumn(), w, false);
            // %hd: perf prints the 16-bit count as a signed short
            case CYCLES -> StdioReport.pad(r.cycles() == 0 ? "-" : Short.toString((short) r.cycles()), w, false);
            case MISPREDICT -> cut(sticky != null ? sticky.mispredict((r.flags & 2) != 0, (r.flags & 1) != 0)
                    : (r.flags & 2) != 0 ? "N" : (r.flags & 1) != 0 ? "Y" : "N/A", w);
            case IN_TX -> StdioReport.pad(sticky != null ? sticky.inTx((r.flags & 4) != 0)
                    : (r.flags & 4) != 0 ? "X" : ".", w, false);
            case ABORT -> StdioReport.pad(sticky != null ? sticky.abort((r.flags & 8) != 0)
                    : (r.flags & 8) != 0 ? "A" : ".", w, false);
            case SRCLINE_FROM -> cut(r.from.srcline, w);
            case SRCLINE_TO -> cut(r.to.srcline, w);
        };
    }

    /** C's {@code %-*.*s}: padded and cut to {@code w}. */
    private static String cut(String s, int w) {
        String p = StdioReport.pad(s, w, false);
        return StdioReport.utf8Length(p) > w && p.length() > w ? p.substring(0, w) : p;
    }
}
