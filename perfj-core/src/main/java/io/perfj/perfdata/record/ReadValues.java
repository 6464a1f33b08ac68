package io.perfj.perfdata.record;

/**
 * Counter values as the event's {@code read_format} lays them out (in a PERF_RECORD_READ or a
 * sample with PERF_SAMPLE_READ). Without PERF_FORMAT_GROUP there is one entry. Fields the
 * read_format lacks are 0 ({@code -1} for ids).
 *
 * @param group whether the values are a PERF_FORMAT_GROUP group (then {@code nr} entries)
 */
public record ReadValues(long readFormat, boolean group, long timeEnabled, long timeRunning,
                         long[] values, long[] ids, long[] lost) {
    public int count() {
        return values.length;
    }
}
