package io.perfj.perfdata;

/**
 * A sequence of records. {@link #next()} returns null at the end; a malformed record stream
 * throws {@link io.perfj.io.FormatException} after every good record before it was returned.
 */
public interface RecordInput {
    RawRecord next();

    /** Problems that did not stop reading (e.g. a data section cut short). */
    default java.util.List<String> warnings() {
        return java.util.List.of();
    }
}
