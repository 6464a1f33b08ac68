package io.perfj.compat;

import io.perfj.profile.Frame;
import io.perfj.profile.FrameTable;
import io.perfj.report.HistEntry;
import io.perfj.report.ReportOptions;
import io.perfj.report.SortKey;

import java.util.Comparator;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * The order perf 6.1 prints a report's entries in, replayed: its collapse of the input tree and
 * its output sort, both through red-black trees ({@link PerfHistTree}) whose shape decides where
 * entries its comparisons find equal, or cannot order, end up.
 *
 * <p>perf's input tree ({@code hists__findnew_entry}) gets each entry when the first sample
 * creating it is added; {@code hists__collapse_resort}, which runs when a sort key has a collapse
 * function of its own (comm), inserts that tree's entries in order into a new one, merging those
 * that now meet an equal one ({@code hists__collapse_insert_entry}). {@code output_resort} then
 * inserts each entry, in tree order, where {@code hist_entry__sort} sends it
 * ({@code __hists__insert_output_entry}) and the report walks that tree in order.
 *
 * <p>Why the trees, not a sort: rows the output sort finds equal keep the input tree's order, and
 * for rows without a symbol the trees order by {@code _sort__addr_cmp}, the difference of the two
 * ips as a signed 64-bit number, which is no order when addresses lie more than 2^63 apart (a
 * user address against a garbage one from a broken frame chain): where such a row lands depends
 * on the entries the search meets, so on the tree's shape. The output comparison is not always
 * an order either (Children equal in a thread ordered by callchain depth, across threads not).
 *
 * <p>Mirrors: {@code hists__collapse_resort}, {@code hists__collapse_insert_entry},
 * {@code output_resort}, {@code __hists__insert_output_entry}, {@code hist_entry__sort}
 * (tools/perf/util/hist.c) with {@code hpp__sort_acc}, {@code hpp__sort_overhead}
 * (tools/perf/ui/hist.c) and the sort keys' {@code se_sort} functions (tools/perf/util/sort.c).
 */
public final class PerfHistSort {
    private PerfHistSort() {
    }

    /**
     * The entries inserted in order into a tree searched with perf's comparison, each one that
     * meets an equal entry merged into it by {@code merge(into, from)}; the tree (its order is
     * the collapsed order; an event group's rows are matched and added by searching it).
     */
    public static <T> PerfHistTree<T> collapse(List<T> in, PerfHistTree.Cmp<T> cmp, BiConsumer<T, T> merge) {
        PerfHistTree<T> out = new PerfHistTree<>(cmp);
        for (T e : in) {
            T m = out.findOrInsert(e);
            if (m != e) {
                merge.accept(m, e);
            }
        }
        return out;
    }

    /** {@code output_resort}: each entry, in order, into the output tree; the tree's order. */
    public static <T> List<T> outputResort(List<T> in, Comparator<T> order) {
        PerfHistTree<T> out = new PerfHistTree<>((node, e) -> order.compare(e, node));
        for (T e : in) {
            out.insert(e);
        }
        return out.inOrder();
    }

    /**
     * perf's output comparison ({@code hist_entry__sort} over "children, self, sort keys"): by
     * value; with --children, equal Children in the same thread put the caller first when
     * callchains are shown (by the depth of the entries' callchain trees, {@code hpp__sort_acc}),
     * then larger Self first; then by the sort keys, each ascending as perf's sort functions
     * compare them (command, thread id, object name, symbol name, CPU; no object or symbol last);
     * with an explicit --sort naming symbol then by perf's hidden ipc_null key.
     *
     * @param shownKeys          the sort keys perf's output sort looks at (a column elided by a
     *                           one-value filter it skips)
     * @param eventHasCallchains whether the event records callchains (perf asks that, not
     *                           whether an entry has one)
     * @param nrMembers          the size of the event group whose rows these are (1 for an
     *                           event on its own): equal Self then compares the members' Self in
     *                           group order ({@code __hpp__sort}; Children has no such step)
     */
    public static Comparator<HistEntry> outputOrder(ReportOptions opts, List<SortKey> shownKeys,
                                                    boolean eventHasCallchains, FrameTable frames, int nrMembers) {
        Comparator<HistEntry> c;
        if (opts.children()) {
            c = Comparator.comparingLong(HistEntry::accPeriod).reversed();
            if (opts.mode() != io.perfj.report.CallchainMode.NONE) {
                c = c.thenComparing((a, b) -> callerFirst(a, b, opts, eventHasCallchains));
            }
            c = c.thenComparing(Comparator.comparingLong(HistEntry::selfPeriod).reversed());
        } else {
            c = Comparator.comparingLong(HistEntry::selfPeriod).reversed();
        }
        for (int i = 1; i < nrMembers; i++) {
            int idx = i;
            c = c.thenComparing((a, b) -> Long.compare(pairSelf(b, idx), pairSelf(a, idx)));
        }
        boolean verbose = opts.view() != null && opts.view().verbose();
        c = c.thenComparing((a, b) -> keyOrder(a, b, shownKeys, frames, verbose));
        if (opts.symbolIpc()) {
            // perf report appends "ipc_null" to a --sort naming symbol (the IPC columns); its
            // output comparison is sort__sym_cmp itself: rows without a symbol by ip, others by
            // object (without a dso key), start and end.
            PerfHistCmp cmp = new PerfHistCmp(frames, opts);
            c = c.thenComparing((a, b) -> a.frame() < 0 || b.frame() < 0 ? 0
                    : -Long.signum(cmp.symCmp(frames.get(a.frame()), frames.get(b.frame()))));
        }
        return c;
    }

    /**
     * perf's output comparison with a strict -F list ({@code hist_entry__sort} over the --sort
     * keys, then the fields): each value larger first ({@code hpp__sort_overhead}, ...; Children
     * as {@code hpp__sort_acc}, equal Overhead by the group members'), each key as
     * {@link #outputOrder} compares it.
     */
    public static Comparator<HistEntry> fieldOrder(ReportOptions opts, List<io.perfj.report.ReportFields.Field> order,
                                                   boolean eventHasCallchains, FrameTable frames, int nrMembers) {
        Comparator<HistEntry> c = (a, b) -> 0;
        boolean verbose = opts.view() != null && opts.view().verbose();
        for (io.perfj.report.ReportFields.Field f : order) {
            if (f.key() != null) {
                List<SortKey> key = List.of(f.key());
                c = c.thenComparing((a, b) -> keyOrder(a, b, key, frames, verbose));
                continue;
            }
            c = switch (f.value()) {
                case OVERHEAD, PERIOD -> c.thenComparing(Comparator.comparingLong(HistEntry::selfPeriod).reversed());
                case OVERHEAD_SYS -> c.thenComparing(Comparator.comparingLong(HistEntry::sysPeriod).reversed());
                case OVERHEAD_US -> c.thenComparing(Comparator.comparingLong(HistEntry::usPeriod).reversed());
                case SAMPLE -> c.thenComparing(Comparator.comparingLong(HistEntry::selfSamples).reversed());
                case OVERHEAD_CHILDREN -> {
                    Comparator<HistEntry> acc = c.thenComparing(Comparator.comparingLong(HistEntry::accPeriod).reversed());
                    yield opts.children() && opts.mode() != io.perfj.report.CallchainMode.NONE
                            ? acc.thenComparing((a, b) -> callerFirst(a, b, opts, eventHasCallchains)) : acc;
                }
            };
            if (f.value() == io.perfj.report.ReportFields.Value.OVERHEAD) {
                for (int i = 1; i < nrMembers; i++) {
                    int idx = i;
                    c = c.thenComparing((a, b) -> Long.compare(pairSelf(b, idx), pairSelf(a, idx)));
                }
            }
        }
        return c;
    }

    private static long pairSelf(HistEntry e, int idx) {
        HistEntry p = e.pair(idx);
        return p == null ? 0 : p.selfPeriod();
    }

    private static int callerFirst(HistEntry a, HistEntry b, ReportOptions opts, boolean eventHasCallchains) {
        // an entry of samples without a chain has depth 0 and goes after its callers
        if (a.tid() != b.tid() || a.pid() != b.pid() || !eventHasCallchains) {
            return 0;
        }
        return opts.callerOrder() ? Integer.compare(b.maxDepth(), a.maxDepth())
                : Integer.compare(a.maxDepth(), b.maxDepth());
    }

    private static int keyOrder(HistEntry a, HistEntry b, List<SortKey> keys, FrameTable frames, boolean verbose) {
        Frame fa = a.frame() >= 0 ? frames.get(a.frame()) : null;
        Frame fb = b.frame() >= 0 ? frames.get(b.frame()) : null;
        for (SortKey k : keys) {
            int c = switch (k) {
                case COMM -> a.comm().compareTo(b.comm());
                case PID, TID -> Integer.compare(a.tid(), b.tid());
                case CPU -> Integer.compare(a.cpu(), b.cpu());
                // -v: perf names objects by their long names
                case DSO -> nullsLast(fa == null || fa.dso() == null ? null : verbose ? fa.dso().longName() : fa.dso().shortName(),
                        fb == null || fb.dso() == null ? null : verbose ? fb.dso().longName() : fb.dso().shortName());
                case SYM -> nullsLast(fa == null || fa.sym() == null ? null : fa.sym().name(),
                        fb == null || fb.sym() == null ? null : fb.sym().name());
                case TRACE -> io.perfj.report.Hists.traceOrder(a.trace(), b.trace());
                case TRACE_FIELDS -> io.perfj.report.TraceFieldsColumns.order(a.traceFields(), b.traceFields());
                case SRCLINE -> a.srcline().compareTo(b.srcline());
                case SRCFILE -> a.srcfile().compareTo(b.srcfile());
                // no se_sort: sort__parent_cmp itself, whose missing parent goes after the others
                case PARENT -> io.perfj.report.Hists.parentOrder(a.parent(), b.parent());
            };
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    private static int nullsLast(String a, String b) {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : 1) : -1;
        }
        return a.compareTo(b);
    }
}
