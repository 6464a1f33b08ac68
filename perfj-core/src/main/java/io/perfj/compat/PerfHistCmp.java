package io.perfj.compat;

import io.perfj.profile.Frame;
import io.perfj.profile.FrameTable;
import io.perfj.report.HistEntry;
import io.perfj.report.ReportOptions;
import io.perfj.report.SortKey;
import io.perfj.symbols.Symbol;

/**
 * perf 6.1's comparison of two hist entries by the report's sort keys, the order its entry trees
 * ({@link PerfHistTree}) are searched and sorted with. It is not a total order: without symbols
 * addresses compare by their signed 64-bit difference, two objects of the same short name are
 * equal, and an inlined symbol equals any symbol of its name whose range overlaps its own.
 *
 * <p>Mirrors: {@code hist_entry__cmp} (tools/perf/util/hist.c), {@code sort__comm_cmp},
 * {@code sort__thread_cmp}, {@code sort__cpu_cmp}, {@code sort__dso_cmp} with
 * {@code _sort__dso_cmp}, {@code sort__sym_cmp} with {@code _sort__sym_cmp} and
 * {@code _sort__addr_cmp} (tools/perf/util/sort.c).
 */
public final class PerfHistCmp implements PerfHistTree.Cmp<HistEntry> {
    private final FrameTable frames;

    /** The sort keys, and whether one is the object: read at every comparison, so kept flat. */
    private final SortKey[] keys;
    private final boolean dsoKey;

    public PerfHistCmp(FrameTable frames, ReportOptions opts) {
        this.frames = frames;
        this.keys = opts.sortKeys().toArray(SortKey[]::new);
        this.dsoKey = opts.has(SortKey.DSO);
        this.verbose = opts.view() != null && opts.view().verbose();
    }

    /** {@code -v}: perf names objects, and so compares them, by their long names. */
    private final boolean verbose;

    /** {@code hist_entry__cmp}: the sort keys' comparisons in order, the first non-zero. */
    @Override
    public long cmp(HistEntry l, HistEntry r) {
        Frame fl = frames.get(l.frame());
        Frame fr = frames.get(r.frame());
        // frames are interned: the same frame compares equal under every key (most comparisons)
        boolean same = fl == fr;
        for (SortKey k : keys) {
            long c = switch (k) {
                case COMM -> l.comm() == r.comm() ? 0 : r.comm().compareTo(l.comm());
                case PID, TID -> r.tid() - l.tid();
                case CPU -> r.cpu() - l.cpu();
                case DSO -> same ? 0 : dsoCmp(fl, fr);
                case SYM -> same ? 0 : symCmp(fl, fr);
                // sort__trace_cmp: strcmp of right's text against left's; no text (not a
                // tracepoint) compares equal
                case TRACE -> io.perfj.report.Hists.traceOrder(r.trace(), l.trace());
                // the dynamic keys' memcmp of left's field bytes against right's
                case TRACE_FIELDS -> io.perfj.report.TraceFieldsColumns.order(r.traceFields(), l.traceFields());
                // sort__srcline_collapse, sort__srcfile_collapse: strcmp of right's text against left's
                case SRCLINE -> r.srcline().compareTo(l.srcline());
                case SRCFILE -> r.srcfile().compareTo(l.srcfile());
                // sort__parent_cmp: strcmp of right's name against left's; no parent first
                case PARENT -> l.parent() == null || r.parent() == null
                        ? (l.parent() == null ? (r.parent() == null ? 0 : -1) : 1)
                        : r.parent().compareTo(l.parent());
            };
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    /**
     * {@code sort__dso_cmp}, which hands its entries to {@code _sort__dso_cmp} the other way
     * round: by short name (long name with -v), right against left; without a DSO, left's
     * absence first.
     */
    private long dsoCmp(Frame l, Frame r) {
        if (l.dso() == r.dso()) {
            return 0;
        }
        if (l.dso() == null || r.dso() == null) {
            return l.dso() == null ? (r.dso() == null ? 0 : -1) : 1;
        }
        return verbose ? r.dso().longName().compareTo(l.dso().longName())
                : r.dso().shortName().compareTo(l.dso().shortName());
    }

    /**
     * {@code sort__sym_cmp}: without symbols by address; an inlined symbol against any other by
     * name first, equal when the names are and the ranges overlap; otherwise by start, then end.
     */
    public long symCmp(Frame l, Frame r) {
        Symbol sl = l.sym();
        Symbol sr = r.sym();
        if (sl == null && sr == null) {
            return r.addr() - l.addr();
        }
        if (!dsoKey) {
            long c = dsoCmp(l, r);
            if (c != 0) {
                return c;
            }
        }
        if (sl == null || sr == null) {
            return sl == null ? -1 : 1;
        }
        if (sl == sr || sl.start() == sr.start() && sl.end() == sr.end() && sl.binding() == sr.binding()
                && sl.name().equals(sr.name())) {
            return 0; // Symbol.equals, fields compared cheapest first
        }
        if (sl.inlined() || sr.inlined()) {
            int c = sl.name().compareTo(sr.name());
            if (c != 0) {
                return c;
            }
            if (Long.compareUnsigned(sl.start(), sr.end()) <= 0 && Long.compareUnsigned(sl.end(), sr.start()) >= 0) {
                return 0;
            }
        }
        if (sl.start() != sr.start()) {
            return sr.start() - sl.start();
        }
        return sr.end() - sl.end();
    }
}
