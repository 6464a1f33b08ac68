package io.perfj.report;

import java.util.ArrayList;
import java.util.List;

/** The sort keys of perf report's branch mode ({@link BranchReport}), with perf's column headers. */
public enum BranchSortKey {
    COMM("Command"), DSO_FROM("Source Shared Object"), DSO_TO("Target Shared Object"),
    SYM_FROM("Source Symbol"), SYM_TO("Target Symbol"), MISPREDICT("Branch Mispredicted"),
    IN_TX("Branch in transaction"), ABORT("Transaction abort"), CYCLES("Basic Block Cycles"),
    SRCLINE_FROM("From Source:Line"), SRCLINE_TO("To Source:Line");

    /** perf 6.1's default_branch_sort_order. */
    public static final String DEFAULT = "comm,dso_from,symbol_from,symbol_to,cycles";

    final String header;

    BranchSortKey(String header) {
        this.header = header;
    }

    public String header() {
        return header;
    }

    /**
     * Parses perf's comma-separated list. Keys perf knows in branch mode that perfj does not
     * are refused with the reason ({@link UnsupportedOperationException}); unknown ones are an
     * {@link IllegalArgumentException}.
     */
    public static List<BranchSortKey> parse(String spec) {
        List<BranchSortKey> out = new ArrayList<>();
        for (String k : SortKey.names(spec)) {
            out.add(switch (k) {
                case "comm" -> COMM;
                case "dso_from" -> DSO_FROM;
                case "dso_to" -> DSO_TO;
                case "symbol_from" -> SYM_FROM;
                case "symbol_to" -> SYM_TO;
                case "mispredict" -> MISPREDICT;
                case "in_tx" -> IN_TX;
                case "abort" -> ABORT;
                case "cycles" -> CYCLES;
                case "srcline_from" -> SRCLINE_FROM;
                case "srcline_to" -> SRCLINE_TO;
                case "pid", "tid", "dso", "sym", "symbol", "cpu", "srcline", "addr_from", "addr_to", "type",
                        "local_weight", "weight", "ipc_lbr", "callchain_branch_predicted", "callchain_branch_abort",
                        "callchain_branch_cycles" -> throw new UnsupportedOperationException("the " + k
                        + " sort key is not supported in branch mode (use --no-branch-stack for a report by sample)");
                default -> throw new IllegalArgumentException("unknown branch sort key '" + k
                        + "' (supported: comm, dso_from, dso_to, symbol_from, symbol_to, mispredict, in_tx, abort, cycles, "
                        + "srcline_from, srcline_to)");
            });
        }
        return out;
    }
}
