package io.perfj.report;

import io.perfj.profile.FrameTable;
import io.perfj.session.Session;
import io.perfj.symbols.Dso;
import io.perfj.symbols.Location;

import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * Where report's and script's answers differ from perf 6.1's: the strategies
 * {@code io.perfj.compat} implements, found through the session's
 * {@link io.perfj.session.Quirks#view}. {@link #NONE} is perfj's own answers, at no cost.
 */
public interface ReportQuirks {
    /** perfj's own answers. */
    ReportQuirks NONE = new ReportQuirks() {
    };

    /** The strategies of the session's compatibility mode. */
    static ReportQuirks of(Session session) {
        return of(session.quirks());
    }

    /** The report strategies among a session's. */
    static ReportQuirks of(io.perfj.session.Quirks quirks) {
        ReportQuirks q = quirks.view(ReportQuirks.class);
        return q == null ? NONE : q;
    }

    /** How script lays out its lines. */
    default ScriptLayout scriptLayout() {
        return ScriptLayout.CURRENT;
    }

    /**
     * Whether, with {@code --children} and a symbol sort key, entries of {@code --call-graph
     * dwarf} samples are inserted sample by sample ({@link #entryOrder}'s tree decides what merges)
     * rather than samples merged first.
     */
    default boolean insertsSampleBySample(boolean children, boolean bySym) {
        return false;
    }

    /** Whether the output order looks at the thread that created each entry (so samples keep theirs). */
    default boolean ordersByCreatingThread(boolean children, boolean chains) {
        return false;
    }

    /** Whether a trace field the formatted text has no word for prints by its type alone (else by its print format). */
    default boolean rawTraceFields() {
        return false;
    }

    /** Whether the branch report's sample count is its branches'. */
    default boolean countsBranchesAsSamples() {
        return false;
    }

    /** The srcfile text of an address its line table has no row for ({@link SourceLines}). */
    default String srclineNoRowFile() {
        return "??";
    }

    /** A callchain address's source line where it is not its own; null: always its own. */
    default Function<Location, SourceLines.Text> srclineOfChain() {
        return null;
    }

    /** The source line of an address in an object without a line table; null: the symbol and offset. */
    default Function<Dso, SourceLines.Text> srclineWithoutTable() {
        return null;
    }

    /** Whether script prints a frame's source line. */
    default boolean scriptPrintsSrcline(String srcline) {
        return true;
    }

    /** The branch report's flag columns of one table, or null for each row's own flags. */
    default BranchFlags branchFlags() {
        return null;
    }

    /** Flag columns of a branch report's rows, in row order. */
    interface BranchFlags {
        String mispredict(boolean predicted, boolean mispredicted);

        String inTx(boolean inTransaction);

        String abort(boolean aborted);
    }

    /** Whether a sample that fails the filters is added (its new entries hidden), with or without --children. */
    default boolean addsFailingSamples(boolean children) {
        return false;
    }

    /** Whether --symbol-filter removes rows, given the sort keys (comm, sym) and --hierarchy. */
    default boolean filtersSymbols(boolean byComm, boolean bySym, boolean hierarchy) {
        return bySym;
    }

    /**
     * How --symbol-filter hides the rows of a --hierarchy report, levels tested on the entries
     * in perf's input order; null: a level's row is hidden when the filter keeps none of its entries.
     *
     * @param input   the entries in the order of the input tree
     * @param value   an entry's value of a level's key
     * @param matches whether the filter keeps an entry
     */
    default LevelFilter hierarchyFilter(List<HistEntry> input, int levels, BiFunction<HistEntry, Integer, Object> value,
                                        Predicate<HistEntry> matches) {
        return null;
    }

    /** Rows of a hierarchy hidden by --symbol-filter. */
    interface LevelFilter {
        /** Whether the row of level {@code depth} that holds {@code e} is hidden. */
        boolean hides(HistEntry e, int depth);

        /** The entries whose values size the columns. */
        List<HistEntry> sizing();
    }

    /** Whether --ignore-callees applies at a frame that was unwound ({@code unwound}) or recorded. */
    default boolean ignoresCallees(boolean unwound) {
        return true;
    }

    /** What a column header or a callchain name prints as (cut by fixed buffers, or itself). */
    default UnaryOperator<String> stdioText() {
        return UnaryOperator.identity();
    }

    /**
     * The order entries are built, merged and sorted in, when it is not perfj's (one entry per
     * distinct key, sorted by the output keys); null for perfj's.
     */
    default EntryOrder entryOrder(FrameTable frames, ReportOptions opts) {
        return null;
    }

    /** Entries found, merged and sorted as another tool's trees do it. */
    interface EntryOrder {
        /** How two entries compare as keys (0: the same entry). */
        long compare(HistEntry l, HistEntry r);

        /** An empty input tree. */
        EntryTree tree();

        /** The entries inserted again into a new tree, equal ones merged by {@code merge}. */
        EntryTree collapse(List<HistEntry> in, BiConsumer<HistEntry, HistEntry> merge);

        /**
         * The rows in output order, from the entries in the order of the collapsed tree.
         *
         * @param fields    the --fields order, or null
         * @param shownKeys the sort keys shown
         * @param chains    whether the event samples callchains
         * @param events    how many events the rows show (a group's)
         */
        List<HistEntry> outputOrder(List<HistEntry> in, List<ReportFields.Field> fields, List<SortKey> shownKeys,
                                    boolean chains, int events);
    }

    /** A tree of entries. */
    interface EntryTree {
        /** The entry equal to {@code probe}, or probe inserted. */
        HistEntry findOrInsert(HistEntry probe);

        /** The entry equal to {@code probe}, or null. */
        HistEntry find(HistEntry probe);

        /** The entries in tree order. */
        List<HistEntry> inOrder();
    }
}
