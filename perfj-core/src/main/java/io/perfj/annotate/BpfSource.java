package io.perfj.annotate;

import io.perfj.perfdata.feature.BpfProg;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
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

    /** Strings of a raw BTF blob (its header and string section), enough for line info text. */
    public static final class Strings {
        private final ByteBuffer b;
        private final int strOff;
        private final int strLen;

        private Strings(ByteBuffer b, int strOff, int strLen) {
            this.b = b;
            this.strOff = strOff;
            this.strLen = strLen;
        }

        /** Null when the blob is not BTF. */
        public static Strings of(byte[] raw) {
            if (raw == null || raw.length < 24) {
                return null;
            }
            ByteBuffer b = ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN);
            if ((b.getShort(0) & 0xffff) != 0xeb9f) {
                b.order(ByteOrder.BIG_ENDIAN);
                if ((b.getShort(0) & 0xffff) != 0xeb9f) {
                    return null;
                }
            }
            long hdr = Integer.toUnsignedLong(b.getInt(4));
            long so = Integer.toUnsignedLong(b.getInt(16));
            long sl = Integer.toUnsignedLong(b.getInt(20));
            if (hdr + so + sl > raw.length) {
                return null;
            }
            return new Strings(b, (int) (hdr + so), (int) sl);
        }

        public String at(long off) {
            if (off < 0 || off >= strLen) {
                return null;
            }
            int s = strOff + (int) off;
            int e = s;
            while (e < strOff + strLen && b.get(e) != 0) {
                e++;
            }
            byte[] out = new byte[e - s];
            b.get(s, out);
            return new String(out, StandardCharsets.UTF_8);
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
