package io.perfj.report;

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
 */
public record ReportView(boolean samples, boolean period, boolean quiet, boolean relative, boolean hideUnresolved,
                         boolean noInline) {
    /** perf's default columns. */
    public static final ReportView DEFAULT = new ReportView(false, false, false, false, false, false);
}
