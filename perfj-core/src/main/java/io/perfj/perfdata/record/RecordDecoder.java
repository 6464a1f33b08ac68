package io.perfj.perfdata.record;

import io.perfj.io.Bytes;
import io.perfj.io.Cursor;
import io.perfj.io.FormatException;
import io.perfj.perfdata.EventAttr;
import io.perfj.perfdata.Evlist;
import io.perfj.perfdata.Evsel;
import io.perfj.perfdata.RawRecord;
import io.perfj.perfdata.RecordType;
import io.perfj.perfdata.SampleFormat;
import io.perfj.perfdata.SampleLayout;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Decodes {@link RawRecord}s into {@link PerfRecord}s. Layouts follow the kernel's and perf's
 * structure definitions; fields are read in the file's byte order. Every count is checked
 * against the bytes that remain in the record before anything is allocated, and a record too
 * short for its fields fails with a {@link FormatException} naming the record type and the
 * absolute offset of the field that did not fit.
 *
 * <p>Pairs of u32 fields that share a u64 slot in a sample (pid/tid, cpu/res) are read as two
 * u32 in file order, which is how perf reads them from a file of either byte order.
 */
public final class RecordDecoder {
    /** attr.branch_sample_type bit PERF_SAMPLE_BRANCH_HW_INDEX. */
    public static final long BRANCH_HW_INDEX = 1L << 17;

    private RecordDecoder() {
    }

    public static PerfRecord decode(RawRecord raw, Evlist evlist) {
        Bytes b = raw.bytes().named(RecordType.structure(raw.type()));
        int type = raw.type();
        if (type == RecordType.SAMPLE) {
            if (evlist == null || evlist.isEmpty()) {
                throw Evlist.sampleWithoutEvent(b.source(), raw.offset());
            }
            Evsel e = evlist.evselOf(raw);
            return decodeSample(raw, b, e, evlist.layout(e));
        }
        if (type >= RecordType.USER_TYPE_START) {
            return decodeUser(raw, b);
        }
        if (type <= 0 || type > RecordType.CALLCHAIN_DEFERRED) {
            return new Unknown(raw);
        }
        return decodeKernel(raw, b, evlist);
    }

    // ------------------------------------------------------------------ kernel records

    private static PerfRecord decodeKernel(RawRecord raw, Bytes full, Evlist evlist) {
        Evsel e = evlist == null || evlist.isEmpty() ? null : evlist.evselOf(raw);
        SampleId sid = SampleId.NONE;
        Bytes b = full;
        if (e != null && e.attr().sampleIdAll()) {
            long st = e.attr().sampleType();
            int trailer = SampleFormat.idTrailerSize(st);
            long end = full.size() - trailer;
            if (end < RawRecord.HEADER_SIZE) {
                throw full.error(0, "record of " + full.size() + " bytes is too short for its "
                        + trailer + "-byte sample_id trailer");
            }
            sid = trailer(full, end, st);
            b = full.slice(0, end);
        }
        return switch (raw.type()) {
            // a name is read up to its NUL as perf reads it, into the sample_id trailer when the
            // record holds none before it
            case RecordType.MMAP -> new KernelRecord.Mmap(raw, b.s32(8), b.s32(12), b.u64(16), b.u64(24),
                    b.u64(32), string(full, 40), sid);
            case RecordType.LOST -> new KernelRecord.Lost(raw, b.u64(8), b.u64(16), sid);
            case RecordType.COMM -> new KernelRecord.Comm(raw, b.s32(8), b.s32(12), string(full, 16), sid);
            case RecordType.EXIT -> new KernelRecord.Exit(raw, b.s32(8), b.s32(12), b.s32(16), b.s32(20),
                    b.u64(24), sid);
            case RecordType.FORK -> new KernelRecord.Fork(raw, b.s32(8), b.s32(12), b.s32(16), b.s32(20),
                    b.u64(24), sid);
            case RecordType.THROTTLE -> new KernelRecord.Throttle(raw, b.u64(8), b.u64(16), b.u64(24), sid);
            case RecordType.UNTHROTTLE -> new KernelRecord.Unthrottle(raw, b.u64(8), b.u64(16), b.u64(24), sid);
            case RecordType.READ -> {
                Cursor c = b.cursor(16);
                ReadValues v = readValues(c, e == null ? 0 : e.attr().readFormat());
                yield new KernelRecord.Read(raw, b.s32(8), b.s32(12), v, sid);
            }
            case RecordType.MMAP2 -> mmap2(raw, b, full, sid);
            case RecordType.AUX -> new KernelRecord.Aux(raw, b.u64(8), b.u64(16), b.u64(24), sid);
            case RecordType.ITRACE_START -> new KernelRecord.ItraceStart(raw, b.s32(8), b.s32(12), sid);
            case RecordType.LOST_SAMPLES -> new KernelRecord.LostSamples(raw, b.u64(8), sid);
            case RecordType.SWITCH -> new KernelRecord.Switch(raw, sid);
            case RecordType.SWITCH_CPU_WIDE -> new KernelRecord.SwitchCpuWide(raw, b.s32(8), b.s32(12), sid);
            case RecordType.NAMESPACES -> {
                Cursor c = b.cursor(16);
                int n = c.count(c.u64(), 16, "namespace");
                long[] dev = new long[n];
                long[] ino = new long[n];
                for (int i = 0; i < n; i++) {
                    dev[i] = c.u64();
                    ino[i] = c.u64();
                }
                yield new KernelRecord.Namespaces(raw, b.s32(8), b.s32(12), dev, ino, sid);
            }
            case RecordType.KSYMBOL -> new KernelRecord.Ksymbol(raw, b.u64(8), b.u32(16), b.u16(20), b.u16(22),
                    string(b, 24), sid);
            case RecordType.BPF_EVENT -> new KernelRecord.BpfEvent(raw, b.u16(8), b.u16(10), b.u32(12),
                    b.bytes(16, 8), sid);
            case RecordType.CGROUP -> new KernelRecord.Cgroup(raw, b.u64(8), string(b, 16), sid);
            case RecordType.TEXT_POKE -> {
                int oldLen = b.u16(16);
                int newLen = b.u16(18);
                yield new KernelRecord.TextPoke(raw, b.u64(8), oldLen, newLen, b.slice(20, oldLen + newLen), sid);
            }
            case RecordType.AUX_OUTPUT_HW_ID -> new KernelRecord.AuxOutputHwId(raw, b.u64(8), sid);
            case RecordType.CALLCHAIN_DEFERRED -> {
                Cursor c = b.cursor(8);
                long cookie = c.u64();
                yield new KernelRecord.CallchainDeferred(raw, cookie, callchain(c), sid);
            }
            default -> new Unknown(raw);
        };
    }

    private static KernelRecord.Mmap2 mmap2(RawRecord raw, Bytes b, Bytes full, SampleId sid) {
        int pid = b.s32(8);
        int tid = b.s32(12);
        long start = b.u64(16);
        long len = b.u64(24);
        long pgoff = b.u64(32);
        int prot = b.s32(64);
        int flags = b.s32(68);
        String name = string(full, 72);
        if ((raw.misc() & KernelRecord.MISC_MMAP_BUILD_ID) != 0) {
            int n = Math.min(b.u8(40), 20);
            return new KernelRecord.Mmap2(raw, pid, tid, start, len, pgoff, 0, 0, 0, 0, b.bytes(44, n),
                    prot, flags, name, sid);
        }
        return new KernelRecord.Mmap2(raw, pid, tid, start, len, pgoff, b.s32(40), b.s32(44), b.u64(48),
                b.u64(56), null, prot, flags, name, sid);
    }

    /** Reads the sample_id_all trailer that occupies [end, size) of the record. */
    static SampleId trailer(Bytes b, long end, long st) {
        long p = end;
        int pid = -1;
        int tid = -1;
        long time = -1;
        long id = -1;
        long streamId = -1;
        int cpu = -1;
        int res = 0;
        if ((st & SampleFormat.TID) != 0) {
            pid = b.s32(p);
            tid = b.s32(p + 4);
            p += 8;
        }
        if ((st & SampleFormat.TIME) != 0) {
            time = b.u64(p);
            p += 8;
        }
        if ((st & SampleFormat.ID) != 0) {
            id = b.u64(p);
            p += 8;
        }
        if ((st & SampleFormat.STREAM_ID) != 0) {
            streamId = b.u64(p);
            p += 8;
        }
        if ((st & SampleFormat.CPU) != 0) {
            cpu = b.s32(p);
            res = b.s32(p + 4);
            p += 8;
        }
        if ((st & SampleFormat.IDENTIFIER) != 0) {
            id = b.u64(p);
        }
        return new SampleId(st & SampleFormat.ID_ALL_MASK, pid, tid, time, id, streamId, cpu, res);
    }

    private static String string(Bytes b, long off) {
        if (off > b.size()) {
            throw b.outOfBounds(off, 1);
        }
        return b.cstring(off, b.size() - off);
    }

    // ------------------------------------------------------------------ samples

    private static Sample decodeSample(RawRecord raw, Bytes b, Evsel e, SampleLayout layout) {
        EventAttr a = e.attr();
        long st = a.sampleType();
        Cursor c = b.cursor(RawRecord.HEADER_SIZE);
        long identifier = -1;
        long ip = 0;
        int pid = -1;
        int tid = -1;
        long time = -1;
        long addr = 0;
        long id = -1;
        long streamId = -1;
        int cpu = -1;
        int res = 0;
        long period = a.samplePeriod();
        ReadValues read = null;
        Callchain chain = null;
        Bytes rawData = null;
        BranchStack branch = null;
        Regs userRegs = null;
        UserStack stack = null;
        long weight = 0;
        int insLat = 0;
        int pStage = 0;
        long dataSrc = 0;
        long transaction = 0;
        Regs intrRegs = null;
        long phys = 0;
        long cgroup = 0;
        long dataPage = 0;
        long codePage = 0;
        Bytes aux = null;

        // the fixed-size fields, where the event's layout puts them (bounds-checked reads)
        SampleLayout l = layout;
        if (l.identifier() >= 0) {
            identifier = b.u64(l.identifier());
            id = identifier;
        }
        if (l.ip() >= 0) {
            ip = b.u64(l.ip());
        }
        if (l.tid() >= 0) {
            pid = b.s32(l.tid());
            tid = b.s32(l.tid() + 4);
        }
        if (l.time() >= 0) {
            time = b.u64(l.time());
        }
        if (l.addr() >= 0) {
            addr = b.u64(l.addr());
        }
        if (l.id() >= 0) {
            id = b.u64(l.id());
        }
        if (l.streamId() >= 0) {
            streamId = b.u64(l.streamId());
        }
        if (l.cpu() >= 0) {
            cpu = b.s32(l.cpu());
            res = b.s32(l.cpu() + 4);
        }
        if (l.period() >= 0) {
            period = b.u64(l.period());
        }
        c.skip(l.fixedEnd() - RawRecord.HEADER_SIZE);
        if ((st & SampleFormat.READ) != 0) {
            read = readValues(c, a.readFormat());
        }
        if ((st & SampleFormat.CALLCHAIN) != 0) {
            chain = callchain(c);
        }
        if ((st & SampleFormat.RAW) != 0) {
            long size = c.u32();
            rawData = c.slice(size, "PERF_SAMPLE_RAW data");
        }
        if ((st & SampleFormat.BRANCH_STACK) != 0) {
            long nr = c.u64();
            boolean hasHw = (a.branchSampleType() & BRANCH_HW_INDEX) != 0;
            long hw = hasHw ? c.u64() : -1;
            int n = c.count(nr, 24, "branch stack entry");
            branch = new BranchStack(n, hw, hasHw, c.slice(24L * n, "branch stack entries"));
        }
        if ((st & SampleFormat.REGS_USER) != 0) {
            userRegs = regs(c, a.sampleRegsUser());
        }
        if ((st & SampleFormat.STACK_USER) != 0) {
            int off = (int) c.position();
            long size = c.u64();
            if (size == 0) {
                stack = new UserStack(0, null, 0, off);
            } else {
                c.count(size, 1, "user stack byte");
                Bytes data = c.slice(size, "user stack");
                long dyn = c.u64();
                if (Long.compareUnsigned(dyn, size) > 0) {
                    throw b.error(c.position() - 8, "user stack dyn_size " + Long.toUnsignedString(dyn)
                            + " exceeds the " + size + "-byte stack copy");
                }
                stack = new UserStack(size, data, dyn, off);
            }
        }
        if ((st & (SampleFormat.WEIGHT | SampleFormat.WEIGHT_STRUCT)) != 0) {
            long w = c.u64();
            if ((st & SampleFormat.WEIGHT_STRUCT) != 0) {
                weight = w & 0xffff_ffffL;
                insLat = (int) ((w >>> 32) & 0xffff);
                pStage = (int) ((w >>> 48) & 0xffff);
            } else {
                weight = w;
            }
        }
        if ((st & SampleFormat.DATA_SRC) != 0) {
            dataSrc = c.u64();
        }
        if ((st & SampleFormat.TRANSACTION) != 0) {
            transaction = c.u64();
        }
        if ((st & SampleFormat.REGS_INTR) != 0) {
            intrRegs = regs(c, a.sampleRegsIntr());
        }
        if ((st & SampleFormat.PHYS_ADDR) != 0) {
            phys = c.u64();
        }
        if ((st & SampleFormat.CGROUP) != 0) {
            cgroup = c.u64();
        }
        if ((st & SampleFormat.DATA_PAGE_SIZE) != 0) {
            dataPage = c.u64();
        }
        if ((st & SampleFormat.CODE_PAGE_SIZE) != 0) {
            codePage = c.u64();
        }
        if ((st & SampleFormat.AUX) != 0) {
            long size = c.u64();
            c.count(size, 1, "aux sample byte");
            aux = c.slice(size, "PERF_SAMPLE_AUX data");
        }
        return new Sample(raw, e, st, identifier, ip, pid, tid, time, addr, id, streamId, cpu, res, period, read,
                chain, rawData, branch, userRegs, stack, weight, insLat, pStage, dataSrc, transaction, intrRegs,
                phys, cgroup, dataPage, codePage, aux);
    }

    private static Callchain callchain(Cursor c) {
        long nr = c.u64();
        int n = c.count(nr, 8, "callchain");
        return new Callchain(n, c.slice(8L * n, "callchain"));
    }

    private static Regs regs(Cursor c, long mask) {
        long abi = c.u64();
        if (abi == Regs.ABI_NONE) {
            return new Regs(abi, mask, null);
        }
        int n = Long.bitCount(mask);
        return new Regs(abi, mask, c.slice(8L * n, "sampled registers"));
    }

    /** A read_format block (struct read_format in perf_event.h). */
    static ReadValues readValues(Cursor c, long rf) {
        boolean te = (rf & SampleFormat.FORMAT_TOTAL_TIME_ENABLED) != 0;
        boolean tr = (rf & SampleFormat.FORMAT_TOTAL_TIME_RUNNING) != 0;
        boolean hasId = (rf & SampleFormat.FORMAT_ID) != 0;
        boolean hasLost = (rf & SampleFormat.FORMAT_LOST) != 0;
        long enabled = 0;
        long running = 0;
        if ((rf & SampleFormat.FORMAT_GROUP) != 0) {
            long nr = c.u64();
            if (te) {
                enabled = c.u64();
            }
            if (tr) {
                running = c.u64();
            }
            int entry = 8 * (1 + (hasId ? 1 : 0) + (hasLost ? 1 : 0));
            int n = c.count(nr, entry, "read group value");
            long[] values = new long[n];
            long[] ids = new long[n];
            long[] lost = new long[n];
            Arrays.fill(ids, -1L);
            for (int i = 0; i < n; i++) {
                values[i] = c.u64();
                if (hasId) {
                    ids[i] = c.u64();
                }
                if (hasLost) {
                    lost[i] = c.u64();
                }
            }
            return new ReadValues(rf, true, enabled, running, values, ids, lost);
        }
        long value = c.u64();
        if (te) {
            enabled = c.u64();
        }
        if (tr) {
            running = c.u64();
        }
        long id = hasId ? c.u64() : -1;
        long lost = hasLost ? c.u64() : 0;
        return new ReadValues(rf, false, enabled, running, new long[] {value}, new long[] {id}, new long[] {lost});
    }

    // ------------------------------------------------------------------ perf's own records

    private static PerfRecord decodeUser(RawRecord raw, Bytes b) {
        return switch (raw.type()) {
            case RecordType.HEADER_ATTR -> {
                Bytes body = b.slice(8, b.size() - 8);
                EventAttr attr = EventAttr.read(body);
                Cursor c = body.cursor(attr.size());
                int n = (int) (c.remaining() / 8);
                long[] ids = new long[n];
                for (int i = 0; i < n; i++) {
                    ids[i] = c.u64();
                }
                yield new UserRecord.HeaderAttr(raw, attr, ids);
            }
            case RecordType.HEADER_EVENT_TYPE -> new UserRecord.EventType(raw, b.u64(8),
                    b.cstring(16, Math.min(64, Math.max(0, b.size() - 16))));
            case RecordType.HEADER_TRACING_DATA -> new UserRecord.TracingData(raw, b.u32(8));
            case RecordType.HEADER_BUILD_ID -> {
                int size = (raw.misc() & (1 << 15)) != 0 ? Math.min(b.u8(32), 20) : 20;
                b.check(12, 24);
                yield new UserRecord.BuildId(raw, b.s32(8), b.bytes(12, size), string(b, 36));
            }
            case RecordType.FINISHED_ROUND -> new UserRecord.FinishedRound(raw);
            case RecordType.ID_INDEX -> idIndex(raw, b);
            case RecordType.AUXTRACE_INFO -> new UserRecord.AuxtraceInfo(raw, b.s32(8),
                    b.slice(16, Math.max(0, b.size() - 16)));
            case RecordType.AUXTRACE -> new UserRecord.Auxtrace(raw, b.u64(8), b.u64(16), b.u64(24), b.s32(32),
                    b.s32(36), b.s32(40));
            case RecordType.AUXTRACE_ERROR -> {
                int fmt = b.s32(28);
                String msg = b.cstring(48, 64);
                boolean v2 = fmt >= 2 && b.has(112, 8);
                yield new UserRecord.AuxtraceError(raw, b.s32(8), b.s32(12), b.s32(16), b.s32(20), b.s32(24), fmt,
                        b.u64(32), fmt >= 1 ? b.u64(40) : 0, msg, v2 ? b.s32(112) : 0, v2 ? b.s32(116) : 0);
            }
            case RecordType.THREAD_MAP -> {
                Cursor c = b.cursor(8);
                int n = c.count(c.u64(), 24, "thread map entry");
                List<UserRecord.ThreadMap.Entry> list = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    long pid = c.u64();
                    list.add(new UserRecord.ThreadMap.Entry(pid, c.cstring(16)));
                }
                yield new UserRecord.ThreadMap(raw, List.copyOf(list));
            }
            case RecordType.CPU_MAP -> {
                Bytes data = b.slice(8, b.size() - 8);
                int enc = data.u16(0);
                yield new UserRecord.CpuMap(raw, enc, cpuMap(data));
            }
            case RecordType.STAT_CONFIG -> {
                Cursor c = b.cursor(8);
                int n = c.count(c.u64(), 16, "stat config entry");
                long[] tags = new long[n];
                long[] vals = new long[n];
                for (int i = 0; i < n; i++) {
                    tags[i] = c.u64();
                    vals[i] = c.u64();
                }
                yield new UserRecord.StatConfig(raw, tags, vals);
            }
            case RecordType.STAT -> new UserRecord.Stat(raw, b.u64(8), b.s32(16), b.s32(20), b.u64(24), b.u64(32),
                    b.u64(40));
            case RecordType.STAT_ROUND -> new UserRecord.StatRound(raw, b.u64(8), b.u64(16));
            case RecordType.EVENT_UPDATE -> eventUpdate(raw, b);
            case RecordType.TIME_CONV -> {
                boolean ext = b.size() >= 56;
                yield new UserRecord.TimeConv(raw, b.u64(8), b.u64(16), b.u64(24), ext ? b.u64(32) : 0,
                        ext ? b.u64(40) : 0, ext && b.u8(48) != 0, ext && b.u8(49) != 0, ext);
            }
            case RecordType.HEADER_FEATURE -> new UserRecord.HeaderFeature(raw, b.u64(8),
                    b.slice(16, Math.max(0, b.size() - 16)));
            case RecordType.COMPRESSED -> new UserRecord.Compressed(raw, b.slice(8, b.size() - 8));
            case RecordType.FINISHED_INIT -> new UserRecord.FinishedInit(raw);
            case RecordType.COMPRESSED2 -> {
                long size = b.u64(8);
                if (size < 0 || size > b.size() - 16) {
                    throw b.error(8, "data size " + Long.toUnsignedString(size) + " exceeds the record");
                }
                yield new UserRecord.Compressed2(raw, size, b.slice(16, size));
            }
            default -> new Unknown(raw);
        };
    }

    private static UserRecord.IdIndex idIndex(RawRecord raw, Bytes b) {
        Cursor c = b.cursor(8);
        int n = c.count(c.u64(), 32, "id index entry");
        boolean e2 = b.size() >= 16 + 48L * n;
        long e2Base = 16 + 32L * n;
        List<UserRecord.IdIndex.Entry> list = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            long mp = e2 ? b.u64(e2Base + 16L * i) : 0;
            long vcpu = e2 ? b.u64(e2Base + 16L * i + 8) : 0;
            list.add(new UserRecord.IdIndex.Entry(c.u64(), c.u64(), c.u64(), c.u64(), mp, vcpu));
        }
        return new UserRecord.IdIndex(raw, List.copyOf(list), e2 && n > 0);
    }

    private static UserRecord.EventUpdate eventUpdate(RawRecord raw, Bytes b) {
        long t = b.u64(8);
        long id = b.u64(16);
        long dataLen = Math.max(0, b.size() - 24);
        if (t == UserRecord.EventUpdate.UNIT || t == UserRecord.EventUpdate.NAME) {
            return new UserRecord.EventUpdate(raw, t, id, b.cstring(24, dataLen), 0, null);
        }
        if (t == UserRecord.EventUpdate.SCALE) {
            return new UserRecord.EventUpdate(raw, t, id, null, Double.longBitsToDouble(b.u64(24)), null);
        }
        if (t == UserRecord.EventUpdate.CPUS) {
            return new UserRecord.EventUpdate(raw, t, id, null, 0, cpuMap(b.slice(24, dataLen)));
        }
        return new UserRecord.EventUpdate(raw, t, id, null, 0, null);
    }

    /**
     * A {@code perf_record_cpu_map_data} (packed): u16 type, then a CPU list (u16 nr, u16 cpu[]),
     * a bitmap (u16 nr, u16 long_size, masks of 4 bytes from +6 or 8 bytes from +10) or a range
     * (u8 any_cpu, u8 pad, u16 start, u16 end).
     */
    public static int[] cpuMap(Bytes d) {
        int enc = d.u16(0);
        switch (enc) {
            case UserRecord.CpuMap.CPUS -> {
                int nr = d.u16(2);
                d.check(4, 2L * nr);
                int[] cpus = new int[nr];
                for (int i = 0; i < nr; i++) {
                    int v = d.u16(4 + 2L * i);
                    cpus[i] = v == 0xffff ? -1 : v;
                }
                return cpus;
            }
            case UserRecord.CpuMap.MASK -> {
                int nr = d.u16(2);
                int longSize = d.u16(4);
                long start;
                if (longSize == 4) {
                    start = 6;
                } else if (longSize == 8) {
                    start = 10;
                } else {
                    throw d.error(4, "cpu map mask word size " + longSize + " is neither 4 nor 8");
                }
                d.check(start, (long) nr * longSize);
                int count = 0;
                for (int i = 0; i < nr; i++) {
                    long w = longSize == 4 ? d.u32(start + 4L * i) : d.u64(start + 8L * i);
                    count += Long.bitCount(w);
                }
                int[] cpus = new int[count];
                int k = 0;
                for (int i = 0; i < nr; i++) {
                    long w = longSize == 4 ? d.u32(start + 4L * i) : d.u64(start + 8L * i);
                    while (w != 0) {
                        int bit = Long.numberOfTrailingZeros(w);
                        cpus[k++] = i * longSize * 8 + bit;
                        w &= w - 1;
                    }
                }
                return cpus;
            }
            case UserRecord.CpuMap.RANGE_CPUS -> {
                boolean any = d.u8(2) != 0;
                int lo = d.u16(4);
                int hi = d.u16(6);
                if (hi < lo) {
                    throw d.error(4, "cpu range " + lo + "-" + hi + " is empty");
                }
                int n = hi - lo + 1 + (any ? 1 : 0);
                int[] cpus = new int[n];
                int k = 0;
                if (any) {
                    cpus[k++] = -1;
                }
                for (int cpu = lo; cpu <= hi; cpu++) {
                    cpus[k++] = cpu;
                }
                return cpus;
            }
            default -> throw d.error(0, "unknown cpu map encoding " + enc);
        }
    }
}
