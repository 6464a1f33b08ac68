package io.perfj.print;

import io.perfj.io.TextOut;

import io.perfj.intelpt.IntelPtInfo;
import io.perfj.intelpt.PtPacketDump;
import io.perfj.io.Bytes;
import io.perfj.perfdata.EventAttr;
import io.perfj.perfdata.Evlist;
import io.perfj.perfdata.Evsel;
import io.perfj.perfdata.FeatureId;
import io.perfj.perfdata.PerfData;
import io.perfj.session.MachineResolver;
import io.perfj.session.Session;
import io.perfj.perfdata.PerfHeader;
import io.perfj.perfdata.RawRecord;
import io.perfj.perfdata.RecordInput;
import io.perfj.perfdata.RecordType;
import io.perfj.perfdata.SampleFormat;
import io.perfj.perfdata.feature.RecordedArch;
import io.perfj.perfdata.record.BranchStack;
import io.perfj.perfdata.record.Callchain;
import io.perfj.perfdata.record.KernelRecord;
import io.perfj.perfdata.record.PerfRecord;
import io.perfj.perfdata.record.ReadValues;
import io.perfj.perfdata.record.RecordDecoder;
import io.perfj.perfdata.record.Regs;
import io.perfj.perfdata.record.Sample;
import io.perfj.perfdata.record.SampleId;
import io.perfj.perfdata.record.Unknown;
import io.perfj.perfdata.record.UserRecord;

import java.io.OutputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Prints every record the way {@code perf report -D} (perf 6.1) does: records in perf's delivery
 * order ({@link PerfData#orderedRecords()}), each with its offset/size/type line, the raw hex dump
 * and the decoded line(s), and at the end the stats block ({@link StatsPrinter}).
 *
 * <p>Lines perf derives from its thread/map model rather than from the file: {@code " ... thread:
 * COMM:TID"} and {@code " ...... dso: NAME"} after each sample are printed when the records are
 * read through a {@link Session} ({@link #print(Session)}), whose process model answers them;
 * not printed:
 * <ul>
 *   <li>for a PERF_SAMPLE_READ group sample, perf's extra thread/dso pair per group member;</li>
 *   <li>the symbol perf resolves for a PERF_RECORD_TEXT_POKE address (perfj prints the bare
 *       address);</li>
 *   <li>the LBR call-stack lines perf adds to callchains of events with branch call-stack
 *       sampling, which need perf's callchain stitching.</li>
 * </ul>
 * Everything else aims to be byte-identical. COMPRESSED records are counted in the stats but not
 * printed (perf prints only the records they hold, at the compressed record's offset). In pipe
 * mode offsets count from the end of the 16-byte pipe header and the file is named "pipe", as
 * perf prints them.
 */
public final class DumpPrinter {

    private final PerfData data;
    private final HeaderLayout layout;
    private final String fileLabel;
    private final TextOut out;
    private final EventStats stats = new EventStats();
    private Boolean branchMode;
    private final Map<Long, String> updateNames = new HashMap<>();
    private final long offsetBase;
    private final byte[] scratch = new byte[65536];
    private int attrsSeen;
    private String[] regNames;
    private List<String> readNames;
    private int updateNamesSeen;
    /** Whether an Intel PT AUXTRACE_INFO came: perf then dumps the packets of each trace buffer. */
    private boolean intelPt;

    /** The session whose process model gives perf's thread and DSO lines, or null for none. */
    private Session session;

    /**
     * @param fileLabel the input name as the user gave it (perf prints {@code -i}'s argument);
     *                  replaced by "pipe" for pipe-mode data
     */
    public DumpPrinter(PerfData data, String fileLabel, OutputStream w) {
        this(data, fileLabel, w, HeaderLayout.CURRENT);
    }

    /** A printer whose closing stats follow {@code layout} (perf 6.1's or 7.2's widths). */
    public DumpPrinter(PerfData data, String fileLabel, OutputStream w, HeaderLayout layout) {
        this.layout = layout;
        this.data = data;
        this.fileLabel = data.isPipe() ? "pipe" : fileLabel;
        this.out = new TextOut(w, 1 << 16);
        this.offsetBase = data.isPipe() ? PerfHeader.PIPE_HEADER_SIZE : 0;
    }

    /**
     * Prints the whole dump with perf's thread and DSO line after each sample, reading the
     * records through {@code session}, whose process model gives those lines; its
     * {@link Session#warnings()} then hold what the reading and the model met. The session must
     * be over this printer's recording and not yet run.
     */
    public void print(Session session) {
        this.session = session;
        boolean unordered = begin();
        try {
            session.runRecords(this::record, unordered);
        } finally {
            out.flushBuffer();
        }
        end();
    }

    /**
     * Prints the whole dump without the lines that come from perf's process model (for tests of
     * the record layouts); returns the warnings the reader met.
     */
    public List<String> print() {
        boolean unordered = begin();
        RecordInput in = unordered ? data.records() : data.orderedRecords();
        try {
            for (RawRecord r = in.next(); r != null; r = in.next()) {
                record(r);
            }
        } finally {
            out.flushBuffer();
        }
        end();
        return in.warnings();
    }

    /** The lines before the records; whether the records are read in file order. */
    private boolean begin() {
        // Without sample_id_all perf cannot order by time and reads in file order.
        boolean unordered = !data.isPipe() && !data.evlist().isEmpty() && !data.evlist().first().attr().sampleIdAll();
        if (unordered) {
            out.str("WARNING: No sample_id_all support, falling back to unordered processing\n");
        }
        out.str("# To display the perf.data header info, please use --header/--header-only options.\n#\n");
        return unordered;
    }

    private void end() {
        StatsPrinter.print(stats, io.perfj.perfdata.feature.EventNames.names(data, updateNames),
                StatsPrinter.hasAuxtrace(data), out, layout.statsNameWidth());
        out.flush();
    }

    /** Prints one record as {@link #print()} would (for tests); output stays buffered. */
    void printRecord(RawRecord r) {
        record(r);
    }

    /**
     * Prints one record ({@link RawRecord#count()} times: each round of a run, as perf prints
     * them); returns it decoded, or null for a compressed record (its contents follow it).
     */
    private PerfRecord record(RawRecord r) {
        stats.countRead(r);
        int type = r.type();
        if (type == RecordType.COMPRESSED || type == RecordType.COMPRESSED2) {
            return null;
        }
        PerfRecord rec = null;
        for (int i = 0; i < r.count(); i++) {
            rec = print(r, rec);
        }
        return rec;
    }

    /** Prints a record, decoding it after its raw bytes are out unless {@code decoded} is given; returns it decoded. */
    private PerfRecord print(RawRecord r, PerfRecord decoded) {
        int type = r.type();
        long off = r.offset() - offsetBase;
        out.nl().hexAlt(off).ch('@').str(fileLabel).str(" [").hexAlt(r.size()).str("]: event: ").dec(type).nl();
        hexDump(r);
        PerfRecord rec = decoded != null ? decoded : RecordDecoder.decode(r, data.evlist());
        Evlist ev = data.evlist();
        if (type == RecordType.HEADER_ATTR) {
            // perf prints the record before it adds the attr to its event list
            tstamp(rec, ev, attrsSeen);
            attrsSeen++;
        } else {
            tstamp(rec, ev, data.isPipe() ? attrsSeen : ev.evsels().size());
        }
        out.hexAlt(off).str(" [").hexAlt(r.size()).str("]: PERF_RECORD_").str(RecordType.name(type));
        body(rec);
        if (session != null && rec instanceof Sample smp) {
            // perf's thread and map lookups (machine__findnew_thread, thread__find_map); the
            // session feeds other records to the model after this returns
            MachineResolver m = session.resolver();
            out.str(" ... thread: ").str(m.comm(smp.pid(), smp.tid())).ch(':').dec(smp.tid()).nl();
            out.str(" ...... dso: ").str(dsoName(m, smp, layout.vdsoCopy())).nl();
        }
        return rec;
    }

    /** The long name of the object the sample's ip falls in, or perf's {@code <not found>}. */
    private static String dsoName(MachineResolver m, Sample s, boolean vdsoCopy) {
        int mode = s.cpumode();
        if (mode == 3) {
            return "[hypervisor]";
        }
        io.perfj.symbols.Map map = m.findMap(s.pid(), s.tid(), mode, s.ip());
        if (map == null || map.dso() == null) {
            return "<not found>";
        }
        io.perfj.symbols.Dso dso = map.dso();
        if (vdsoCopy && dso.kind() == io.perfj.symbols.DsoKind.VDSO && dso.buildId().isEmpty()) {
            // perf 6.1 names a [vdso] the recording has no build-id for after the copy of its
            // own machine's vdso it makes (mkstemp's random suffix); nothing of the recording
            return PERF_VDSO_COPY;
        }
        return dso.longName();
    }

    /** The name perf 6.1 gives its temporary vdso copy, with mkstemp's template in place of the random part. */
    static final String PERF_VDSO_COPY = "/tmp/perf-vdso.so-XXXXXX";

    // ---------------------------------------------------------------- common parts

    private void hexDump(RawRecord r) {
        int size = r.size();
        out.str(".\n. ... raw event: size ").dec(size).str(" bytes\n");
        MemorySegment seg = r.bytes().segment();
        MemorySegment.copy(seg, ValueLayout.JAVA_BYTE, 0, scratch, 0, size);
        for (int line = 0; line < size; line += 16) {
            int n = Math.min(16, size - line);
            byte[] b = out.reserve(80);
            int p = out.pos();
            b[p++] = '.';
            b[p++] = ' ';
            b[p++] = ' ';
            b[p++] = hexDigit(line >>> 12);
            b[p++] = hexDigit(line >>> 8);
            b[p++] = hexDigit(line >>> 4);
            b[p++] = hexDigit(line);
            b[p++] = ':';
            b[p++] = ' ';
            b[p++] = ' ';
            if (n == 16) {
                // a full line (all but a record's last): table lookups, no per-byte branches
                int base = line;
                for (int i = 0; i < 16; i++) {
                    int v = (scratch[base + i] & 0xff) << 1;
                    b[p] = HEX_PAIRS[v];
                    b[p + 1] = HEX_PAIRS[v + 1];
                    b[p + 2] = ' ';
                    p += 3;
                }
                b[p++] = ' ';
                for (int i = 0; i < 16; i++) {
                    b[p++] = SHOWN[scratch[base + i] & 0xff];
                }
                b[p++] = '\n';
                out.pos(p);
                continue;
            }
            for (int i = 0; i < 16; i++) {
                if (i < n) {
                    int v = scratch[line + i] & 0xff;
                    b[p++] = hexDigit(v >>> 4);
                    b[p++] = hexDigit(v);
                } else {
                    b[p++] = ' ';
                    b[p++] = ' ';
                }
                b[p++] = ' ';
            }
            b[p++] = ' ';
            for (int i = 0; i < 16; i++) {
                if (i < n) {
                    int v = scratch[line + i] & 0xff;
                    b[p++] = v >= 0x20 && v < 0x7f ? (byte) v : (byte) '.';
                } else {
                    b[p++] = ' ';
                }
            }
            b[p++] = '\n';
            out.pos(p);
        }
        out.nl();
    }

    /**
     * One callchain entry as perf prints it: {@code ".....%3d: %016lx"} (at least one space
     * before the index), written straight into the output buffer: the dump's most frequent line.
     */
    private void chainLine(int i, long ip) {
        byte[] b = out.reserve(48);
        int p = out.pos();
        for (int k = 0; k < 5; k++) {
            b[p++] = '.';
        }
        int digits = 1;
        for (int v = i; v >= 10; v /= 10) {
            digits++;
        }
        b[p++] = ' ';
        if (digits == 1) {
            b[p++] = ' ';
        }
        int end = p + digits;
        for (int q = end - 1, v = i; q >= p; q--, v /= 10) {
            b[q] = (byte) ('0' + v % 10);
        }
        p = end;
        b[p++] = ':';
        b[p++] = ' ';
        for (int shift = 60; shift >= 0; shift -= 4) {
            b[p++] = HEX[(int) (ip >>> shift) & 15];
        }
        b[p++] = '\n';
        out.pos(p);
    }

    private static final byte[] HEX = {'0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b', 'c', 'd', 'e', 'f'};
    /** Two lowercase hex digits for each byte value, at 2 * value. */
    private static final byte[] HEX_PAIRS = new byte[512];
    /** The character perf's hex dump shows for each byte value: itself if printable ASCII, else '.'. */
    private static final byte[] SHOWN = new byte[256];

    static {
        for (int v = 0; v < 256; v++) {
            HEX_PAIRS[2 * v] = HEX[v >>> 4];
            HEX_PAIRS[2 * v + 1] = HEX[v & 15];
            SHOWN[v] = v >= 0x20 && v < 0x7f ? (byte) v : (byte) '.';
        }
    }

    private static byte hexDigit(int v) {
        return HEX[v & 15];
    }

    /** perf's {@code perf_evlist__print_tstamp}, over the first {@code visible} events. */
    private void tstamp(PerfRecord rec, Evlist ev, int visible) {
        List<Evsel> evsels = ev.evsels();
        int n = Math.min(visible, evsels.size());
        boolean sampleIdAll = n > 0 && evsels.get(0).attr().sampleIdAll();
        if (rec.type() != RecordType.SAMPLE && !sampleIdAll) {
            out.str("-1 -1 ");
            return;
        }
        long combined = 0;
        for (int i = 0; i < n; i++) {
            combined |= evsels.get(i).attr().sampleType();
        }
        int cpu;
        long time;
        if (rec instanceof KernelRecord k) {
            SampleId s = k.sampleId();
            cpu = s.cpu();
            time = s.time();
        } else {
            cpu = 0;
            time = 0;
        }
        if ((combined & SampleFormat.CPU) != 0) {
            out.u32(cpu).ch(' ');
        }
        if ((combined & SampleFormat.TIME) != 0) {
            out.udec(time).ch(' ');
        }
    }

    // ---------------------------------------------------------------- per type

    private void body(PerfRecord rec) {
        if (EventLine.fields(rec, out)) {
            return;
        }
        switch (rec) {
            case Sample s -> sample(s);
            case KernelRecord.Lost l -> out.str(": id:").udec(l.id()).str(": lost:").udec(l.lost()).nl();
            case KernelRecord.LostSamples l -> out.str(": id:").udec(l.sampleId().id()).str(": lost samples :")
                    .udec(l.lost()).nl();
            case KernelRecord.Throttle t -> out.str(": unhandled!\n");
            case KernelRecord.Unthrottle t -> out.str(": unhandled!\n");
            case KernelRecord.Read r -> read(r);
            case KernelRecord.Aux a -> out.str(" offset: ").hexAlt(a.auxOffset()).str(" size: ").hexAlt(a.auxSize())
                    .str(" flags: ").hexAlt(a.flags()).str(" [").str((a.flags() & 1) != 0 ? "T" : "")
                    .str((a.flags() & 2) != 0 ? "O" : "").str((a.flags() & 4) != 0 ? "P" : "").str("]\n");
            case KernelRecord.ItraceStart i -> out.str(" pid: ").u32(i.pid()).str(" tid: ").u32(i.tid()).nl();
            case KernelRecord.AuxOutputHwId h -> out.str(" hw_id: ").hexAlt(h.hwId()).nl();
            case KernelRecord.CallchainDeferred d -> out.nl();
            case UserRecord.HeaderAttr a -> {
            }
            case UserRecord.EventType e -> {
            }
            case UserRecord.TracingData t -> {
            }
            case UserRecord.BuildId b -> {
            }
            case UserRecord.IdIndex x -> idIndex(x);
            case UserRecord.AuxtraceInfo a -> auxtraceInfo(a);
            case UserRecord.Auxtrace a -> auxtrace(a);
            case UserRecord.AuxtraceError a -> {
            }
            case UserRecord.ThreadMap t -> threadMap(t);
            case UserRecord.CpuMap c -> out.str(": ").str(cpuList(c.cpus())).str("\n: unhandled!\n");
            case UserRecord.StatConfig s -> statConfig(s);
            case UserRecord.Stat s -> out.str("\n... id ").udec(s.id()).str(", cpu ").dec(s.cpu()).str(", thread ")
                    .dec(s.thread()).str("\n... value ").udec(s.val()).str(", enabled ").udec(s.ena())
                    .str(", running ").udec(s.run()).str("\n: unhandled!\n");
            case UserRecord.StatRound s -> out.str("\n... time ").udec(s.time()).str(", type ")
                    .str(s.roundType() == 1 ? "FINAL" : "INTERVAL").str("\n: unhandled!\n");
            case UserRecord.EventUpdate e -> eventUpdate(e);
            case UserRecord.TimeConv t -> timeConv(t);
            case UserRecord.HeaderFeature f -> {
            }
            case UserRecord.Compressed c -> {
            }
            case UserRecord.Compressed2 c -> {
            }
            case UserRecord.FinishedInit f -> out.str(": unhandled!\n");
            case Unknown u -> out.nl();
            default -> throw new IllegalStateException("no dump form for " + rec.getClass().getSimpleName());
        }
    }

    private void auxtraceInfo(UserRecord.AuxtraceInfo a) {
        out.str(" type: ").u32(a.auxType()).nl();
        if (a.auxType() == IntelPtInfo.AUX_TYPE) {
            Optional<IntelPtInfo> info = IntelPtInfo.read(a.priv());
            info.ifPresent(i -> i.print(out));
            intelPt = info.isPresent();
        }
    }

    private void auxtrace(UserRecord.Auxtrace a) {
        out.str(" size: ").hexAlt(a.auxSize()).str("  offset: ").hexAlt(a.auxOffset())
                .str("  ref: ").hexAlt(a.reference()).str("  idx: ").u32(a.idx()).str("  tid: ").dec(a.tid())
                .str("  cpu: ").dec(a.cpu()).nl();
        Bytes file = data.fileBytes();
        RawRecord r = a.raw();
        // perf decodes the trace only once an Intel PT AUXTRACE_INFO set its decoder up; a payload
        // inside a compressed record has no place in the file to read it from
        // (a payload cut short by the end of the file: what is there, as the reader warned)
        long start = r.offset() + r.size();
        if (intelPt && file != null && !r.compressed() && a.auxSize() >= 0 && start <= file.size()) {
            PtPacketDump.print(file.slice(start, Math.min(a.auxSize(), file.size() - start)), out);
        }
    }

    /** perf's dump_read: fixed perf_record_read fields, whatever the read_format. */
    private void read(KernelRecord.Read r) {
        Bytes b = r.raw().bytes();
        Evsel e = data.evlist().isEmpty() ? null : data.evlist().evselOf(r.raw());
        if (readNames == null || readNames.size() != data.evlist().evsels().size() || updateNamesSeen != updateNames.size()) {
            readNames = io.perfj.perfdata.feature.EventNames.names(data, updateNames);
            updateNamesSeen = updateNames.size();
        }
        String name = e == null ? "unknown" : readNames.get(e.index());
        out.str(": ").dec(r.pid()).ch(' ').dec(r.tid()).ch(' ').str(name).ch(' ').udec(b.u64(16)).nl();
        if (e == null) {
            return;
        }
        long rf = e.attr().readFormat();
        if ((rf & SampleFormat.FORMAT_TOTAL_TIME_ENABLED) != 0) {
            out.str("... time enabled : ").udec(b.u64(24)).nl();
        }
        if ((rf & SampleFormat.FORMAT_TOTAL_TIME_RUNNING) != 0) {
            out.str("... time running : ").udec(b.u64(32)).nl();
        }
        if ((rf & SampleFormat.FORMAT_ID) != 0) {
            out.str("... id           : ").udec(b.u64(40)).nl();
        }
        if ((rf & SampleFormat.FORMAT_LOST) != 0) {
            out.str("... lost         : ").udec(b.u64(48)).nl();
        }
    }

    private void idIndex(UserRecord.IdIndex x) {
        out.str(" nr: ").dec(x.entries().size()).nl();
        for (UserRecord.IdIndex.Entry e : x.entries()) {
            out.str(" ... id: ").udec(e.id()).str("  idx: ").udec(e.idx()).str("  cpu: ").dec(e.cpu())
                    .str("  tid: ").dec(e.tid());
            if (x.hasMachine()) {
                out.str("  machine_pid: ").dec(e.machinePid()).str("  vcpu: ").udec(e.vcpu());
            }
            out.nl();
        }
    }

    private void threadMap(UserRecord.ThreadMap t) {
        int n = t.entries().size();
        out.str(" nr: ").dec(n).str(n > 1 ? " threads: " : " thread: ");
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                out.str(", ");
            }
            out.dec((int) t.entries().get(i).pid());
        }
        out.str("\n: unhandled!\n");
    }

    /** perf's {@code cpu_map__snprint}: ranges of consecutive CPUs joined by commas. */
    static String cpuList(int[] cpus) {
        StringBuilder sb = new StringBuilder();
        int start = -1;
        boolean first = true;
        for (int i = 0; i <= cpus.length; i++) {
            boolean last = i == cpus.length;
            int cpu = last ? Integer.MAX_VALUE : cpus[i];
            if (start == -1) {
                start = i;
                if (last) {
                    break;
                }
            } else if (last || (long) (i - start) != (long) cpu - cpus[start]) {
                int end = i - 1;
                if (!first) {
                    sb.append(',');
                }
                sb.append(cpus[start]);
                if (start != end) {
                    sb.append('-').append(cpus[end]);
                }
                first = false;
                start = i;
            }
        }
        return sb.toString();
    }

    private void statConfig(UserRecord.StatConfig s) {
        long aggr = 0;
        long scale = 0;
        long interval = 0;
        for (int i = 0; i < s.tags().length; i++) {
            switch ((int) s.tags()[i]) {
                case 0 -> aggr = s.values()[i];
                case 1 -> interval = s.values()[i];
                case 2 -> scale = s.values()[i];
                default -> {
                }
            }
        }
        out.str("\n... aggr_mode ").dec((int) aggr).str("\n... scale     ").dec((int) scale)
                .str("\n... interval  ").u32((int) interval).str("\n: unhandled!\n");
    }

    private void eventUpdate(UserRecord.EventUpdate e) {
        out.str("\n... id:    ").udec(e.id()).nl();
        long t = e.updateType();
        switch (t < 0 || t > 3 ? -1 : (int) t) {
            case UserRecord.EventUpdate.SCALE -> out.str("... scale: ").str(cDouble(e.scale(), 6)).nl();
            case UserRecord.EventUpdate.UNIT -> out.str("... unit:  ").str(e.text()).nl();
            case UserRecord.EventUpdate.NAME -> {
                out.str("... name:  ").str(e.text()).nl();
                updateNames.put(e.id(), e.text());
            }
            case UserRecord.EventUpdate.CPUS -> out.str("... ").str(cpuList(e.cpus())).nl();
            default -> out.str("... unknown type\n");
        }
    }

    private void timeConv(UserRecord.TimeConv t) {
        out.str("\n... Time Shift      ").udec(t.timeShift()).str("\n... Time Muliplier  ").udec(t.timeMult())
                .str("\n... Time Zero       ").udec(t.timeZero()).nl();
        if (t.extended()) {
            out.str("... Time Cycles     ").udec(t.timeCycles()).str("\n... Time Mask       ").hexAlt(t.timeMask())
                    .str("\n... Cap Time Zero   ").dec(t.capUserTimeZero() ? 1 : 0)
                    .str("\n... Cap Time Short  ").dec(t.capUserTimeShort() ? 1 : 0).nl();
        }
        out.str(": unhandled!\n");
    }

    /** C's {@code %.Nf}. */
    static String cDouble(double v, int decimals) {
        if (Double.isNaN(v)) {
            return Double.doubleToRawLongBits(v) < 0 ? "-nan" : "nan";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "inf" : "-inf";
        }
        String s = new BigDecimal(v).setScale(decimals, RoundingMode.HALF_EVEN).toPlainString();
        if (v == 0 && Double.doubleToRawLongBits(v) < 0) {
            s = "-" + s;
        }
        return s;
    }

    // ---------------------------------------------------------------- samples

    /**
     * Whether perf report runs in branch mode, where each branch of a sample's stack counts as a
     * sample of its event: by default when the recording has the BRANCH_STACK feature.
     */
    private boolean branchMode() {
        if (branchMode == null) {
            branchMode = data.features().containsKey(io.perfj.perfdata.FeatureId.BRANCH_STACK);
        }
        return branchMode;
    }

    private void sample(Sample s) {
        Evlist ev = data.evlist();
        if (branchMode()) {
            // samples without a branch stack add nothing in branch mode
            stats.countSampleTimes(s, s.branchStack() == null ? 0 : s.branchStack().nr());
        } else {
            stats.countSample(s.raw(), ev, s);
        }
        out.str("(IP, 0x").hex(s.misc()).str("): ").dec(s.pid()).ch('/').dec(s.tid()).str(": ").hexAlt(s.ip())
                .str(" period: ").udec(s.period()).str(" addr: ").hexAlt(s.addr()).nl();
        EventAttr a = s.evsel().attr();
        long st = a.sampleType();
        Callchain cc = s.callchain();
        boolean lbrCallStack = (a.branchSampleType() & (1L << 11)) != 0;
        if (cc != null && lbrCallStack && s.branchStack() != null) {
            lbrCallChain(cc, s.branchStack());
        }
        if (cc != null) {
            out.str("... FP chain: nr:").udec(cc.nr()).nl();
            Bytes ips = cc.ips();
            int n = cc.size();
            for (int i = 0; i < n; i++) {
                chainLine(i, ips.u64(8L * i));
            }
        }
        BranchStack bs = s.branchStack();
        if (bs != null) {
            branchStack(bs, lbrCallStack);
        }
        if (s.userRegs() != null && s.userRegs().abi() != Regs.ABI_NONE) {
            regs("user", s.userRegs());
        }
        if (s.intrRegs() != null && s.intrRegs().abi() != Regs.ABI_NONE) {
            regs("intr", s.intrRegs());
        }
        if (s.userStack() != null) {
            out.str("... ustack: size ").udec(s.userStack().dynSize()).str(", offset 0x").hex(s.userStack().offset())
                    .nl();
        }
        if ((st & (SampleFormat.WEIGHT | SampleFormat.WEIGHT_STRUCT)) != 0) {
            out.str("... weight: ").udec(s.weight());
            if ((st & SampleFormat.WEIGHT_STRUCT) != 0) {
                out.str(",0x").hex(s.insLat()).str(",0x").hex(s.pStageCyc());
            }
            out.nl();
        }
        if ((st & SampleFormat.DATA_SRC) != 0) {
            out.str(" . data_src: 0x").hex(s.dataSrc()).nl();
        }
        if ((st & SampleFormat.PHYS_ADDR) != 0) {
            out.str(" .. phys_addr: 0x").hex(s.physAddr()).nl();
        }
        if ((st & SampleFormat.DATA_PAGE_SIZE) != 0) {
            out.str(" .. data page size: ").str(pageSize(s.dataPageSize())).nl();
        }
        if ((st & SampleFormat.CODE_PAGE_SIZE) != 0) {
            out.str(" .. code page size: ").str(pageSize(s.codePageSize())).nl();
        }
        if ((st & SampleFormat.TRANSACTION) != 0) {
            out.str("... transaction: ").hex(s.transaction()).nl();
        }
        if (s.read() != null) {
            sampleRead(s.read());
        }
    }

    /**
     * perf's "LBR call chain": the callchain up to its user marker, then the LBR call stack (the
     * latest call's target, every call's source), numbered on; nothing without a user marker or
     * with an empty branch stack.
     */
    private void lbrCallChain(Callchain cc, BranchStack bs) {
        int n = cc.size();
        int user = 0;
        while (user < n && cc.ip(user) != Callchain.CONTEXT_USER) {
            user++;
        }
        if (user == n || bs.size() == 0) {
            return;
        }
        out.str("... LBR call chain: nr:").udec(user + 1 + bs.nr() + 1).nl();
        for (int i = 0; i <= user; i++) {
            chainLine(i, cc.ip(i));
        }
        chainLine(user + 1, bs.to(0));
        for (int i = 0; i < bs.size(); i++) {
            chainLine(user + 2 + i, bs.from(i));
        }
    }

    private void branchStack(BranchStack bs, boolean callstack) {
        int n = bs.size();
        out.str(callstack ? "... branch callstack: nr:" : "... branch stack: nr:").udec(callstack ? bs.nr() + 1 : bs.nr())
                .nl();
        for (int i = 0; i < n; i++) {
            if (!callstack) {
                long f = bs.flags(i);
                out.str(".....").str(i < 10 ? "  " : " ").dec(i).str(": ").hexPad(bs.from(i), 16).str(" -> ")
                        .hexPad(bs.to(i), 16).ch(' ').dec((f >>> 4) & 0xffff).str(" cycles ")
                        .str((f & 1) != 0 ? "M" : " ").str((f & 2) != 0 ? "P" : " ")
                        .str((f & 8) != 0 ? "A" : " ").str((f & 4) != 0 ? "T" : " ").ch(' ')
                        .hex(f >>> 33).ch(' ').str(BranchStack.typeName(f)).nl();
            } else if (i == 0) {
                out.str(".....  0: ").hexPad(bs.to(0), 16).nl();
                out.str(".....  1: ").hexPad(bs.from(0), 16).nl();
            } else {
                out.str(".....").str(i + 1 < 10 ? "  " : " ").dec(i + 1).str(": ").hexPad(bs.from(i), 16).nl();
            }
        }
    }

    private void regs(String kind, Regs r) {
        out.str("... ").str(kind).str(" regs: mask 0x").hex(r.mask()).str(" ABI ")
                .str(r.abi() == 1 ? "32-bit" : r.abi() == 2 ? "64-bit" : "unknown").nl();
        long mask = r.mask();
        int i = 0;
        int count = r.count();
        while (mask != 0 && i < count) {
            int bit = Long.numberOfTrailingZeros(mask);
            mask &= mask - 1;
            String name = regName(bit);
            out.str(".... ").str(name);
            for (int k = name.length(); k < 5; k++) {
                out.ch(' ');
            }
            out.str(" 0x").hexPad(r.value(i++), 16).nl();
        }
    }

    private static final String[] X86_REGS = {
        "AX", "BX", "CX", "DX", "SI", "DI", "BP", "SP", "IP", "FLAGS", "CS", "SS", "DS", "ES", "FS", "GS",
        "R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15",
    };

    private String regName(int bit) {
        if (regNames == null) {
            regNames = RecordedArch.of(data).equals(RecordedArch.ARM64) ? arm64Regs() : x86Regs();
        }
        return bit < regNames.length && regNames[bit] != null ? regNames[bit] : "(null)";
    }

    private static String[] x86Regs() {
        String[] n = new String[64];
        System.arraycopy(X86_REGS, 0, n, 0, X86_REGS.length);
        for (int x = 0; x < 16; x++) {
            n[32 + 2 * x] = "XMM" + x;
            n[33 + 2 * x] = "XMM" + x;
        }
        return n;
    }

    private static String[] arm64Regs() {
        String[] n = new String[64];
        for (int i = 0; i <= 29; i++) {
            n[i] = "x" + i;
        }
        n[30] = "lr";
        n[31] = "sp";
        n[32] = "pc";
        n[46] = "vg";
        return n;
    }

    private static String pageSize(long size) {
        if (size == 0) {
            return "N/A";
        }
        String unit = "BKMG";
        int i = 0;
        long n = size;
        while (Long.compareUnsigned(Long.divideUnsigned(n, 1024), 1) > 0 && i < 3) {
            n = Long.divideUnsigned(n, 1024);
            i++;
        }
        return Long.toUnsignedString(n) + unit.charAt(i);
    }

    private void sampleRead(ReadValues v) {
        long rf = v.readFormat();
        out.str("... sample_read:\n");
        if ((rf & SampleFormat.FORMAT_TOTAL_TIME_ENABLED) != 0) {
            out.str("...... time enabled ").hexPad(v.timeEnabled(), 16).nl();
        }
        if ((rf & SampleFormat.FORMAT_TOTAL_TIME_RUNNING) != 0) {
            out.str("...... time running ").hexPad(v.timeRunning(), 16).nl();
        }
        if (v.group()) {
            out.str(".... group nr ").udec(v.count()).nl();
        }
        for (int i = 0; i < v.count(); i++) {
            long id = (rf & SampleFormat.FORMAT_ID) != 0 ? v.ids()[i] : 0;
            out.str("..... id ").hexPad(id, 16).str(", value ").hexPad(v.values()[i], 16);
            if ((rf & SampleFormat.FORMAT_LOST) != 0) {
                out.str(", lost ").udec(v.lost()[i]);
            }
            out.nl();
        }
    }
}
