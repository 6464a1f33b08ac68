package io.perfj.perfdata;

/**
 * One recorded event: its attr, the sample ids the kernel gave its instances, and its position
 * in the file's attr list. The display name comes from the EVENT_DESC feature when present.
 */
public record Evsel(int index, EventAttr attr, long[] ids) {
    /** Where this event's samples keep their fixed-size fields. */
    public SampleLayout layout() {
        return SampleLayout.of(attr.sampleType());
    }
}
