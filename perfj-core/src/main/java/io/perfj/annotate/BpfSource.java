package io.perfj.annotate;

import io.perfj.perfdata.feature.BpfProg;

import java.util.ArrayList;
import java.util.List;

/**
 * Source lines of a JIT-compiled BPF program: each sub-program's share of the jited line info
 * (the records whose JIT address falls in its [ksym, ksym + len) range) and the lookup libbpf's
 * {@code bpf_prog_linfo__lfind_addr_func} does: the last record at or before an address, among
 * the records not yet used, so that each record's source line shows once, before the first
 * instruction at or after its address.
 */
public final class BpfSource {
    private final BpfProg prog;
    private final int[] first;
    private final int[] count;

    public BpfSource(BpfProg prog) {
        this.prog = prog;
        int funcs = prog.jitedKsyms().length;
        first = new int[funcs];
        count = new int[funcs];
        long[] jl = prog.jitedLineInfo();
        int n = Math.min(jl.length, prog.lineInfo().size());
        int i = 0;
        for (int f = 0; f < funcs; f++) {
            long lo = prog.jitedKsyms()[f];
            long hi = lo + (f < prog.jitedFuncLens().length ? prog.jitedFuncLens()[f] : 0);
            first[f] = i;
            while (i < n && Long.compareUnsigned(jl[i], lo) >= 0 && Long.compareUnsigned(jl[i], hi) < 0) {
                i++;
            }
            count[f] = i - first[f];
        }
    }

    /** Whether the program came with line info for its JIT image. */
    public boolean hasLineInfo() {
        return !prog.lineInfo().isEmpty() && prog.jitedLineInfo().length > 0;
    }

    /** The line_info record for {@code addr} in sub-program {@code func}, skipping {@code skip} used ones. */
    public BpfProg.LineInfo find(long addr, int func, int skip) {
        if (func < 0 || func >= first.length || skip >= count[func]) {
            return null;
        }
        long[] jl = prog.jitedLineInfo();
        int start = first[func] + skip;
        if (Long.compareUnsigned(addr, jl[start]) < 0) {
            return null;
        }
        int i = start;
        int end = first[func] + count[func];
        while (i < end && Long.compareUnsigned(addr, jl[i]) >= 0) {
            i++;
        }
        return prog.lineInfo().get(i - 1);
    }

    /** The JIT bytes of sub-program {@code func}. */
    public static byte[] image(BpfProg prog, int func) {
        long off = 0;
        for (int i = 0; i < func; i++) {
            off += prog.jitedFuncLens()[i];
        }
        long len = prog.jitedFuncLens()[func];
        if (off + len > prog.jitedInsns().length) {
            return null;
        }
        byte[] out = new byte[(int) len];
        System.arraycopy(prog.jitedInsns(), (int) off, out, 0, (int) len);
        return out;
    }

    /** Strings of a program's BTF blob, enough for line info text. */
    public static final class Strings {
        private final io.perfj.btf.Btf btf;

        private Strings(io.perfj.btf.Btf btf) {
            this.btf = btf;
        }

        /** Null when the blob is absent or not valid BTF. */
        public static Strings of(byte[] raw) {
            if (raw == null) {
                return null;
            }
            try {
                return new Strings(io.perfj.btf.Btf.parse(raw, "BPF_BTF"));
            } catch (io.perfj.io.FormatException e) {
                return null;
            }
        }

        public String at(long off) {
            return off >= 0 && off <= Integer.MAX_VALUE && btf.hasString((int) off) ? btf.string((int) off) : null;
        }
    }

    /** Sub-program index whose ksym is {@code addr}, or -1. */
    public static int subprogram(BpfProg prog, long addr) {
        long[] k = prog.jitedKsyms();
        for (int i = 0; i < k.length; i++) {
            if (k[i] == addr) {
                return i;
            }
        }
        return -1;
    }

    static List<Long> ksyms(BpfProg prog) {
        List<Long> out = new ArrayList<>();
        for (long k : prog.jitedKsyms()) {
            out.add(k);
        }
        return out;
    }
}
