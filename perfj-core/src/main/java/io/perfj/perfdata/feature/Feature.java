package io.perfj.perfdata.feature;

import io.perfj.perfdata.EventAttr;
import io.perfj.perfdata.FeatureId;

import java.util.HexFormat;
import java.util.List;

/**
 * One decoded perf.data feature section ({@code HEADER_*} in perf's util/header.h). Each record
 * holds what the section holds; {@link Raw} keeps sections that are not decoded (TRACING_DATA,
 * AUXTRACE, unknown ids). Decode with {@link Features#decode}.
 */
public sealed interface Feature {
    /** The feature id ({@link FeatureId}). */
    int id();

    default String name() {
        return FeatureId.name(id());
    }

    /** An undecoded section. */
    record Raw(int id, byte[] bytes) implements Feature {
    }

    /** HOSTNAME, OSRELEASE, VERSION, ARCH, CPUDESC, CPUID: one perf string. */
    record Text(int id, String value) implements Feature {
    }

    /** BUILD_ID: the build-ids of the DSOs that had samples. */
    record BuildIds(List<BuildId> entries) implements Feature {
        public int id() {
            return FeatureId.BUILD_ID;
        }

        /**
         * One {@code struct build_id_event}. {@code size} is the recorded build-id length when the
         * PERF_RECORD_MISC_BUILD_ID_SIZE bit of {@code misc} says it is present, otherwise 20.
         */
        public record BuildId(int misc, int pid, byte[] buildId, int size, String filename) {
            public static final int MISC_BUILD_ID_SIZE = 1 << 15;

            public String hex() {
                return HexFormat.of().formatHex(buildId, 0, Math.min(size, buildId.length));
            }
        }
    }

    /** NRCPUS: CPUs online and available (present) at record time. */
    record NrCpus(long online, long available) implements Feature {
        public int id() {
            return FeatureId.NRCPUS;
        }
    }

    /** TOTAL_MEM in kB. */
    record TotalMem(long kb) implements Feature {
        public int id() {
            return FeatureId.TOTAL_MEM;
        }
    }

    /** CMDLINE: perf's own argv. */
    record Cmdline(List<String> argv) implements Feature {
        public int id() {
            return FeatureId.CMDLINE;
        }
    }

    /** EVENT_DESC: every event's attr, name and sample ids. */
    record EventDesc(List<Event> events) implements Feature {
        public int id() {
            return FeatureId.EVENT_DESC;
        }

        public record Event(EventAttr attr, String name, long[] ids) {
        }
    }

    /**
     * CPU_TOPOLOGY. {@code cpus} is empty when the section ends before the per-CPU core/socket ids
     * (old perf); {@code dieSiblings} is empty and die ids are -1 when it ends before the die part.
     */
    record CpuTopology(List<String> coreSiblings, List<String> threadSiblings, List<Cpu> cpus,
                       List<String> dieSiblings, boolean hasCpuIds, boolean hasDies) implements Feature {
        public int id() {
            return FeatureId.CPU_TOPOLOGY;
        }

        public record Cpu(int coreId, int socketId, int dieId) {
        }
    }

    /** NUMA_TOPOLOGY. */
    record NumaTopology(List<Node> nodes) implements Feature {
        public int id() {
            return FeatureId.NUMA_TOPOLOGY;
        }

        public record Node(long node, long memTotal, long memFree, String cpus) {
        }
    }

    /** PMU_MAPPINGS: PMU type number to name. */
    record PmuMappings(List<Pmu> pmus) implements Feature {
        public int id() {
            return FeatureId.PMU_MAPPINGS;
        }

        public record Pmu(long type, String name) {
        }
    }

    /** GROUP_DESC: event groups by leader index. */
    record GroupDesc(List<Group> groups) implements Feature {
        public int id() {
            return FeatureId.GROUP_DESC;
        }

        public record Group(String name, long leaderIdx, long nrMembers) {
        }
    }

    /** CACHE: CPU cache levels. */
    record Cache(long version, List<Level> levels) implements Feature {
        public int id() {
            return FeatureId.CACHE;
        }

        public record Level(long level, long lineSize, long sets, long ways, String type, String size, String map) {
        }
    }

    /** SAMPLE_TIME: first and last sample timestamps (ns). */
    record SampleTime(long first, long last) implements Feature {
        public int id() {
            return FeatureId.SAMPLE_TIME;
        }
    }

    /**
     * MEM_TOPOLOGY: memory blocks per node. {@code blocks} is a bitmap of {@code bits} bits, one per
     * memory block of {@code blockSize} bytes; {@code size} is the node's recorded size field
     * (perf writes the bitmap's bit count there too).
     */
    record MemTopology(long version, long blockSize, List<Node> nodes) implements Feature {
        public int id() {
            return FeatureId.MEM_TOPOLOGY;
        }

        public record Node(long node, long size, long bits, long[] blocks) {
            public boolean has(long bit) {
                return bit >= 0 && bit < bits && (blocks[(int) (bit >>> 6)] & (1L << (bit & 63))) != 0;
            }

            public long weight() {
                long w = 0;
                for (long b = 0; b < bits; b++) {
                    if (has(b)) w++;
                }
                return w;
            }
        }
    }

    /** CLOCKID: resolution of the clock used for timestamps, in ns. */
    record ClockId(long resolutionNs) implements Feature {
        public int id() {
            return FeatureId.CLOCKID;
        }
    }

    /** CLOCK_DATA: a wall-clock / perf-clock reference pair. */
    record ClockData(long version, long clockid, long wallClockNs, long clockidNs) implements Feature {
        public int id() {
            return FeatureId.CLOCK_DATA;
        }
    }

    /** DIR_FORMAT: version of a directory-format recording. */
    record DirFormat(long version) implements Feature {
        public int id() {
            return FeatureId.DIR_FORMAT;
        }
    }

    /** BPF_PROG_INFO: the BPF programs loaded while recording. */
    record BpfProgInfo(List<BpfProg> programs) implements Feature {
        public int id() {
            return FeatureId.BPF_PROG_INFO;
        }
    }

    /** BPF_BTF: BTF blobs by id. */
    record BpfBtf(List<Btf> entries) implements Feature {
        public int id() {
            return FeatureId.BPF_BTF;
        }

        public record Btf(long id, byte[] data) {
        }
    }

    /** COMPRESSED: how the data section was compressed (type 1 = Zstd). */
    record Compressed(long version, long type, long level, long ratio, long mmapLen) implements Feature {
        public int id() {
            return FeatureId.COMPRESSED;
        }
    }

    /** CPU_PMU_CAPS: capabilities of the cpu PMU as name/value pairs. */
    record CpuPmuCaps(List<Cap> caps) implements Feature {
        public int id() {
            return FeatureId.CPU_PMU_CAPS;
        }
    }

    /** A PMU capability: {@code name=value}. */
    record Cap(String name, String value) {
    }

    /** HYBRID_TOPOLOGY: CPUs of each core PMU on hybrid machines. */
    record HybridTopology(List<Node> nodes) implements Feature {
        public int id() {
            return FeatureId.HYBRID_TOPOLOGY;
        }

        public record Node(String pmuName, String cpus) {
        }
    }

    /** PMU_CAPS: capabilities per PMU. */
    record PmuCaps(List<Pmu> pmus) implements Feature {
        public int id() {
            return FeatureId.PMU_CAPS;
        }

        public record Pmu(String name, List<Cap> caps) {
        }
    }

    /** BRANCH_STACK (no payload) and STAT (no payload): presence is the information. */
    record Flag(int id) implements Feature {
    }
}
