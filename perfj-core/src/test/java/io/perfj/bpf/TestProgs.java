package io.perfj.bpf;

import io.perfj.perfdata.feature.BpfProg;

import java.util.List;

/** Synthetic {@link BpfProg}s for tests. */
final class TestProgs {
    private TestProgs() {
    }

    static BpfProg prog(byte[] xlated, List<BpfProg.FuncInfo> funcs, List<BpfProg.LineInfo> lines, long[] ksyms,
                        long[] lens, List<byte[]> tags, long btfId) {
        BpfProg.Info info = new BpfProg.Info(6, 7, new byte[8], 0, xlated.length, 0, 0, 0, 0, 0, 0, "t", 0, true,
                0, 0, ksyms.length, lens.length, 0, 0, btfId, 8, 0, funcs.size(), lines.size(), 0, 0, 0, 16, 8,
                tags.size(), 0, 0, 0, 0, 0, 0, 0);
        return new BpfProg(BpfProg.Info.SIZE, 0, 0x1ff, info, new byte[0], xlated, new long[0], ksyms, lens, funcs,
                lines, new long[0], tags);
    }

    static BpfProg prog(byte[] xlated) {
        return prog(xlated, List.of(), List.of(), new long[0], new long[0], List.of(), 0);
    }

    /** Little-endian bytes of instructions. */
    static byte[] bytes(BpfInsn... insns) {
        byte[] b = new byte[insns.length * 8];
        for (int i = 0; i < insns.length; i++) {
            BpfInsn x = insns[i];
            int p = i * 8;
            b[p] = (byte) x.code();
            b[p + 1] = (byte) (x.dst() | x.src() << 4);
            b[p + 2] = (byte) x.off();
            b[p + 3] = (byte) (x.off() >> 8);
            for (int k = 0; k < 4; k++) {
                b[p + 4 + k] = (byte) (x.imm() >> (8 * k));
            }
        }
        return b;
    }
}
