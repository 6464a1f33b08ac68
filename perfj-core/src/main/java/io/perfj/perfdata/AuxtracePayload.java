package io.perfj.perfdata;

/**
 * The trace data after a PERF_RECORD_AUXTRACE record (Intel PT, ARM SPE, CoreSight): its length
 * is the record's {@code size} field, not part of {@code header.size}, so every reader steps over
 * it by hand.
 */
final class AuxtracePayload {
    /** Where the payload's length is in the record (after the 8-byte header). */
    static final int SIZE_AT = 8;
    /** The smallest record that holds that field. */
    static final int SIZE_END = SIZE_AT + 8;

    private AuxtracePayload() {
    }

    /** The warning for a payload longer than what is left of the data. */
    static String cutShort(String source, long recordOffset, long payload, long remaining) {
        return source + ": PERF_RECORD_AUXTRACE at offset 0x" + Long.toHexString(recordOffset) + " says "
                + Long.toUnsignedString(payload) + " bytes of trace data follow, but only " + remaining
                + " remain; the recording was cut short";
    }
}
