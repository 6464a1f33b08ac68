package io.perfj.compat;

import io.perfj.report.ReportQuirks;

/**
 * perf 6.1's branch flag columns (util/sort.c {@code hist_entry__mispredict_snprintf},
 * {@code hist_entry__in_tx_snprintf}, {@code hist_entry__abort_snprintf}) keep their text in a
 * {@code static} variable that a row only ever sets: once one row has printed "N", "X" or "A",
 * every later row without the flag prints it too. One instance per report, rows in print order.
 */
public final class PerfBranchColumns implements ReportQuirks.BranchFlags {
    private String mispredict = "N/A";
    private String inTx = ".";
    private String abort = ".";

    /** The mispredict column of the next row: "N" when predicted, "Y" when mispredicted. */
    @Override
    public String mispredict(boolean predicted, boolean mispredicted) {
        if (predicted) {
            mispredict = "N";
        } else if (mispredicted) {
            mispredict = "Y";
        }
        return mispredict;
    }

    /** The in_tx column of the next row. */
    @Override
    public String inTx(boolean inTransaction) {
        if (inTransaction) {
            inTx = "X";
        }
        return inTx;
    }

    /** The abort column of the next row. */
    @Override
    public String abort(boolean aborted) {
        if (aborted) {
            abort = "A";
        }
        return abort;
    }
}
