package io.perfj.record;

import io.perfj.perfdata.RecordType;
import io.perfj.perfdata.feature.BpfProg;
import io.perfj.perfdata.feature.Feature;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The loaded BPF programs, asked of the kernel with bpf(2) (linux include/uapi/linux/bpf.h):
 * the ids (BPF_PROG_GET_NEXT_ID), each program's {@code struct bpf_prog_info} with its arrays
 * (BPF_OBJ_GET_INFO_BY_FD, twice: once for the sizes, once into buffers of those sizes) and the
 * BTF objects they name. Each program becomes one BPF_PROG_INFO entry in perf's
 * {@code struct perf_bpil} layout (info_len, data_len, arrays, the info with its array pointers
 * made offsets into the data that follows); unlike perf's, the entry also holds the translated
 * instructions (XLATED_INSNS), so the file alone gives the xlated view. A program unloaded
 * before it is asked for is left out.
 */
final class BpfPrograms {
    private static final int PROG_GET_NEXT_ID = 11;
    private static final int PROG_GET_FD_BY_ID = 13;
    private static final int OBJ_GET_INFO_BY_FD = 15;
    private static final int BTF_GET_FD_BY_ID = 19;
    /** {@code PERF_BPF_EVENT_PROG_LOAD} and {@code PERF_RECORD_KSYMBOL_TYPE_BPF}. */
    static final int BPF_EVENT_PROG_LOAD = 1;
    static final int KSYMBOL_TYPE_BPF = 1;

    /** struct bpf_prog_info offsets of the fields read or filled in. */
    private static final int TAG = 8;
    private static final int JITED_PROG_LEN = 16;
    private static final int XLATED_PROG_LEN = 20;
    private static final int JITED_PROG_INSNS = 24;
    private static final int XLATED_PROG_INSNS = 32;
    private static final int NR_MAP_IDS = 52;
    private static final int NR_JITED_KSYMS = 104;
    private static final int NR_JITED_FUNC_LENS = 108;
    private static final int JITED_KSYMS = 112;
    private static final int JITED_FUNC_LENS = 120;
    private static final int BTF_ID = 128;
    private static final int FUNC_INFO_REC_SIZE = 132;
    private static final int FUNC_INFO = 136;
    private static final int NR_FUNC_INFO = 144;
    private static final int NR_LINE_INFO = 148;
    private static final int LINE_INFO = 152;
    private static final int JITED_LINE_INFO = 160;
    private static final int NR_JITED_LINE_INFO = 168;
    private static final int LINE_INFO_REC_SIZE = 172;
    private static final int JITED_LINE_INFO_REC_SIZE = 176;
    private static final int NR_PROG_TAGS = 180;
    private static final int PROG_TAGS = 184;

    /** One array of the info: its bit, pointer field, and how its byte size is found. */
    private record Array(int bit, int pointer, int count, int recSize, int fixedRec) {
        long bytes(MemorySegment info) {
            long n = Integer.toUnsignedLong(info.get(ValueLayout.JAVA_INT, count));
            long rec = recSize >= 0 ? Integer.toUnsignedLong(info.get(ValueLayout.JAVA_INT, recSize)) : fixedRec;
            return n * rec;
        }
    }

    /** The arrays perf's record asks for, plus XLATED_INSNS. */
    private static final List<Array> ARRAYS = List.of(
            new Array(BpfProg.JITED_INSNS, JITED_PROG_INSNS, JITED_PROG_LEN, -1, 1),
            new Array(BpfProg.XLATED_INSNS, XLATED_PROG_INSNS, XLATED_PROG_LEN, -1, 1),
            new Array(BpfProg.JITED_KSYMS, JITED_KSYMS, NR_JITED_KSYMS, -1, 8),
            new Array(BpfProg.JITED_FUNC_LENS, JITED_FUNC_LENS, NR_JITED_FUNC_LENS, -1, 4),
            new Array(BpfProg.FUNC_INFO, FUNC_INFO, NR_FUNC_INFO, FUNC_INFO_REC_SIZE, 0),
            new Array(BpfProg.LINE_INFO, LINE_INFO, NR_LINE_INFO, LINE_INFO_REC_SIZE, 0),
            new Array(BpfProg.JITED_LINE_INFO, JITED_LINE_INFO, NR_JITED_LINE_INFO, JITED_LINE_INFO_REC_SIZE, 0),
            new Array(BpfProg.PROG_TAGS, PROG_TAGS, NR_PROG_TAGS, -1, 8));

    /** One program: its perf_bpil entry and what the side-band records need. */
    record Prog(long id, byte[] tag, long btfId, long[] ksyms, long[] funcLens, byte[] entry) {
    }

    private final Map<Long, Prog> progs = new LinkedHashMap<>();
    private final Map<Long, byte[]> btfs = new LinkedHashMap<>();

    /** Ids of every loaded program (empty without permission: bpf(2) needs CAP_SYS_ADMIN or CAP_BPF). */
    static List<Long> loadedIds() {
        List<Long> ids = new ArrayList<>();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment attr = a.allocate(12, 8);
            long start = 0;
            while (true) {
                attr.fill((byte) 0);
                attr.set(ValueLayout.JAVA_INT, 0, (int) start);
                try {
                    Sys.bpf(PROG_GET_NEXT_ID, attr);
                } catch (Sys.SysException e) {
                    return ids;
                }
                start = Integer.toUnsignedLong(attr.get(ValueLayout.JAVA_INT, 4));
                ids.add(start);
            }
        }
    }

    /** Asks for program {@code id} once: the program, or null when it is gone or cannot be asked for. */
    Prog add(long id) {
        if (progs.containsKey(id)) {
            return progs.get(id);
        }
        int fd;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment attr = a.allocate(12, 8);
            attr.set(ValueLayout.JAVA_INT, 0, (int) id);
            fd = Sys.bpf(PROG_GET_FD_BY_ID, attr);
        } catch (Sys.SysException e) {
            return null;
        }
        try {
            Prog p = info(id, fd);
            progs.put(id, p);
            if (p.btfId() != 0 && !btfs.containsKey(p.btfId())) {
                byte[] b = btf(p.btfId());
                if (b != null) {
                    btfs.put(p.btfId(), b);
                }
            }
            return p;
        } catch (Sys.SysException e) {
            return null;
        } finally {
            Sys.close(fd);
        }
    }

    List<Prog> programs() {
        return List.copyOf(progs.values());
    }

    private static Prog info(long id, int fd) {
        try (Arena a = Arena.ofConfined()) {
            int size = BpfProg.Info.SIZE;
            MemorySegment sizes = a.allocate(size, 8);
            getInfo(fd, sizes);
            long[] off = new long[ARRAYS.size()];
            long dataLen = 0;
            long arrays = 0;
            for (int i = 0; i < ARRAYS.size(); i++) {
                long n = ARRAYS.get(i).bytes(sizes);
                off[i] = dataLen;
                if (n > 0) {
                    arrays |= 1L << ARRAYS.get(i).bit();
                    dataLen += (n + 7) & ~7L;
                }
            }
            MemorySegment data = a.allocate(Math.max(8, dataLen), 8);
            MemorySegment info = a.allocate(size, 8);
            // counts and record sizes as the first call gave them, each array pointed into data
            for (Array arr : ARRAYS) {
                info.set(ValueLayout.JAVA_INT, arr.count(), sizes.get(ValueLayout.JAVA_INT, arr.count()));
                if (arr.recSize() >= 0) {
                    info.set(ValueLayout.JAVA_INT, arr.recSize(), sizes.get(ValueLayout.JAVA_INT, arr.recSize()));
                }
            }
            for (int i = 0; i < ARRAYS.size(); i++) {
                if ((arrays & (1L << ARRAYS.get(i).bit())) != 0) {
                    info.set(ValueLayout.JAVA_LONG, ARRAYS.get(i).pointer(), data.address() + off[i]);
                }
            }
            info.set(ValueLayout.JAVA_INT, NR_MAP_IDS, 0);
            getInfo(fd, info);
            // a program whose arrays grew between the calls (it cannot: programs are immutable) would be cut
            byte[] infoBytes = info.toArray(ValueLayout.JAVA_BYTE);
            ByteBuffer ib = ByteBuffer.wrap(infoBytes).order(ByteOrder.nativeOrder());
            for (int i = 0; i < ARRAYS.size(); i++) {
                Array arr = ARRAYS.get(i);
                ib.putLong(arr.pointer(), (arrays & (1L << arr.bit())) != 0 ? off[i] : 0);
            }
            ByteBuffer e = ByteBuffer.allocate(16 + size + (int) dataLen).order(ByteOrder.nativeOrder());
            e.putInt(size).putInt((int) dataLen).putLong(arrays).put(infoBytes);
            e.put(data.asSlice(0, dataLen).toArray(ValueLayout.JAVA_BYTE));
            int nk = info.get(ValueLayout.JAVA_INT, NR_JITED_KSYMS);
            int nl = info.get(ValueLayout.JAVA_INT, NR_JITED_FUNC_LENS);
            long[] ksyms = new long[nk];
            long[] lens = new long[nl];
            for (int k = 0; k < nk; k++) {
                ksyms[k] = data.get(ValueLayout.JAVA_LONG, off[2] + 8L * k);
            }
            for (int k = 0; k < nl; k++) {
                lens[k] = Integer.toUnsignedLong(data.get(ValueLayout.JAVA_INT, off[3] + 4L * k));
            }
            byte[] tag = info.asSlice(TAG, 8).toArray(ValueLayout.JAVA_BYTE);
            return new Prog(id, tag, Integer.toUnsignedLong(info.get(ValueLayout.JAVA_INT, BTF_ID)), ksyms, lens,
                    e.array());
        }
    }

    /** BPF_OBJ_GET_INFO_BY_FD into {@code info}; what the kernel did not fill is zeroed. */
    private static void getInfo(int fd, MemorySegment info) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment attr = a.allocate(16, 8);
            attr.set(ValueLayout.JAVA_INT, 0, fd);
            attr.set(ValueLayout.JAVA_INT, 4, (int) info.byteSize());
            attr.set(ValueLayout.JAVA_LONG, 8, info.address());
            Sys.bpf(OBJ_GET_INFO_BY_FD, attr);
            long len = Integer.toUnsignedLong(attr.get(ValueLayout.JAVA_INT, 4));
            if (len < info.byteSize()) {
                info.asSlice(len).fill((byte) 0);
            }
        }
    }

    /** A BTF object's raw bytes (struct bpf_btf_info: btf, btf_size, id, ...), or null. */
    private static byte[] btf(long id) {
        int fd;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment attr = a.allocate(12, 8);
            attr.set(ValueLayout.JAVA_INT, 0, (int) id);
            fd = Sys.bpf(BTF_GET_FD_BY_ID, attr);
        } catch (Sys.SysException e) {
            return null;
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment info = a.allocate(32, 8);
            getInfo(fd, info);
            int size = info.get(ValueLayout.JAVA_INT, 8);
            MemorySegment buf = a.allocate(Math.max(1, size), 8);
            info.fill((byte) 0);
            info.set(ValueLayout.JAVA_LONG, 0, buf.address());
            info.set(ValueLayout.JAVA_INT, 8, size);
            getInfo(fd, info);
            return buf.asSlice(0, size).toArray(ValueLayout.JAVA_BYTE);
        } catch (Sys.SysException e) {
            return null;
        } finally {
            Sys.close(fd);
        }
    }

    /** The BPF_PROG_INFO section: u32 count, then each program's perf_bpil entry. */
    Feature bpfProgInfo() {
        int len = 4;
        for (Prog p : progs.values()) {
            len += p.entry().length;
        }
        ByteBuffer b = ByteBuffer.allocate(len).order(ByteOrder.nativeOrder());
        b.putInt(progs.size());
        for (Prog p : progs.values()) {
            b.put(p.entry());
        }
        return new Feature.Raw(io.perfj.perfdata.FeatureId.BPF_PROG_INFO, b.array());
    }

    Feature.BpfBtf bpfBtf() {
        List<Feature.BpfBtf.Btf> out = new ArrayList<>();
        btfs.forEach((id, data) -> out.add(new Feature.BpfBtf.Btf(id, data)));
        return new Feature.BpfBtf(List.copyOf(out));
    }

    /**
     * The KSYMBOL and BPF_EVENT records perf synthesizes for a program loaded before recording
     * ({@code perf_event__synthesize_one_bpf_prog}): one KSYMBOL per sub-program, named as perf
     * names it from the program's info and BTF ({@link BpfProg#perfName}: for programs with BTF
     * the name kallsyms shows too), then the program's PROG_LOAD.
     */
    List<byte[]> sideBand(Prog p, int trailer) {
        List<byte[]> out = new ArrayList<>();
        BpfProg info = null;
        try {
            info = BpfProg.decode(p.entry(), ByteOrder.nativeOrder());
        } catch (RuntimeException e) {
            // an entry this recorder wrote always decodes; the names then fall back to the tag
        }
        byte[] rawBtf = p.btfId() != 0 ? btfs.get(p.btfId()) : null;
        io.perfj.bpf.BtfNames btf = rawBtf == null ? null : io.perfj.bpf.BtfNames.parse(rawBtf);
        for (int i = 0; i < p.ksyms().length && i < p.funcLens().length; i++) {
            String name = info != null && i < info.progTags().size() ? info.perfName(btf == null ? null : btf::typeName, i)
                    : "bpf_prog_" + java.util.HexFormat.of().formatHex(p.tag());
            byte[] n = name.getBytes(StandardCharsets.UTF_8);
            int padded = (n.length + 1 + 7) & ~7;
            int size = 8 + 8 + 4 + 2 + 2 + padded + trailer;
            ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.nativeOrder());
            b.putInt(RecordType.KSYMBOL).putShort((short) 0).putShort((short) size);
            b.putLong(p.ksyms()[i]).putInt((int) p.funcLens()[i]).putShort((short) KSYMBOL_TYPE_BPF).putShort((short) 0);
            b.put(n);
            out.add(b.array());
        }
        int size = 8 + 2 + 2 + 4 + 8 + trailer;
        ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.nativeOrder());
        b.putInt(RecordType.BPF_EVENT).putShort((short) 0).putShort((short) size);
        b.putShort((short) BPF_EVENT_PROG_LOAD).putShort((short) 0).putInt((int) p.id()).put(p.tag());
        out.add(b.array());
        return out;
    }
}
