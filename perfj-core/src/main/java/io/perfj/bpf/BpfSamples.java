package io.perfj.bpf;

import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.RawRecord;
import io.perfj.perfdata.RecordInput;
import io.perfj.perfdata.RecordType;
import io.perfj.perfdata.SampleFormat;
import io.perfj.perfdata.feature.BpfProg;
import io.perfj.perfdata.record.RecordDecoder;
import io.perfj.perfdata.record.Sample;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Counts the samples whose ip falls inside each sub-program's jited code,
 * {@code [jited_ksyms[i], jited_ksyms[i] + jited_func_lens[i])}.
 */
public final class BpfSamples {
    private final Map<Long, long[]> perProgram;
    private final Map<Long, Map<Long, Long>> ips;
    private final long total;

    private BpfSamples(Map<Long, long[]> perProgram, Map<Long, Map<Long, Long>> ips, long total) {
        this.perProgram = perProgram;
        this.ips = ips;
        this.total = total;
    }

    private record Range(long start, long end, long progId, int sub) {
    }

    /** Reads every sample of {@code data} once and attributes it to {@code bpf}'s programs. */
    public static BpfSamples count(PerfData data, RecordedBpf bpf) {
        return count(data, () -> bpf);
    }

    /**
     * Reads every sample of {@code data} once, then asks for the programs: in pipe mode the
     * BPF features arrive as records, so they are complete only after the read.
     */
    public static BpfSamples count(PerfData data, java.util.function.Supplier<RecordedBpf> programs) {
        Map<Long, Long> byIp = new HashMap<>();
        long total = 0;
        RecordInput in = data.records();
        for (RawRecord raw; (raw = in.next()) != null; ) {
            if (raw.type() != RecordType.SAMPLE || !(RecordDecoder.decode(raw, data.evlist()) instanceof Sample s)
                    || !s.has(SampleFormat.IP)) {
                continue;
            }
            total++;
            byIp.merge(s.ip(), 1L, Long::sum);
        }
        RecordedBpf bpf = programs.get();
        List<Range> ranges = new ArrayList<>();
        Map<Long, long[]> counts = new HashMap<>();
        for (BpfProg p : bpf.programs()) {
            long[] ks = p.jitedKsyms();
            long[] lens = p.jitedFuncLens();
            counts.put(p.info().id(), new long[ks.length]);
            for (int i = 0; i < ks.length && i < lens.length; i++) {
                if (lens[i] > 0) {
                    ranges.add(new Range(ks[i], ks[i] + lens[i], p.info().id(), i));
                }
            }
        }
        ranges.sort((a, b) -> Long.compareUnsigned(a.start, b.start));
        long[] starts = new long[ranges.size()];
        for (int i = 0; i < starts.length; i++) {
            starts[i] = ranges.get(i).start;
        }
        Map<Long, Map<Long, Long>> ips = new HashMap<>();
        for (Map.Entry<Long, Long> e : byIp.entrySet()) {
            Range r = find(ranges, starts, e.getKey());
            if (r != null) {
                counts.get(r.progId)[r.sub] += e.getValue();
                ips.computeIfAbsent(r.progId, k -> new java.util.TreeMap<>(Long::compareUnsigned))
                        .merge(e.getKey(), e.getValue(), Long::sum);
            }
        }
        return new BpfSamples(counts, ips, total);
    }

    private static Range find(List<Range> ranges, long[] starts, long ip) {
        int best = io.perfj.io.UnsignedSearch.floor(starts, ip);
        if (best < 0) {
            return null;
        }
        Range r = ranges.get(best);
        return Long.compareUnsigned(ip, r.end) < 0 ? r : null;
    }

    /** Samples in each sub-program of program {@code id} (empty array when unknown). */
    public long[] of(long progId) {
        long[] c = perProgram.get(progId);
        return c == null ? new long[0] : Arrays.copyOf(c, c.length);
    }

    /** Samples in all of program {@code id}. */
    public long sum(long progId) {
        return Arrays.stream(of(progId)).sum();
    }

    /** Sample counts by ip inside program {@code progId}'s jited code, in address order. */
    public Map<Long, Long> ips(long progId) {
        return java.util.Collections.unmodifiableMap(ips.getOrDefault(progId, Map.of()));
    }

    /**
     * Samples per xlated instruction of {@code p}: each ip is given to the first instruction of
     * the source line executing there ({@link JitedLines}); ips without line info are left out.
     */
    public Map<Integer, Long> perXlatedInsn(BpfProg p) {
        JitedLines j = JitedLines.of(p);
        Map<Integer, Long> out = new java.util.TreeMap<>();
        ips(p.info().id()).forEach((ip, n) -> j.xlatedInsnAt(ip).ifPresent(i -> out.merge(i, n, Long::sum)));
        return out;
    }

    /** Samples with an ip in the whole recording. */
    public long total() {
        return total;
    }
}
