package io.perfj.compat;

import io.perfj.profile.FrameTable;
import io.perfj.report.HistEntry;
import io.perfj.report.ReportFields;
import io.perfj.report.ReportOptions;
import io.perfj.report.ReportQuirks;
import io.perfj.report.ScriptLayout;
import io.perfj.report.SortKey;
import io.perfj.report.SourceLines;
import io.perfj.symbols.Dso;
import io.perfj.symbols.Location;

import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * perf 6.1's report and script: its entry trees ({@link PerfHistTree}, {@link PerfHistCmp},
 * {@link PerfHistSort}), source lines ({@link PerfSrclines}), branch flag columns
 * ({@link PerfBranchColumns}), filters ({@link PerfFilteredChildren}, {@link PerfSymbolFilter},
 * {@link PerfHierarchyFilter}, {@link PerfIgnoreCallees}) and fixed buffers
 * ({@link PerfStdioBuffers}).
 */
final class PerfReportQuirks implements ReportQuirks {
    static final PerfReportQuirks INSTANCE = new PerfReportQuirks();

    private PerfReportQuirks() {
    }

    @Override
    public ScriptLayout scriptLayout() {
        return ScriptLayout.PERF_6_1;
    }

    @Override
    public boolean insertsSampleBySample(boolean children, boolean bySym) {
        return children && bySym;
    }

    @Override
    public boolean ordersByCreatingThread(boolean children, boolean chains) {
        return children && chains;
    }

    @Override
    public boolean rawTraceFields() {
        return true;
    }

    @Override
    public boolean countsBranchesAsSamples() {
        return true;
    }

    @Override
    public String srclineNoRowFile() {
        return PerfSrclines.NO_ROW_FILE;
    }

    @Override
    public Function<Location, SourceLines.Text> srclineOfChain() {
        return PerfSrclines::chainValue;
    }

    @Override
    public Function<Dso, SourceLines.Text> srclineWithoutTable() {
        return PerfSrclines::noTableValue;
    }

    @Override
    public boolean scriptPrintsSrcline(String srcline) {
        return PerfSrclines.scriptPrints(srcline);
    }

    @Override
    public BranchFlags branchFlags() {
        return new PerfBranchColumns();
    }

    @Override
    public boolean addsFailingSamples(boolean children) {
        return PerfFilteredChildren.addsFailingSamples(children);
    }

    @Override
    public boolean filtersSymbols(boolean byComm, boolean bySym, boolean hierarchy) {
        return PerfSymbolFilter.applies(byComm, hierarchy);
    }

    @Override
    public LevelFilter hierarchyFilter(List<HistEntry> input, int levels, BiFunction<HistEntry, Integer, Object> value,
                                       Predicate<HistEntry> matches) {
        PerfHierarchyFilter<HistEntry> f = new PerfHierarchyFilter<>(input, levels, value, matches);
        return new LevelFilter() {
            @Override
            public boolean hides(HistEntry e, int depth) {
                return f.hides(e, depth);
            }

            @Override
            public List<HistEntry> sizing() {
                return f.sizing();
            }
        };
    }

    @Override
    public boolean ignoresCallees(boolean unwound) {
        return PerfIgnoreCallees.tests(unwound);
    }

    @Override
    public UnaryOperator<String> stdioText() {
        return PerfStdioBuffers::fit;
    }

    @Override
    public EntryOrder entryOrder(FrameTable frames, ReportOptions opts) {
        return new Order(frames, opts);
    }

    /** perf's hist entry trees over one event's entries. */
    private static final class Order implements EntryOrder {
        private final FrameTable frames;
        private final ReportOptions opts;
        private PerfHistCmp cmp;

        Order(FrameTable frames, ReportOptions opts) {
            this.frames = frames;
            this.opts = opts;
        }

        private PerfHistCmp cmp() {
            if (cmp == null) {
                cmp = new PerfHistCmp(frames, opts);
            }
            return cmp;
        }

        @Override
        public long compare(HistEntry l, HistEntry r) {
            return cmp().cmp(l, r);
        }

        @Override
        public EntryTree tree() {
            return tree(new PerfHistTree<>(cmp()::cmp));
        }

        @Override
        public EntryTree collapse(List<HistEntry> in, BiConsumer<HistEntry, HistEntry> merge) {
            return tree(PerfHistSort.collapse(in, cmp()::cmp, merge));
        }

        private static EntryTree tree(PerfHistTree<HistEntry> t) {
            return new EntryTree() {
                @Override
                public HistEntry findOrInsert(HistEntry probe) {
                    return t.findOrInsert(probe);
                }

                @Override
                public HistEntry find(HistEntry probe) {
                    return t.find(probe);
                }

                @Override
                public List<HistEntry> inOrder() {
                    return t.inOrder();
                }
            };
        }

        @Override
        public List<HistEntry> outputOrder(List<HistEntry> in, List<ReportFields.Field> fields, List<SortKey> shownKeys,
                                           boolean chains, int events) {
            return PerfHistSort.outputResort(in, fields != null
                    ? PerfHistSort.fieldOrder(opts, fields, chains, frames, events)
                    : PerfHistSort.outputOrder(opts, shownKeys, chains, frames, events));
        }
    }
}
