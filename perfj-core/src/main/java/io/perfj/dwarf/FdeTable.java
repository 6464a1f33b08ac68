package io.perfj.dwarf;

/**
 * An FDE with its unwind table, made once per FDE and kept by its index: what an unwinder asks
 * for at every frame, without a map lookup or an allocation.
 */
record FdeTable(Fde fde, FdeRows rows) {
    /** The row at {@code pc} (which the FDE covers); see {@link FdeRows#rowFor}. */
    UnwindRow rowFor(long pc) {
        return rows.rowFor(pc);
    }

    boolean signalFrame() {
        return fde.cie().signalFrame();
    }
}
