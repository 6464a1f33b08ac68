package io.perfj.perfdata;

/**
 * Where the fixed-size fields of a PERF_RECORD_SAMPLE sit for one {@code sample_type}, as offsets
 * from the start of the record (header included), -1 for a field the event does not sample: the
 * fields up to PERF_SAMPLE_PERIOD, which come in this order before any variable-size one
 * ({@code include/uapi/linux/perf_event.h}, {@code perf_event_sample_format}). Computed once per
 * event; the record decoder, the in-place reader ({@link RecordScan}) and the event lookup and
 * ordering ({@link Evlist}) all read samples through it.
 *
 * @param identifier PERF_SAMPLE_IDENTIFIER (the id, first so it can be found without the type)
 * @param ip         PERF_SAMPLE_IP
 * @param tid        PERF_SAMPLE_TID (pid, then tid, both u32)
 * @param time       PERF_SAMPLE_TIME
 * @param addr       PERF_SAMPLE_ADDR
 * @param id         PERF_SAMPLE_ID
 * @param streamId   PERF_SAMPLE_STREAM_ID
 * @param cpu        PERF_SAMPLE_CPU (cpu, then a reserved u32)
 * @param period     PERF_SAMPLE_PERIOD
 * @param fixedEnd   where the variable-size part (READ, CALLCHAIN, ...) starts
 */
public record SampleLayout(int identifier, int ip, int tid, int time, int addr, int id, int streamId, int cpu,
                           int period, int fixedEnd) {
    /** The layout of samples of this {@code sample_type}. */
    public static SampleLayout of(long sampleType) {
        int p = RawRecord.HEADER_SIZE;
        int identifier = (sampleType & SampleFormat.IDENTIFIER) != 0 ? p : -1;
        p += identifier >= 0 ? 8 : 0;
        int ip = (sampleType & SampleFormat.IP) != 0 ? p : -1;
        p += ip >= 0 ? 8 : 0;
        int tid = (sampleType & SampleFormat.TID) != 0 ? p : -1;
        p += tid >= 0 ? 8 : 0;
        int time = (sampleType & SampleFormat.TIME) != 0 ? p : -1;
        p += time >= 0 ? 8 : 0;
        int addr = (sampleType & SampleFormat.ADDR) != 0 ? p : -1;
        p += addr >= 0 ? 8 : 0;
        int id = (sampleType & SampleFormat.ID) != 0 ? p : -1;
        p += id >= 0 ? 8 : 0;
        int streamId = (sampleType & SampleFormat.STREAM_ID) != 0 ? p : -1;
        p += streamId >= 0 ? 8 : 0;
        int cpu = (sampleType & SampleFormat.CPU) != 0 ? p : -1;
        p += cpu >= 0 ? 8 : 0;
        int period = (sampleType & SampleFormat.PERIOD) != 0 ? p : -1;
        p += period >= 0 ? 8 : 0;
        return new SampleLayout(identifier, ip, tid, time, addr, id, streamId, cpu, period, p);
    }

    /**
     * Where the event id is, for finding a sample's event: PERF_SAMPLE_IDENTIFIER, else
     * PERF_SAMPLE_ID, else -1.
     */
    public int idPosition() {
        return identifier >= 0 ? identifier : id;
    }
}
