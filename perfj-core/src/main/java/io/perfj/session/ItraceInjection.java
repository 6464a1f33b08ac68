package io.perfj.session;

import io.perfj.intelpt.IntelPtInfo;
import io.perfj.intelpt.PtBuffer;
import io.perfj.intelpt.PtErrors;
import io.perfj.intelpt.PtEvent;
import io.perfj.intelpt.PtQueueRunner;
import io.perfj.intelpt.PtSynthOptions;
import io.perfj.io.Bytes;
import io.perfj.perfdata.EventAttr;
import io.perfj.perfdata.Evsel;
import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.RawRecord;
import io.perfj.perfdata.RecordType;
import io.perfj.perfdata.SampleFormat;
import io.perfj.perfdata.record.Callchain;
import io.perfj.perfdata.record.KernelRecord;
import io.perfj.perfdata.record.PerfRecord;
import io.perfj.perfdata.record.RecordDecoder;
import io.perfj.perfdata.record.Sample;
import io.perfj.perfdata.record.UserRecord;
import io.perfj.symbols.Machine;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What perf's Intel PT decoder adds to a recording's samples (util/intel-pt.c), without writing
 * anything: the trace of the PERF_RECORD_AUXTRACE payloads is decoded ({@link PtQueueRunner}) in
 * step with the records, and the samples it synthesizes (branches, psb, cbr, ...) come to the
 * handler among the recorded ones, of events of their own named as perf names them, and its
 * errors as PERF_RECORD_AUXTRACE_ERROR records. The traced code is not read
 * ({@link PerfNoTracedCode}): where the decoder needs it, it reports the error perf reports when
 * the traced binaries are missing and resyncs.
 *
 * <p>Where the payloads come from: in a file, all of them are queued before the first record
 * (perf queues them from the AUXTRACE index); in a pipe, each as its record is read.
 */
final class ItraceInjection {
    /** perf's PERF_TYPE_SYNTH. */
    static final int TYPE_SYNTH = 0x8000_0000;
    static final int SYNTH_PTWRITE = 0;
    static final int SYNTH_CBR = 5;
    static final int SYNTH_PSB = 6;
    private static final int HW_INSTRUCTIONS = 1;
    private static final int HW_BRANCH_INSTRUCTIONS = 4;
    private static final long ID_OFFSET = 1_000_000_000L;
    private static final int MAX_PACKET_WARNINGS = 10;

    private final PerfData data;
    private final Machine machine;
    private final PtSynthOptions opts;
    private IntelPtInfo info;
    private PtQueueRunner runner;
    private final PerfNoTracedCode code;
    private final Map<Integer, String> names = new HashMap<>();
    private Evsel branches;
    private Evsel instructions;
    private Evsel transactions;
    private Evsel cbr;
    private Evsel psb;
    private final List<PerfRecord> pending = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();
    private int errors;
    private int packetWarnings;
    private long cbr2khz;

    private ItraceInjection(PerfData data, Machine machine, PtSynthOptions opts) {
        this.data = data;
        this.machine = machine;
        this.opts = opts;
        // perf report (the mode that adds callchains to recorded samples) counts the kernel's failures anew
        this.code = new PerfNoTracedCode(machine, !opts.addCallchain());
    }

    /** The injection for {@code data}, or null when synthesizing is off. */
    static ItraceInjection of(PerfData data, Machine machine, PtSynthOptions opts) {
        if (opts == null) {
            return null;
        }
        ItraceInjection j = new ItraceInjection(data, machine, opts);
        if (!data.isPipe() && data.header().hasFeature(io.perfj.perfdata.FeatureId.AUXTRACE)) {
            j.queueFromFile();
        }
        return j;
    }

    /** Whether there is trace to decode (so far: a pipe may bring it later). */
    boolean any() {
        return runner != null;
    }

    /** Event names of the synthesized events, by event index. */
    Map<Integer, String> names() {
        return names;
    }

    /** The synthesized error count and what damaged trace met. */
    List<String> warnings() {
        List<String> all = new ArrayList<>(warnings);
        if (packetWarnings > MAX_PACKET_WARNINGS) {
            all.add(data.name() + ": " + (packetWarnings - MAX_PACKET_WARNINGS) + " more Intel PT decoder errors at bad packets");
        }
        if (errors > 0) {
            all.add("Warning:\n" + errors + " instruction trace errors");
        }
        return all;
    }

    private void queueFromFile() {
        io.perfj.perfdata.RecordInput in = data.records();
        for (RawRecord r = in.next(); r != null; r = in.next()) {
            if (r.type() == RecordType.AUXTRACE_INFO || r.type() == RecordType.AUXTRACE) {
                PerfRecord rec = RecordDecoder.decode(r, data.evlist());
                queue(rec);
            }
        }
    }

    /** A record as the session reads it, before the model: AUXTRACE_INFO and AUXTRACE set the decoder up. */
    private void queue(PerfRecord r) {
        if (r instanceof UserRecord.AuxtraceInfo a && runner == null && a.auxType() == IntelPtInfo.AUX_TYPE) {
            IntelPtInfo.read(a.priv()).ifPresent(this::start);
        } else if (r instanceof UserRecord.Auxtrace a && runner != null) {
            Bytes payload = data.auxtracePayload(a.raw(), a.auxSize());
            if (payload != null) {
                runner.add(a.idx(), new PtBuffer(payload.bytes(0, payload.size()), a.reference(), a.raw().offset(),
                        a.cpu(), a.tid()));
            }
        }
    }

    private void start(IntelPtInfo i) {
        Evsel pt = null;
        for (Evsel e : data.evlist().evsels()) {
            if (e.attr().type() == i.pmuType() && e.ids().length > 0) {
                pt = e;
                break;
            }
        }
        if (pt == null) {
            return;
        }
        info = i;
        boolean timeless = !i.capUserTimeZero() || i.tscBit() == 0 || (pt.attr().config() & i.tscBit()) == 0;
        for (Evsel e : data.evlist().evsels()) {
            if ((e.attr().sampleType() & SampleFormat.TIME) == 0) {
                timeless = true;
            }
        }
        cbr2khz = i.maxNonTurboRatio() == 0 ? 0 : i.tscFrequency() / i.maxNonTurboRatio() / 1000;
        addEvsels(pt, timeless);
        PtSynthOptions o = opts.periodNs() ? opts.inTicks(i.nsToTicks(opts.period())) : opts;
        runner = new PtQueueRunner(i, pt.attr().config(), timeless, o, q -> code.walker(q), this::deliver);
    }

    private void addEvsels(Evsel pt, boolean timeless) {
        EventAttr a = pt.attr();
        long st = a.sampleType() | SampleFormat.IP | SampleFormat.TID | SampleFormat.PERIOD;
        st = timeless ? st & ~SampleFormat.TIME : st | SampleFormat.TIME;
        if (!info.perCpuMmaps()) {
            st &= ~SampleFormat.CPU;
        }
        // exclude_user .. exclude_hv (bits 4-6), exclude_host, exclude_guest (19, 20), sample_id_all (18)
        long flags = a.flags() & (0x70L | (1L << 18) | (1L << 19) | (1L << 20));
        long id = pt.ids()[0] + ID_OFFSET;
        if (opts.branches()) {
            branches = add(0, HW_BRANCH_INSTRUCTIONS, 1, st | SampleFormat.ADDR, flags, a.readFormat(), id++, "branches");
        }
        if (opts.callchain()) {
            st |= SampleFormat.CALLCHAIN;
        }
        if (opts.instructions()) {
            long period = opts.periodNs() ? info.nsToTicks(opts.period()) : opts.period();
            instructions = add(0, HW_INSTRUCTIONS, period, st, flags, a.readFormat(), id++, "instructions");
        }
        st &= ~SampleFormat.PERIOD;
        if (opts.transactions()) {
            transactions = add(0, HW_INSTRUCTIONS, 1, st, flags, a.readFormat(), id++, "transactions");
        }
        st |= SampleFormat.RAW;
        if (opts.ptwrites()) {
            add(TYPE_SYNTH, SYNTH_PTWRITE, 1, st, flags, a.readFormat(), id++, "ptwrite");
        }
        if (opts.pwrEvents()) {
            cbr = add(TYPE_SYNTH, SYNTH_CBR, 1, st, flags, a.readFormat(), id++, "cbr");
            psb = add(TYPE_SYNTH, SYNTH_PSB, 1, st, flags, a.readFormat(), id++, "psb");
        }
    }

    private Evsel add(int type, long config, long period, long sampleType, long flags, long readFormat, long id,
                      String name) {
        EventAttr attr = new EventAttr(type, EventAttr.SIZE_VER8, config, period, sampleType, readFormat, flags, 0, 0,
                0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        data.evlist().add(attr, new long[] {id});
        Evsel e = data.evlist().evsels().getLast();
        names.put(e.index(), name);
        return e;
    }

    // ------------------------------------------------------------------ in step with the records

    /** Before a sample with this time is delivered: the trace up to it. */
    void beforeSample(long time, RecordHandler h, SampleRef ref) {
        if (runner != null) {
            runner.process(time);
            drain(h, ref);
        }
    }

    /** Before {@code r} is delivered: the trace up to its time, and the sideband it carries. */
    void before(PerfRecord r, long time, RecordHandler h, SampleRef ref) {
        if (runner == null) {
            queue(r);
            if (runner == null) {
                return;
            }
        } else if (data.isPipe()) {
            queue(r);
        }
        runner.process(time);
        drain(h, ref);
        switch (r) {
            case KernelRecord.SwitchCpuWide s -> runner.contextSwitch(s.sampleId().cpu(), s.out(), true,
                    s.nextPrevPid(), s.nextPrevTid(), s.sampleId().pid(), s.sampleId().tid());
            case KernelRecord.Switch s -> runner.contextSwitch(s.sampleId().cpu(), s.out(), false, -1, -1,
                    s.sampleId().pid(), s.sampleId().tid());
            case KernelRecord.ItraceStart s -> runner.itraceStart(s.sampleId().cpu(), s.pid(), s.tid());
            case KernelRecord.Exit e -> {
                runner.exit(e.tid());
                drain(h, ref);
            }
            case KernelRecord.Mmap2 m -> code.mapped(m.pid(), m.filename(), m.prot());
            case KernelRecord.Mmap m -> code.mapped(m.pid(), m.filename(), io.perfj.symbols.Map.PROT_EXEC);
            case KernelRecord.Comm c when (c.raw().misc() & Machine.MISC_FORK_EXEC) != 0 -> code.exec(c.pid());
            default -> {
            }
        }
    }

    /** After the last record. */
    void flush(RecordHandler h, SampleRef ref) {
        if (runner != null) {
            runner.flush();
            drain(h, ref);
        }
    }

    private void drain(RecordHandler h, SampleRef ref) {
        for (PerfRecord r : pending) {
            if (r instanceof Sample s) {
                ref.at(s);
                h.sample(ref);
            } else {
                h.record(r);
            }
        }
        pending.clear();
    }

    private void deliver(PtEvent e) {
        switch (e.kind()) {
            case ERROR -> error(e);
            case BRANCH -> sample(branches, e, null);
            case INSTRUCTION -> sample(instructions, e, null);
            case TRANSACTION -> sample(transactions, e, null);
            case PSB -> {
                byte[] raw = new byte[12];
                putLong(raw, 4, e.psbOffset());
                sample(psb, e, raw);
            }
            case CBR -> {
                byte[] raw = new byte[12];
                long flags = (e.cbrPayload() & 0xffff) | (info.maxNonTurboRatio() << 16);
                putInt(raw, 0, flags);
                putInt(raw, 4, (flags & 0xff) * cbr2khz);
                sample(cbr, e, raw);
            }
            case PTWRITE -> {
            }
        }
    }

    private void sample(Evsel ev, PtEvent e, byte[] raw) {
        if (ev == null) {
            return;
        }
        int cpumode = e.kernel() ? Machine.CPUMODE_KERNEL : Machine.CPUMODE_USER;
        RawRecord rr = new RawRecord(-1, RecordType.SAMPLE, cpumode, EMPTY, false);
        long st = ev.attr().sampleType();
        Bytes rawData = raw == null ? null : Bytes.of(raw, ByteOrder.LITTLE_ENDIAN, data.name(), "perf_synth");
        long id = ev.ids()[0];
        pending.add(new Sample(rr, ev, st, id, e.ip(), e.pid(), e.tid(), e.time(), e.addr(), id, id, e.cpu(), 0,
                e.period(), null, callchain(e.callchain()), rawData, null, null, null, 0, 0, 0, 0, 0, null, 0, 0, 0, 0,
                null));
    }

    private Callchain callchain(long[] ips) {
        if (ips == null) {
            return null;
        }
        byte[] b = new byte[ips.length * 8];
        for (int i = 0; i < ips.length; i++) {
            putLong(b, 8 * i, ips[i]);
        }
        return new Callchain(ips.length, Bytes.of(b, ByteOrder.LITTLE_ENDIAN, data.name(), "callchain"));
    }

    /**
     * A recorded sample, with the callchain perf report adds from the thread stack when it has
     * none (add_callchain); itself otherwise.
     */
    Sample withCallchain(Sample s) {
        if (runner == null || !opts.addCallchain() || s.callchain() != null && s.callchain().nr() > 0
                || names.containsKey(s.evsel().index())) {
            return s;
        }
        return new Sample(s.raw(), s.evsel(), s.sampleType() | SampleFormat.CALLCHAIN, s.identifier(), s.ip(), s.pid(),
                s.tid(), s.time(), s.addr(), s.id(), s.streamId(), s.cpu(), s.res(), s.period(), s.read(),
                callchain(runner.lateCallchain(s.tid(), s.ip())), s.rawData(), s.branchStack(), s.userRegs(),
                s.userStack(), s.weight(), s.insLat(), s.pStageCyc(), s.dataSrc(), s.transaction(), s.intrRegs(),
                s.physAddr(), s.cgroup(), s.dataPageSize(), s.codePageSize(), s.aux());
    }

    private static final Bytes EMPTY = Bytes.of(new byte[0], ByteOrder.LITTLE_ENDIAN, "synthesized", "sample");

    private void error(PtEvent e) {
        errors++;
        if (e.code() == PtErrors.BADPKT && e.buffer() != null && packetWarnings++ < MAX_PACKET_WARNINGS) {
            warnings.add(data.name() + ": Intel PT trace of the PERF_RECORD_AUXTRACE at offset 0x"
                    + Long.toHexString(e.buffer().recordOffset()) + ": bad packet at offset 0x"
                    + Long.toHexString(e.bufferOffset()) + " of its " + e.buffer().data().length
                    + " bytes; decoding resumes after it");
        }
        RawRecord rr = new RawRecord(-1, RecordType.AUXTRACE_ERROR, 0, EMPTY, false);
        pending.add(new UserRecord.AuxtraceError(rr, 1, e.code(), e.cpu(), e.pid(), e.tid(), 1, e.ip(), e.time(),
                PtErrors.message(e.code()), 0, -1));
    }

    private static void putLong(byte[] b, int at, long v) {
        for (int i = 0; i < 8; i++) {
            b[at + i] = (byte) (v >>> (8 * i));
        }
    }

    private static void putInt(byte[] b, int at, long v) {
        for (int i = 0; i < 4; i++) {
            b[at + i] = (byte) (v >>> (8 * i));
        }
    }
}
