package io.perfj.perfdata;

/** A {@code struct perf_file_section}: where a part of the file lies. */
public record Section(long offset, long size) {
    public long end() {
        return offset + size;
    }
}
