package io.perfj.perfdata;

/**
 * A {@code perf_event_header.type} value: the kernel's record types (1..) and perf's own
 * user records (64..). An open value type: unknown numbers are kept and print as a number.
 */
public record RecordType(int value) {
    public static final int MMAP = 1;
    public static final int LOST = 2;
    public static final int COMM = 3;
    public static final int EXIT = 4;
    public static final int THROTTLE = 5;
    public static final int UNTHROTTLE = 6;
    public static final int FORK = 7;
    public static final int READ = 8;
    public static final int SAMPLE = 9;
    public static final int MMAP2 = 10;
    public static final int AUX = 11;
    public static final int ITRACE_START = 12;
    public static final int LOST_SAMPLES = 13;
    public static final int SWITCH = 14;
    public static final int SWITCH_CPU_WIDE = 15;
    public static final int NAMESPACES = 16;
    public static final int KSYMBOL = 17;
    public static final int BPF_EVENT = 18;
    public static final int CGROUP = 19;
    public static final int TEXT_POKE = 20;
    public static final int AUX_OUTPUT_HW_ID = 21;
    public static final int CALLCHAIN_DEFERRED = 22;

    public static final int HEADER_ATTR = 64;
    public static final int HEADER_EVENT_TYPE = 65;
    public static final int HEADER_TRACING_DATA = 66;
    public static final int HEADER_BUILD_ID = 67;
    public static final int FINISHED_ROUND = 68;
    public static final int ID_INDEX = 69;
    public static final int AUXTRACE_INFO = 70;
    public static final int AUXTRACE = 71;
    public static final int AUXTRACE_ERROR = 72;
    public static final int THREAD_MAP = 73;
    public static final int CPU_MAP = 74;
    public static final int STAT_CONFIG = 75;
    public static final int STAT = 76;
    public static final int STAT_ROUND = 77;
    public static final int EVENT_UPDATE = 78;
    public static final int TIME_CONV = 79;
    public static final int HEADER_FEATURE = 80;
    public static final int COMPRESSED = 81;
    public static final int FINISHED_INIT = 82;
    public static final int COMPRESSED2 = 83;

    /** First type number perf uses for its own (non-kernel) records. */
    public static final int USER_TYPE_START = 64;

    private static final String[] KERNEL = {
        null, "MMAP", "LOST", "COMM", "EXIT", "THROTTLE", "UNTHROTTLE", "FORK", "READ", "SAMPLE",
        "MMAP2", "AUX", "ITRACE_START", "LOST_SAMPLES", "SWITCH", "SWITCH_CPU_WIDE", "NAMESPACES",
        "KSYMBOL", "BPF_EVENT", "CGROUP", "TEXT_POKE", "AUX_OUTPUT_HW_ID", "CALLCHAIN_DEFERRED",
    };
    private static final String[] USER = {
        "ATTR", "EVENT_TYPE", "TRACING_DATA", "BUILD_ID", "FINISHED_ROUND", "ID_INDEX",
        "AUXTRACE_INFO", "AUXTRACE", "AUXTRACE_ERROR", "THREAD_MAP", "CPU_MAP", "STAT_CONFIG",
        "STAT", "STAT_ROUND", "EVENT_UPDATE", "TIME_CONV", "FEATURE", "COMPRESSED", "FINISHED_INIT",
        "COMPRESSED2",
    };

    public boolean isUser() {
        return value >= USER_TYPE_START;
    }

    /** perf's name without the PERF_RECORD_ prefix, or null when the number is unknown. */
    public String knownName() {
        if (value > 0 && value < KERNEL.length) {
            return KERNEL[value];
        }
        int u = value - USER_TYPE_START;
        if (u >= 0 && u < USER.length) {
            return USER[u];
        }
        return null;
    }

    /** The name as perf prints it ({@code perf_event__name}): known name or "UNKNOWN". */
    public String perfName() {
        String n = knownName();
        return n == null ? "UNKNOWN" : n;
    }

    public static String name(int type) {
        return new RecordType(type).perfName();
    }

    private static final String[] STRUCTURES = new String[128];

    static {
        for (int i = 0; i < STRUCTURES.length; i++) {
            STRUCTURES[i] = "PERF_RECORD_" + name(i);
        }
    }

    /** "PERF_RECORD_" + the name, as errors name the structure (cached: asked for every record). */
    public static String structure(int type) {
        return type >= 0 && type < STRUCTURES.length ? STRUCTURES[type] : "PERF_RECORD_" + name(type);
    }

    @Override
    public String toString() {
        String n = knownName();
        return n == null ? Integer.toString(value) : n;
    }
}
