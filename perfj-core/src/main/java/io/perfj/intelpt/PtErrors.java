package io.perfj.intelpt;

/**
 * The decoder's error codes and texts, as perf 6.1 numbers and words them in its
 * PERF_RECORD_AUXTRACE_ERROR events (intel-pt-decoder.h, intel_pt__strerror).
 */
public final class PtErrors {
    public static final int NOMEM = 1;
    public static final int INTERN = 2;
    public static final int BADPKT = 3;
    public static final int NODATA = 4;
    public static final int NOINSN = 5;
    public static final int MISMAT = 6;
    public static final int OVR = 7;
    public static final int LOST = 8;
    public static final int UNK = 9;
    public static final int NELOOP = 10;

    private static final String[] MESSAGES = {
        "Unknown error!", "Memory allocation failed", "Internal error", "Bad packet", "No more data",
        "Failed to get instruction", "Trace doesn't match instruction", "Overflow packet", "Lost trace data",
        "Unknown error!", "Never-ending loop (refer perf config intel-pt.max-loops)",
    };

    private PtErrors() {
    }

    /** The message perf prints for {@code code}. */
    public static String message(int code) {
        return code > 0 && code < MESSAGES.length ? MESSAGES[code] : MESSAGES[UNK];
    }
}
