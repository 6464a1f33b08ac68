package io.perfj.report;

/**
 * The layout details of {@code perf script} that changed between perf versions, chosen once per
 * printer: the width of the pid and tid columns, and whether a user-space callchain frame shows
 * its address in the object rather than the virtual address.
 *
 * @param idWidth the pid and tid columns' width ({@code %7d}, {@code %7d/%-7d})
 * @param objectAddresses whether user-space callchain frames print the address in their object
 */
public record ScriptLayout(int idWidth, boolean objectAddresses) {
    /**
     * perf 7.2's: seven-digit ids, and every frame with the address it was recorded at, the same
     * number {@code -F ip} and a sample printed without its callchain show.
     */
    public static final ScriptLayout CURRENT = new ScriptLayout(7, false);
    /**
     * perf 6.1's: five-digit ids, and user-space callchain frames with their address in the
     * object (the kernel's, modules' and BPF programs' as recorded), which cannot be told from a
     * virtual address.
     */
    public static final ScriptLayout PERF_6_1 = new ScriptLayout(5, true);
}
