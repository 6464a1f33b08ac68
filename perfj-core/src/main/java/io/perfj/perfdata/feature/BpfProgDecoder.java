package io.perfj.perfdata.feature;

import io.perfj.io.Bytes;
import io.perfj.io.Cursor;

import java.util.ArrayList;
import java.util.List;

/** Decodes one {@code struct perf_bpil} entry of BPF_PROG_INFO. */
final class BpfProgDecoder {
    private BpfProgDecoder() {
    }

    /** Largest info block accepted; the kernel's struct is 232 bytes today. */
    static final long MAX_INFO_LEN = 1 << 16;

    static BpfProg decode(Cursor c) {
        long entryPos = c.position();
        long infoLen = c.u32();
        long dataLen = c.u32();
        long arrays = c.u64();
        if (infoLen > MAX_INFO_LEN) {
            throw c.bytes().error(entryPos, "bpf_prog_info length " + infoLen + " is not plausible");
        }
        if (infoLen > c.remaining()) {
            throw c.bytes().error(entryPos, "bpf_prog_info needs " + infoLen + " bytes, only " + c.remaining() + " remain");
        }
        Bytes infoBytes = c.slice(infoLen, c.bytes().structure() + " bpf_prog_info");
        if (dataLen > c.remaining()) {
            throw c.bytes().error(entryPos + 4, "bpf_prog_info data needs " + dataLen + " bytes, only " + c.remaining() + " remain");
        }
        Bytes data = c.slice(dataLen, c.bytes().structure() + " bpf_prog_info data");
        // Copy the info into a zero-padded block so that fields past info_len read as 0.
        byte[] padded = new byte[(int) Math.max(infoLen, BpfProg.Info.SIZE)];
        System.arraycopy(infoBytes.bytes(0, infoLen), 0, padded, 0, (int) infoLen);
        Bytes ib = Bytes.of(java.lang.foreign.MemorySegment.ofArray(padded), infoBytes.order(),
                infoBytes.source(), infoBytes.structure(), infoBytes.base());
        BpfProg.Info info = info(ib);

        byte[] jited = new byte[0];
        byte[] xlated = new byte[0];
        long[] mapIds = new long[0];
        long[] ksyms = new long[0];
        long[] funcLens = new long[0];
        List<BpfProg.FuncInfo> funcInfo = List.of();
        List<BpfProg.LineInfo> lineInfo = List.of();
        long[] jitedLine = new long[0];
        List<byte[]> tags = List.of();
        if (has(arrays, BpfProg.JITED_INSNS)) {
            jited = array(data, info.jitedProgInsns(), info.jitedProgLen(), 1, "jited_prog_insns").bytes(0, info.jitedProgLen());
        }
        if (has(arrays, BpfProg.XLATED_INSNS)) {
            xlated = array(data, info.xlatedProgInsns(), info.xlatedProgLen(), 1, "xlated_prog_insns").bytes(0, info.xlatedProgLen());
        }
        if (has(arrays, BpfProg.MAP_IDS)) {
            mapIds = u32s(array(data, info.mapIds(), info.nrMapIds(), 4, "map_ids"), info.nrMapIds());
        }
        if (has(arrays, BpfProg.JITED_KSYMS)) {
            ksyms = u64s(array(data, info.jitedKsyms(), info.nrJitedKsyms(), 8, "jited_ksyms"), info.nrJitedKsyms());
        }
        if (has(arrays, BpfProg.JITED_FUNC_LENS)) {
            funcLens = u32s(array(data, info.jitedFuncLens(), info.nrJitedFuncLens(), 4, "jited_func_lens"), info.nrJitedFuncLens());
        }
        if (has(arrays, BpfProg.FUNC_INFO)) {
            long rec = info.funcInfoRecSize();
            if (info.nrFuncInfo() > 0 && rec < 8) {
                throw ib.error(132, "func_info_rec_size " + rec + " is smaller than struct bpf_func_info");
            }
            Bytes a = array(data, info.funcInfo(), info.nrFuncInfo(), rec, "func_info");
            List<BpfProg.FuncInfo> l = new ArrayList<>((int) info.nrFuncInfo());
            for (long k = 0; k < info.nrFuncInfo(); k++) {
                l.add(new BpfProg.FuncInfo(a.u32(k * rec), a.u32(k * rec + 4)));
            }
            funcInfo = List.copyOf(l);
        }
        if (has(arrays, BpfProg.LINE_INFO)) {
            long rec = info.lineInfoRecSize();
            if (info.nrLineInfo() > 0 && rec < 16) {
                throw ib.error(172, "line_info_rec_size " + rec + " is smaller than struct bpf_line_info");
            }
            Bytes a = array(data, info.lineInfo(), info.nrLineInfo(), rec, "line_info");
            List<BpfProg.LineInfo> l = new ArrayList<>((int) info.nrLineInfo());
            for (long k = 0; k < info.nrLineInfo(); k++) {
                long p = k * rec;
                l.add(new BpfProg.LineInfo(a.u32(p), a.u32(p + 4), a.u32(p + 8), a.u32(p + 12)));
            }
            lineInfo = List.copyOf(l);
        }
        if (has(arrays, BpfProg.JITED_LINE_INFO)) {
            long rec = info.jitedLineInfoRecSize();
            if (info.nrJitedLineInfo() > 0 && rec < 8) {
                throw ib.error(176, "jited_line_info_rec_size " + rec + " is smaller than a u64");
            }
            Bytes a = array(data, info.jitedLineInfo(), info.nrJitedLineInfo(), rec, "jited_line_info");
            jitedLine = new long[(int) info.nrJitedLineInfo()];
            for (int k = 0; k < jitedLine.length; k++) {
                jitedLine[k] = a.u64(k * rec);
            }
        }
        if (has(arrays, BpfProg.PROG_TAGS)) {
            Bytes a = array(data, info.progTags(), info.nrProgTags(), 8, "prog_tags");
            List<byte[]> l = new ArrayList<>((int) info.nrProgTags());
            for (long k = 0; k < info.nrProgTags(); k++) {
                l.add(a.bytes(k * 8, 8));
            }
            tags = List.copyOf(l);
        }
        return new BpfProg(infoLen, dataLen, arrays, info, jited, xlated, mapIds, ksyms, funcLens,
                funcInfo, lineInfo, jitedLine, tags);
    }

    private static boolean has(long arrays, int bit) {
        return (arrays & (1L << bit)) != 0;
    }

    /** The {@code count * recSize} bytes at {@code offset} of the data block, bounds-checked. */
    private static Bytes array(Bytes data, long offset, long count, long recSize, String what) {
        if (count < 0 || recSize < 0 || (recSize > 0 && count > data.size() / recSize)) {
            throw data.error(0, what + ": " + count + " entries of " + recSize + " bytes do not fit in the "
                    + data.size() + "-byte data block");
        }
        long len = count * recSize;
        if (offset < 0 || offset > data.size() - len) {
            throw data.error(0, what + ": offset 0x" + Long.toHexString(offset) + " + " + len
                    + " bytes lies outside the " + data.size() + "-byte data block");
        }
        return data.slice(offset, len, data.structure() + " " + what);
    }

    private static long[] u32s(Bytes a, long n) {
        long[] v = new long[(int) n];
        for (int i = 0; i < v.length; i++) {
            v[i] = a.u32(4L * i);
        }
        return v;
    }

    private static long[] u64s(Bytes a, long n) {
        long[] v = new long[(int) n];
        for (int i = 0; i < v.length; i++) {
            v[i] = a.u64(8L * i);
        }
        return v;
    }

    private static BpfProg.Info info(Bytes b) {
        return new BpfProg.Info(
                b.u32(0), b.u32(4), b.bytes(8, 8), b.u32(16), b.u32(20),
                b.u64(24), b.u64(32), b.u64(40), b.u32(48),
                b.u32(52), b.u64(56), b.cstring(64, 16), b.u32(80),
                gpl(b),
                b.u64(88), b.u64(96), b.u32(104), b.u32(108),
                b.u64(112), b.u64(120), b.u32(128), b.u32(132),
                b.u64(136), b.u32(144), b.u32(148), b.u64(152),
                b.u64(160), b.u32(168), b.u32(172),
                b.u32(176), b.u32(180), b.u64(184), b.u64(192),
                b.u64(200), b.u64(208), b.u32(216), b.u32(220),
                b.u32(224));
    }

    /** gpl_compatible is bit 0 of its u32 word (the most significant bit on big-endian). */
    private static boolean gpl(Bytes b) {
        long w = b.u32(84);
        return b.order() == java.nio.ByteOrder.BIG_ENDIAN ? (w & 0x8000_0000L) != 0 : (w & 1) != 0;
    }
}
