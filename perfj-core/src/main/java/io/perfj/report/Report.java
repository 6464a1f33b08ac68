package io.perfj.report;

import io.perfj.perfdata.Evsel;
import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.RawRecord;
import io.perfj.perfdata.RecordInput;
import io.perfj.perfdata.RecordType;
import io.perfj.perfdata.feature.EventNames;
import io.perfj.perfdata.record.Callchain;
import io.perfj.perfdata.record.KernelRecord;
import io.perfj.perfdata.record.PerfRecord;
import io.perfj.perfdata.record.RecordDecoder;
import io.perfj.perfdata.record.Sample;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a recording once and aggregates its samples per event into {@link Hists}: every sample
 * is resolved through the {@link FrameResolver} (which sees the other records in delivery order),
 * its frames interned, its stack interned, and identical (thread, cpu, stack) samples merged
 * before entries and callchain trees are built.
 */
public final class Report {
    private final PerfData data;
    private final ReportOptions opts;
    private final FrameTable frames = new FrameTable();
    private final StackTable stacks = new StackTable();
    private final List<Hists> hists = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();
    private final Map<Long, LongIntMap> frameCache = new HashMap<>();
    private long lostSamples;
    private long totalSamples;

    private record AggKey(String comm, int pid, int tid, int cpu, int stack) {
    }

    private Report(PerfData data, ReportOptions opts) {
        this.data = data;
        this.opts = opts;
    }

    public static Report build(PerfData data, FrameResolver resolver, ReportOptions opts) {
        Report r = new Report(data, opts);
        r.read(resolver);
        return r;
    }

    private void read(FrameResolver resolver) {
        List<Map<AggKey, long[]>> agg = new ArrayList<>();
        RecordInput in = data.orderedRecords();
        int[] scratch = new int[256];
        for (RawRecord raw; (raw = in.next()) != null; ) {
            if (raw.type() != RecordType.SAMPLE) {
                PerfRecord rec = RecordDecoder.decode(raw, data.evlist());
                if (rec instanceof KernelRecord.LostSamples ls) {
                    lostSamples += ls.lost();
                }
                resolver.process(rec);
                if (changesMaps(raw.type())) {
                    frameCache.clear();
                }
                continue;
            }
            if (!(RecordDecoder.decode(raw, data.evlist()) instanceof Sample s)) {
                continue;
            }
            totalSamples++;
            int ev = s.evsel().index();
            while (agg.size() <= ev) {
                agg.add(new HashMap<>());
            }
            String comm = resolver.comm(s.pid(), s.tid());
            int stack = stackOf(s, resolver, scratch);
            AggKey k = new AggKey(comm, s.pid(), s.tid(), s.cpu(), stack);
            long[] v = agg.get(ev).computeIfAbsent(k, x -> new long[2]);
            v[0] += s.period();
            v[1]++;
        }
        warnings.addAll(in.warnings());
        List<Evsel> evsels = data.evlist().evsels();
        List<String> names = EventNames.names(data);
        for (int i = 0; i < evsels.size(); i++) {
            Hists h = new Hists(evsels.get(i), names.get(i), opts, frames, stacks);
            if (i < agg.size()) {
                for (Map.Entry<AggKey, long[]> e : agg.get(i).entrySet()) {
                    AggKey k = e.getKey();
                    h.add(k.comm(), k.pid(), k.tid(), k.cpu(), k.stack(), e.getValue()[0], e.getValue()[1]);
                }
            }
            h.finish();
            hists.add(h);
        }
    }

    /** Interns the sample's frames (leaf first) as a stack. */
    private int stackOf(Sample s, FrameResolver resolver, int[] scratch) {
        Callchain cc = s.callchain();
        int cpumode = s.cpumode();
        if (cc == null || cc.size() == 0 || opts.mode() == CallchainMode.NONE && !opts.children()) {
            return stacks.push(StackTable.EMPTY, frameOf(resolver, s.pid(), s.tid(), cpumode, s.ip()));
        }
        int stack = StackTable.EMPTY;
        int mode = 2; // perf starts a callchain in user mode until a context marker says otherwise
        int used = 0;
        for (int i = 0; i < cc.size() && used < opts.maxStack(); i++) {
            long ip = cc.ip(i);
            if (Callchain.isContext(ip)) {
                mode = Contexts.cpumode(ip, mode);
                continue;
            }
            stack = stacks.push(stack, frameOf(resolver, s.pid(), s.tid(), mode, ip));
            used++;
        }
        if (stack == StackTable.EMPTY) {
            stack = stacks.push(StackTable.EMPTY, frameOf(resolver, s.pid(), s.tid(), cpumode, s.ip()));
        }
        return stack;
    }

    /**
     * The frame an address resolves to, cached per process and cpumode (kernel addresses are
     * shared by all processes) until a record changes some address space.
     */
    private int frameOf(FrameResolver resolver, int pid, int tid, int mode, long ip) {
        if (ip == Long.MIN_VALUE) {
            return frames.intern(resolver.resolve(pid, tid, mode, ip));
        }
        long key = mode == 1 ? -1L : ((long) pid << 3) | mode;
        LongIntMap m = frameCache.get(key);
        if (m == null) {
            m = new LongIntMap(1024);
            frameCache.put(key, m);
        }
        int f = m.get(ip);
        if (f < 0) {
            f = frames.intern(resolver.resolve(pid, tid, mode, ip));
            m.put(ip, f);
        }
        return f;
    }

    private static boolean changesMaps(int type) {
        return switch (type) {
            case RecordType.MMAP, RecordType.MMAP2, RecordType.COMM, RecordType.FORK, RecordType.EXIT,
                 RecordType.KSYMBOL, RecordType.BPF_EVENT -> true;
            default -> false;
        };
    }


    public List<Hists> hists() {
        return hists;
    }

    public FrameTable frames() {
        return frames;
    }

    public StackTable stacks() {
        return stacks;
    }

    public ReportOptions options() {
        return opts;
    }

    public long lostSamples() {
        return lostSamples;
    }

    public long totalSamples() {
        return totalSamples;
    }

    public List<String> warnings() {
        return warnings;
    }
}
