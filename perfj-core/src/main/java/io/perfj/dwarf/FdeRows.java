package io.perfj.dwarf;

import java.util.ArrayList;
import java.util.List;

/**
 * The unwind table of one FDE, computed once and searched by address: an unwinder asks for the
 * row of every frame, and running the CIE's and FDE's instructions each time was most of its
 * cost. Instructions that fail part-way keep the rows before the failure; an address past them
 * gets the failure, as running the instructions up to that address would.
 */
final class FdeRows {
    private final UnwindRow[] rows;
    private final long[] ends;
    private final RuntimeException error;
    /** Whether the ends never decrease (not so when addresses wrap): else a linear search. */
    private final boolean sorted;

    private FdeRows(UnwindRow[] rows, RuntimeException error) {
        this.rows = rows;
        this.error = error;
        this.ends = new long[rows.length];
        boolean s = true;
        for (int i = 0; i < rows.length; i++) {
            ends[i] = rows[i].end();
            s &= i == 0 || Long.compareUnsigned(ends[i - 1], ends[i]) <= 0;
        }
        this.sorted = s;
    }

    static FdeRows of(CfaInterpreter interpreter) {
        List<UnwindRow> out = new ArrayList<>();
        RuntimeException error = null;
        try {
            interpreter.run(r -> {
                out.add(r);
                return true;
            });
        } catch (RuntimeException e) {
            error = e;
        }
        return new FdeRows(out.toArray(UnwindRow[]::new), error);
    }

    /** The first row whose end lies above {@code pc} (unsigned), as the interpreter's own search. */
    UnwindRow rowFor(long pc) {
        if (!sorted) {
            for (UnwindRow r : rows) {
                if (Long.compareUnsigned(pc, r.end()) < 0) {
                    return r;
                }
            }
            if (error != null) {
                throw error;
            }
            return null;
        }
        int lo = 0;
        int hi = rows.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(pc, ends[mid]) < 0) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        if (lo < rows.length) {
            // the first row in order whose end is above pc: earlier ones all end at or below it
            return rows[lo];
        }
        if (error != null) {
            throw error;
        }
        return null;
    }
}
