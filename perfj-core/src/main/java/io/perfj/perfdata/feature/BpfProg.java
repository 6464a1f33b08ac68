package io.perfj.perfdata.feature;

import java.util.HexFormat;
import java.util.List;

/**
 * One program of the BPF_PROG_INFO feature: perf's {@code struct perf_bpil} (info_len, data_len,
 * arrays bitmask), the {@code struct bpf_prog_info} fields present in its info_len bytes (absent
 * ones are 0), and the arrays held in its data block. Inside {@link Info} the pointer fields
 * (jited_prog_insns, map_ids, ...) are offsets into that data block, as perf stores them.
 *
 * @param arrays     bitmask of the arrays present, bit numbers as in {@link #ARRAY_NAMES}
 * @param jitedInsns jited machine code (empty unless JITED_INSNS is present)
 * @param xlatedInsns translated BPF instructions
 * @param mapIds     u32 map ids
 * @param jitedKsyms u64 start address of each sub-program
 * @param jitedFuncLens u32 length of each sub-program's jited code
 * @param funcInfo   {@code struct bpf_func_info} records
 * @param lineInfo   {@code struct bpf_line_info} records
 * @param jitedLineInfo u64 jited address of each line_info record
 * @param progTags   8-byte tag of each sub-program
 */
public record BpfProg(long infoLen, long dataLen, long arrays, Info info, byte[] jitedInsns,
                      byte[] xlatedInsns, long[] mapIds, long[] jitedKsyms, long[] jitedFuncLens,
                      List<FuncInfo> funcInfo, List<LineInfo> lineInfo, long[] jitedLineInfo,
                      List<byte[]> progTags) {

    public static final int JITED_INSNS = 0;
    public static final int XLATED_INSNS = 1;
    public static final int MAP_IDS = 2;
    public static final int JITED_KSYMS = 3;
    public static final int JITED_FUNC_LENS = 4;
    public static final int FUNC_INFO = 5;
    public static final int LINE_INFO = 6;
    public static final int JITED_LINE_INFO = 7;
    public static final int PROG_TAGS = 8;
    public static final String[] ARRAY_NAMES = {
        "JITED_INSNS", "XLATED_INSNS", "MAP_IDS", "JITED_KSYMS", "JITED_FUNC_LENS", "FUNC_INFO",
        "LINE_INFO", "JITED_LINE_INFO", "PROG_TAGS",
    };

    public boolean hasArray(int bit) {
        return (arrays & (1L << bit)) != 0;
    }

    /** The program's tag for sub-program {@code i} as 16 hex digits. */
    public String tagHex(int i) {
        return HexFormat.of().formatHex(progTags.get(i));
    }

    /**
     * Sub-program {@code sub}'s symbol as perf names it ({@code synthesize_bpf_prog_name}, which
     * perf record writes in its KSYMBOL records and perf report prints in the header):
     * "bpf_prog_" + its tag, then "_" + its function's BTF name, or the program name for a
     * single-function program without BTF, or "F". {@code btfTypeName} names a type of the
     * program's BTF by id, null without BTF.
     */
    public String perfName(java.util.function.LongFunction<String> btfTypeName, int sub) {
        StringBuilder sb = new StringBuilder("bpf_prog_").append(tagHex(sub));
        String shortName = null;
        if (btfTypeName != null && sub < funcInfo.size()) {
            shortName = btfTypeName.apply(funcInfo.get(sub).typeId());
        } else if (btfTypeName == null && sub == 0 && info.nrJitedKsyms() == 1) {
            if (!info.name().isEmpty()) {
                shortName = info.name();
            }
        } else if (btfTypeName == null) {
            shortName = "F";
        }
        if (shortName != null) {
            sb.append('_').append(shortName);
        }
        return sb.toString();
    }

    /** One {@code struct perf_bpil} entry (info_len, data_len, arrays, info, array data) in {@code order}. */
    public static BpfProg decode(byte[] entry, java.nio.ByteOrder order) {
        return BpfProgDecoder.decode(io.perfj.io.Bytes.of(entry, order, "bpf_prog_info", "perf_bpil").cursor());
    }

    /** {@code struct bpf_func_info}: first instruction of a function and its BTF FUNC type id. */
    public record FuncInfo(long insnOff, long typeId) {
    }

    /**
     * {@code struct bpf_line_info}; line = lineCol >>> 10, column = lineCol & 0x3ff.
     */
    public record LineInfo(long insnOff, long fileNameOff, long lineOff, long lineCol) {
        public long line() {
            return lineCol >>> 10;
        }

        public long column() {
            return lineCol & 0x3ff;
        }
    }

    /** {@code struct bpf_prog_info} (include/uapi/linux/bpf.h); u32 fields are held unsigned in longs. */
    public record Info(long type, long id, byte[] tag, long jitedProgLen, long xlatedProgLen,
                       long jitedProgInsns, long xlatedProgInsns, long loadTime, long createdByUid,
                       long nrMapIds, long mapIds, String name, long ifindex, boolean gplCompatible,
                       long netnsDev, long netnsIno, long nrJitedKsyms, long nrJitedFuncLens,
                       long jitedKsyms, long jitedFuncLens, long btfId, long funcInfoRecSize,
                       long funcInfo, long nrFuncInfo, long nrLineInfo, long lineInfo,
                       long jitedLineInfo, long nrJitedLineInfo, long lineInfoRecSize,
                       long jitedLineInfoRecSize, long nrProgTags, long progTags, long runTimeNs,
                       long runCnt, long recursionMisses, long verifiedInsns, long attachBtfObjId,
                       long attachBtfId) {
        /** sizeof(struct bpf_prog_info) with every field listed here. */
        public static final int SIZE = 232;
    }
}
