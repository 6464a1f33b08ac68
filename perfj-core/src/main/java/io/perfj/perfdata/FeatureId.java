package io.perfj.perfdata;

/** Header feature numbers ({@code HEADER_*} in perf's util/header.h). */
public final class FeatureId {
    private FeatureId() {
    }

    public static final int TRACING_DATA = 1;
    public static final int BUILD_ID = 2;
    public static final int HOSTNAME = 3;
    public static final int OSRELEASE = 4;
    public static final int VERSION = 5;
    public static final int ARCH = 6;
    public static final int NRCPUS = 7;
    public static final int CPUDESC = 8;
    public static final int CPUID = 9;
    public static final int TOTAL_MEM = 10;
    public static final int CMDLINE = 11;
    public static final int EVENT_DESC = 12;
    public static final int CPU_TOPOLOGY = 13;
    public static final int NUMA_TOPOLOGY = 14;
    public static final int BRANCH_STACK = 15;
    public static final int PMU_MAPPINGS = 16;
    public static final int GROUP_DESC = 17;
    public static final int AUXTRACE = 18;
    public static final int STAT = 19;
    public static final int CACHE = 20;
    public static final int SAMPLE_TIME = 21;
    public static final int MEM_TOPOLOGY = 22;
    public static final int CLOCKID = 23;
    public static final int DIR_FORMAT = 24;
    public static final int BPF_PROG_INFO = 25;
    public static final int BPF_BTF = 26;
    public static final int COMPRESSED = 27;
    public static final int CPU_PMU_CAPS = 28;
    public static final int CLOCK_DATA = 29;
    public static final int HYBRID_TOPOLOGY = 30;
    public static final int PMU_CAPS = 31;
    public static final int CPU_DOMAIN_INFO = 32;
    public static final int E_MACHINE = 33;
    public static final int CLN_SIZE = 34;

    private static final String[] NAMES = {
        "RESERVED", "TRACING_DATA", "BUILD_ID", "HOSTNAME", "OSRELEASE", "VERSION", "ARCH", "NRCPUS",
        "CPUDESC", "CPUID", "TOTAL_MEM", "CMDLINE", "EVENT_DESC", "CPU_TOPOLOGY", "NUMA_TOPOLOGY",
        "BRANCH_STACK", "PMU_MAPPINGS", "GROUP_DESC", "AUXTRACE", "STAT", "CACHE", "SAMPLE_TIME",
        "MEM_TOPOLOGY", "CLOCKID", "DIR_FORMAT", "BPF_PROG_INFO", "BPF_BTF", "COMPRESSED",
        "CPU_PMU_CAPS", "CLOCK_DATA", "HYBRID_TOPOLOGY", "PMU_CAPS",
        "CPU_DOMAIN_INFO", "E_MACHINE", "CLN_SIZE",
    };

    /** perf's feature name (as in "# missing features:"), or "feature N". */
    public static String name(int id) {
        return id >= 0 && id < NAMES.length ? NAMES[id] : "feature " + id;
    }
}
