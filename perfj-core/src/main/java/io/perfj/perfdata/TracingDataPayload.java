package io.perfj.perfdata;

/**
 * The tracing_data blob after a pipe-mode PERF_RECORD_HEADER_TRACING_DATA record: its length
 * (padded to 8 bytes by perf) is the record's u32 {@code size} field and is not part of
 * {@code header.size}, so the record inputs read it by hand and hand it to {@link PerfData} as
 * the TRACING_DATA feature a file would hold.
 */
final class TracingDataPayload {
    /** Where the blob's length is in the record (after the 8-byte header). */
    static final int SIZE_AT = 8;
    /** The smallest record that holds that field. */
    static final int SIZE_END = SIZE_AT + 4;

    private TracingDataPayload() {
    }

    /** The warning for a blob longer than what is left of the data. */
    static String cutShort(String source, long recordOffset, long payload, long remaining) {
        return source + ": PERF_RECORD_HEADER_TRACING_DATA at offset 0x" + Long.toHexString(recordOffset) + " says "
                + payload + " bytes of tracing data follow, but only " + remaining
                + " remain; the recording was cut short and its tracepoints are printed without formats";
    }
}
