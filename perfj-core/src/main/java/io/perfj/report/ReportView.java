package io.perfj.report;

import io.perfj.profile.CallchainKey;

/**
 * How {@link StdioReport} shows the rows, by perf report's options of the same names.
 *
 * @param samples        {@code -n}: a Samples column after the percentages
 * @param period         {@code --show-total-period}: a Period column after them
 * @param quiet          {@code -q}: no comment lines, only the rows
 * @param relative       {@code --percentage relative}: percentages of the samples the filters
 *                       keep, not of all samples ({@code absolute}, the default)
 * @param hideUnresolved {@code --hide-unresolved}: no rows (nor callchain lines) of addresses
 *                       without a symbol
 * @param noInline       {@code --no-inline}: callchains without the functions inlined at an address
 * @param groups         whether the events of a group are reported together (perf's group view)
 * @param symbolFilter   {@code --symbol-filter}: only rows whose symbol's name contains this
 *                       text (rows without a symbol are left out), or null
 * @param ignoreCallees  {@code --ignore-callees}: a callchain frame whose symbol's name this
 *                       finds becomes the sample's own frame, the frames it called dropped; or null
 * @param verbose        {@code -v}: the objects' full paths, and before each symbol its address
 *                       and where its symbols came from
 * @param hierarchy      {@code --hierarchy}: one level of rows per sort key
 * @param chainValue     what a callchain branch shows ({@code -g}'s percent, period or count)
 * @param printLimit     {@code -g}'s print limit: at most this many branches under a callchain
 *                       node (0: all)
 * @param chainKey       what tells callchain nodes apart ({@code -g}'s function, address or srcline)
 * @param fields         {@code -F}: the columns and the rows' order, or null for perf's default
 *                       columns (and then {@code samples} and {@code period} add theirs)
 * @param parent         the parent sort key's pattern ({@code -p}; perf's {@code ^sys_|^do_page_fault})
 * @param excludeOther   {@code -x}: only rows with a parent symbol (a filter: percentages stay
 *                       of all samples)
 */
public record ReportView(boolean samples, boolean period, boolean quiet, boolean relative, boolean hideUnresolved,
                         boolean noInline, io.perfj.perfdata.feature.EventGroups.Mode groups, String symbolFilter,
                         java.util.regex.Pattern ignoreCallees, boolean verbose, boolean hierarchy,
                         CallchainValue chainValue, int printLimit, CallchainKey chainKey,
                         ReportFields fields, java.util.regex.Pattern parent, boolean excludeOther) {
    /** perf's parent pattern. */
    public static final java.util.regex.Pattern DEFAULT_PARENT = java.util.regex.Pattern.compile("^sys_|^do_page_fault");

    /** perf's default columns. */
    public static final ReportView DEFAULT = new ReportView(false, false, false, false, false, false, io.perfj.perfdata.feature.EventGroups.Mode.RECORDED);

    /** Rows as perf shows them by default, with these columns and filters; callchain branches with their percentages, all of them. */
    public ReportView(boolean samples, boolean period, boolean quiet, boolean relative, boolean hideUnresolved,
                      boolean noInline, io.perfj.perfdata.feature.EventGroups.Mode groups) {
        this(samples, period, quiet, relative, hideUnresolved, noInline, groups, null, null, false, false,
                CallchainValue.PERCENT, 0, CallchainKey.FUNCTION, null, DEFAULT_PARENT, false);
    }
}
