package io.perfj.session;

import io.perfj.perfdata.Evlist;
import io.perfj.perfdata.Evsel;
import io.perfj.perfdata.RecordScan;
import io.perfj.perfdata.record.PerfRecord;
import io.perfj.perfdata.record.RecordDecoder;
import io.perfj.perfdata.record.Sample;

/**
 * The sample a {@link RecordHandler} is handed: its fixed fields (event, ip, pid/tid, time, cpu,
 * period, cpumode), read in place from the mapped recording when the file allows it, and the
 * whole decoded {@link Sample} (callchain, registers, stack copy, ...) on request. Valid only
 * during the handler call; the session reuses it for the next sample.
 */
public final class SampleRef {
    private final Evlist evlist;
    private RecordScan scan;
    private Sample decoded;

    SampleRef(Evlist evlist) {
        this.evlist = evlist;
    }

    void at(RecordScan s) {
        scan = s;
        decoded = null;
    }

    void at(Sample s) {
        scan = null;
        decoded = s;
    }

    /**
     * The sample's file offset (for a record unpacked from a COMPRESSED record, that record's,
     * as perf reports it).
     */
    public long offset() {
        return scan != null ? scan.offset() : decoded.offset();
    }

    /** The event the sample belongs to. */
    public Evsel evsel() {
        return scan != null ? scan.evsel() : decoded.evsel();
    }

    /** Index of the event in the recording's event list. */
    public int event() {
        return evsel().index();
    }

    public long ip() {
        return scan != null ? scan.ip() : decoded.ip();
    }

    public int pid() {
        return scan != null ? scan.pid() : decoded.pid();
    }

    public int tid() {
        return scan != null ? scan.tid() : decoded.tid();
    }

    /** Timestamp in nanoseconds, -1 when the event does not record time. */
    public long time() {
        return scan != null ? scan.time() : decoded.time();
    }

    /** CPU, -1 when the event does not record it. */
    public int cpu() {
        return scan != null ? scan.cpu() : decoded.cpu();
    }

    /** The sample's period (the event's fixed period when it is not recorded per sample). */
    public long period() {
        return scan != null ? scan.period() : decoded.period();
    }

    /** {@code PERF_RECORD_MISC_CPUMODE_MASK} bits: 1 kernel, 2 user, 3 hypervisor, 4/5 guest. */
    public int cpumode() {
        return scan != null ? scan.cpumode() : decoded.cpumode();
    }

    /** The whole sample, decoded (once per sample) by the recording's one record decoder. */
    public Sample sample() {
        if (decoded == null) {
            PerfRecord r = RecordDecoder.decode(scan.record(), evlist);
            if (!(r instanceof Sample s)) {
                throw new IllegalStateException("record at " + scan.record().offset() + " is no sample");
            }
            decoded = s;
        }
        return decoded;
    }
}
