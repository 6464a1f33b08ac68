package io.perfj.bpf;

import io.perfj.perfdata.feature.BpfProg;

import java.util.OptionalInt;

/**
 * Maps jited addresses (sample ips) back to line_info records and so to xlated instructions,
 * the way libbpf's {@code bpf_prog_linfo__lfind_addr_func} does (src/bpf_prog_linfo.c): each
 * line_info record has one jited address (jited_line_info); within the sub-program holding the
 * ip, the record with the greatest address not above the ip is the one executing.
 */
public final class JitedLines {
    private final BpfProg prog;

    private JitedLines(BpfProg prog) {
        this.prog = prog;
    }

    /** The mapping for {@code prog}; it finds nothing when the recording lacks jited_line_info. */
    public static JitedLines of(BpfProg prog) {
        return new JitedLines(prog);
    }

    /** The sub-program whose jited code holds {@code ip}. */
    public OptionalInt subprogAt(long ip) {
        long[] ks = prog.jitedKsyms();
        long[] lens = prog.jitedFuncLens();
        for (int i = 0; i < ks.length && i < lens.length; i++) {
            if (Long.compareUnsigned(ip, ks[i]) >= 0 && Long.compareUnsigned(ip - ks[i], lens[i]) < 0) {
                return OptionalInt.of(i);
            }
        }
        return OptionalInt.empty();
    }

    /** Index of the line_info record executing at {@code ip}. */
    public OptionalInt lineRecordAt(long ip) {
        OptionalInt sub = subprogAt(ip);
        long[] jl = prog.jitedLineInfo();
        if (sub.isEmpty() || jl.length != prog.lineInfo().size()) {
            return OptionalInt.empty();
        }
        long start = prog.jitedKsyms()[sub.getAsInt()];
        long len = prog.jitedFuncLens()[sub.getAsInt()];
        int best = -1;
        for (int k = 0; k < jl.length; k++) {
            long a = jl[k];
            boolean inFunc = Long.compareUnsigned(a, start) >= 0 && Long.compareUnsigned(a - start, len) < 0;
            if (inFunc && Long.compareUnsigned(a, ip) <= 0
                    && (best < 0 || Long.compareUnsigned(a, jl[best]) >= 0)) {
                best = k;
            }
        }
        return best < 0 ? OptionalInt.empty() : OptionalInt.of(best);
    }

    /** The xlated instruction starting the source line executing at {@code ip}. */
    public OptionalInt xlatedInsnAt(long ip) {
        OptionalInt k = lineRecordAt(ip);
        return k.isEmpty() ? OptionalInt.empty() : OptionalInt.of((int) prog.lineInfo().get(k.getAsInt()).insnOff());
    }
}
