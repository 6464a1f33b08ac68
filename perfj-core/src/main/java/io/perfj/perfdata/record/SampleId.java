package io.perfj.perfdata.record;

/**
 * The {@code sample_id_all} trailer of a non-sample kernel record, or the matching fields of a
 * sample. Absent fields hold perf's defaults: -1 for pid, tid, cpu, time, id and stream id.
 *
 * @param present the {@code PERF_SAMPLE_*} bits the values were read for (0 when there is no trailer)
 */
public record SampleId(long present, int pid, int tid, long time, long id, long streamId, int cpu, int res) {
    /** No trailer: every field at its default. */
    public static final SampleId NONE = new SampleId(0, -1, -1, -1L, -1L, -1L, -1, 0);

    public boolean has(long sampleBit) {
        return (present & sampleBit) != 0;
    }
}
