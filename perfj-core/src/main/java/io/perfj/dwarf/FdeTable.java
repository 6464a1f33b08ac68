package io.perfj.dwarf;

/**
 * An FDE with its unwind table, made once per FDE and kept by its index: what an unwinder asks
 * for at every frame, without a map lookup or an allocation.
 */
public record FdeTable(Fde fde, FdeRows rows) {
    /** The row at {@code pc} (which the FDE covers); see {@link FdeRows#rowFor}. */
    public UnwindRow rowFor(long pc) {
        return rows.rowFor(pc);
    }

    /** Whether the FDE's CIE marks a signal frame (augmentation S). */
    public boolean signalFrame() {
        return fde.cie().signalFrame();
    }
}
