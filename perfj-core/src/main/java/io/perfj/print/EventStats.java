package io.perfj.print;

import io.perfj.perfdata.Evlist;
import io.perfj.perfdata.Evsel;
import io.perfj.perfdata.RawRecord;
import io.perfj.perfdata.RecordType;
import io.perfj.perfdata.SampleFormat;
import io.perfj.perfdata.record.ReadValues;
import io.perfj.perfdata.record.RecordDecoder;
import io.perfj.perfdata.record.Sample;

import java.util.Arrays;

/**
 * Record counts as perf keeps them ({@code struct events_stats}): every record read counts once
 * under its type and once in the total, COMPRESSED records and the records unpacked from them
 * alike. Samples are also counted per event the way perf delivers them: a sample with
 * PERF_SAMPLE_READ counts once for each event whose id its read values carry.
 */
public final class EventStats {
    /** perf's own and the kernel's types are all below 128; anything else is counted apart. */
    private final long[] byType = new long[128];
    private final java.util.TreeMap<Integer, Long> otherTypes = new java.util.TreeMap<>();
    private long total;
    private long[] samplesPerEvsel = new long[4];
    private long[] lostPerEvsel = new long[4];

    /** Counts a record as it is read from the file ({@link RawRecord#count()} times). */
    public void countRead(RawRecord r) {
        int t = r.type();
        long n = r.count();
        if (t >= 0 && t < byType.length) {
            byType[t] += n;
        } else {
            otherTypes.merge(t, n, Long::sum);
        }
        total += n;
    }

    /** Counts a delivered sample for the event(s) it is delivered to. */
    public void countSample(RawRecord r, Evlist evlist, Sample decoded) {
        if (evlist.isEmpty()) {
            return;
        }
        Evsel e = decoded != null ? decoded.evsel() : evlist.evselOf(r);
        if (e == null) {
            return;
        }
        if ((e.attr().sampleType() & SampleFormat.READ) != 0) {
            Sample s = decoded != null ? decoded : (Sample) RecordDecoder.decode(r, evlist);
            ReadValues v = s.read();
            for (int i = 0; i < v.count(); i++) {
                long id = v.ids()[i];
                evlist.byId(id).ifPresent(x -> add(x.index()));
            }
            return;
        }
        add(e.index());
    }

    /**
     * Counts a sample as {@code n} samples of its event: perf report in branch mode adds one hist
     * entry, and one to the event's sample count, for each branch of the sample's branch stack.
     */
    public void countSampleTimes(Sample s, long n) {
        if (s.evsel() != null) {
            add(s.evsel().index(), n);
        }
    }

    /** Counts a PERF_RECORD_LOST_SAMPLES for the event its sample id names (perf adds up the lost counts). */
    public void countLostSamples(RawRecord r, Evlist evlist, long lost) {
        if (evlist.isEmpty()) {
            return;
        }
        Evsel e = evlist.evselOf(r);
        if (e == null || e.index() < 0) {
            return;
        }
        if (e.index() >= lostPerEvsel.length) {
            lostPerEvsel = Arrays.copyOf(lostPerEvsel, Math.max(e.index() + 1, lostPerEvsel.length * 2));
        }
        lostPerEvsel[e.index()] += lost;
    }

    private void add(int evsel) {
        add(evsel, 1);
    }

    private void add(int evsel, long n) {
        if (evsel < 0) {
            return;
        }
        if (evsel >= samplesPerEvsel.length) {
            samplesPerEvsel = Arrays.copyOf(samplesPerEvsel, Math.max(evsel + 1, samplesPerEvsel.length * 2));
        }
        samplesPerEvsel[evsel] += n;
    }

    /** The lost samples counted for an event. */
    public long lostSamplesOf(int evselIndex) {
        return evselIndex < lostPerEvsel.length ? lostPerEvsel[evselIndex] : 0;
    }

    public long total() {
        return total;
    }

    public long count(int type) {
        return type >= 0 && type < byType.length ? byType[type] : 0;
    }

    /** Highest record type number counted, or -1. */
    int maxType() {
        for (int t = byType.length - 1; t >= 0; t--) {
            if (byType[t] != 0) {
                return t;
            }
        }
        return -1;
    }

    public long samplesOf(int evselIndex) {
        return evselIndex < samplesPerEvsel.length ? samplesPerEvsel[evselIndex] : 0;
    }

    /** Whether a record type counts in perf's stats table under a known name. */
    static boolean named(int type) {
        return new RecordType(type).knownName() != null;
    }
}
