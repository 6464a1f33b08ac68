package io.perfj.perfdata;

/**
 * A sequence of records. {@link #next()} returns null at the end; a malformed record stream
 * throws {@link io.perfj.io.FormatException} after every good record before it was returned.
 */
public interface RecordInput {
    RawRecord next();

    /**
     * The bytes that followed the record {@link #next()} last returned outside its
     * {@code header.size} when this input keeps them (a pipe's HEADER_TRACING_DATA blob), else
     * null. AUXTRACE trace data is stepped over and not kept.
     */
    default io.perfj.io.Bytes trailing() {
        return null;
    }

    /** Problems that did not stop reading (e.g. a data section cut short). */
    default java.util.List<String> warnings() {
        return java.util.List.of();
    }
}
