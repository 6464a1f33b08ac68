package io.perfj.perfdata;

/** {@code PERF_SAMPLE_*} bits of {@code perf_event_attr.sample_type} and {@code PERF_FORMAT_*} bits of read_format. */
public final class SampleFormat {
    private SampleFormat() {
    }

    public static final long IP = 1L << 0;
    public static final long TID = 1L << 1;
    public static final long TIME = 1L << 2;
    public static final long ADDR = 1L << 3;
    public static final long READ = 1L << 4;
    public static final long CALLCHAIN = 1L << 5;
    public static final long ID = 1L << 6;
    public static final long CPU = 1L << 7;
    public static final long PERIOD = 1L << 8;
    public static final long STREAM_ID = 1L << 9;
    public static final long RAW = 1L << 10;
    public static final long BRANCH_STACK = 1L << 11;
    public static final long REGS_USER = 1L << 12;
    public static final long STACK_USER = 1L << 13;
    public static final long WEIGHT = 1L << 14;
    public static final long DATA_SRC = 1L << 15;
    public static final long IDENTIFIER = 1L << 16;
    public static final long TRANSACTION = 1L << 17;
    public static final long REGS_INTR = 1L << 18;
    public static final long PHYS_ADDR = 1L << 19;
    public static final long AUX = 1L << 20;
    public static final long CGROUP = 1L << 21;
    public static final long DATA_PAGE_SIZE = 1L << 22;
    public static final long CODE_PAGE_SIZE = 1L << 23;
    public static final long WEIGHT_STRUCT = 1L << 24;

    public static final String[] SAMPLE_BIT_NAMES = {
        "IP", "TID", "TIME", "ADDR", "READ", "CALLCHAIN", "ID", "CPU", "PERIOD", "STREAM_ID", "RAW",
        "BRANCH_STACK", "REGS_USER", "STACK_USER", "WEIGHT", "DATA_SRC", "IDENTIFIER", "TRANSACTION",
        "REGS_INTR", "PHYS_ADDR", "AUX", "CGROUP", "DATA_PAGE_SIZE", "CODE_PAGE_SIZE", "WEIGHT_STRUCT",
    };

    public static final long FORMAT_TOTAL_TIME_ENABLED = 1L << 0;
    public static final long FORMAT_TOTAL_TIME_RUNNING = 1L << 1;
    public static final long FORMAT_ID = 1L << 2;
    public static final long FORMAT_GROUP = 1L << 3;
    public static final long FORMAT_LOST = 1L << 4;

    /** The sample_id_all trailer fields, in trailer order. */
    public static final long ID_ALL_MASK = TID | TIME | ID | STREAM_ID | CPU | IDENTIFIER;

    /** Bytes of the sample_id_all trailer for a sample_type. */
    public static int idTrailerSize(long sampleType) {
        return 8 * Long.bitCount(sampleType & ID_ALL_MASK);
    }
}
