package io.perfj.perfdata.feature;

import io.perfj.io.Bytes;
import io.perfj.io.Cursor;
import io.perfj.io.FormatException;
import io.perfj.perfdata.EventAttr;
import io.perfj.perfdata.FeatureId;
import io.perfj.perfdata.PerfData;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Decodes feature sections (layouts from perf's util/header.c {@code write_*} functions). Every
 * count is checked against the bytes left before anything is allocated, and every error is a
 * {@link FormatException} naming "feature NAME" and the absolute offset.
 */
public final class Features {
    private Features() {
    }

    /** Build-id field size in {@code struct build_id_event} (20 bytes padded to 24). */
    static final int BUILD_ID_FIELD = 24;
    static final int BUILD_ID_MAX = 20;

    /**
     * Decodes one feature payload. {@code data} supplies context some sections need (CPU_TOPOLOGY's
     * per-CPU part is sized by NRCPUS) and may be null.
     */
    public static Feature decode(int id, Bytes payload, PerfData data) {
        Bytes b = payload.named("feature " + FeatureId.name(id));
        return switch (id) {
            case FeatureId.HOSTNAME, FeatureId.OSRELEASE, FeatureId.VERSION, FeatureId.ARCH,
                 FeatureId.CPUDESC, FeatureId.CPUID -> new Feature.Text(id, b.cursor().perfString());
            case FeatureId.BUILD_ID -> buildIds(b);
            case FeatureId.NRCPUS -> nrcpus(b);
            case FeatureId.TOTAL_MEM -> new Feature.TotalMem(b.u64(0));
            case FeatureId.CMDLINE -> cmdline(b);
            case FeatureId.EVENT_DESC -> eventDesc(b);
            case FeatureId.CPU_TOPOLOGY -> cpuTopology(b, nrCpusAvail(data));
            case FeatureId.NUMA_TOPOLOGY -> numa(b);
            case FeatureId.BRANCH_STACK, FeatureId.STAT -> new Feature.Flag(id);
            case FeatureId.PMU_MAPPINGS -> pmuMappings(b);
            case FeatureId.GROUP_DESC -> groupDesc(b);
            case FeatureId.CACHE -> cache(b);
            case FeatureId.SAMPLE_TIME -> new Feature.SampleTime(b.u64(0), b.u64(8));
            case FeatureId.MEM_TOPOLOGY -> memTopology(b);
            case FeatureId.CLOCKID -> new Feature.ClockId(b.u64(0));
            case FeatureId.DIR_FORMAT -> new Feature.DirFormat(b.u64(0));
            case FeatureId.BPF_PROG_INFO -> bpfProgInfo(b);
            case FeatureId.BPF_BTF -> bpfBtf(b);
            case FeatureId.COMPRESSED -> compressed(b);
            case FeatureId.CPU_PMU_CAPS -> new Feature.CpuPmuCaps(caps(b.cursor()));
            case FeatureId.CLOCK_DATA -> clockData(b);
            case FeatureId.HYBRID_TOPOLOGY -> hybrid(b);
            case FeatureId.PMU_CAPS -> pmuCaps(b);
            default -> new Feature.Raw(id, b.bytes(0, b.size()));
        };
    }

    /** Decodes every feature of the file (pipe mode: those seen so far), by id. */
    public static Map<Integer, Feature> decodeAll(PerfData data) {
        Map<Integer, Feature> out = new LinkedHashMap<>();
        for (Map.Entry<Integer, Bytes> e : data.features().entrySet()) {
            out.put(e.getKey(), decode(e.getKey(), e.getValue(), data));
        }
        return out;
    }

    /** NRCPUS's available count, or -1 when the file has no readable NRCPUS. */
    static long nrCpusAvail(PerfData data) {
        if (data == null) {
            return -1;
        }
        Bytes nr = data.features().get(FeatureId.NRCPUS);
        if (nr == null || !nr.has(0, 8)) {
            return -1;
        }
        return nr.u32(0);
    }

    static Feature.BuildIds buildIds(Bytes b) {
        List<Feature.BuildIds.BuildId> out = new ArrayList<>();
        long pos = 0;
        while (pos < b.size()) {
            b.check(pos, 8);
            int misc = b.u16(pos + 4);
            int size = b.u16(pos + 6);
            long fixed = 8 + 4 + BUILD_ID_FIELD;
            if (size < fixed) {
                throw b.error(pos + 6, "build_id_event size " + size + " is smaller than its " + fixed + "-byte fixed part");
            }
            b.check(pos, size);
            int pid = b.s32(pos + 8);
            byte[] id = b.bytes(pos + 12, BUILD_ID_FIELD);
            int idSize = BUILD_ID_MAX;
            if ((misc & Feature.BuildIds.BuildId.MISC_BUILD_ID_SIZE) != 0) {
                idSize = id[BUILD_ID_MAX] & 0xff;
                if (idSize > BUILD_ID_MAX) {
                    throw b.error(pos + 12 + BUILD_ID_MAX, "build-id size " + idSize + " exceeds " + BUILD_ID_MAX);
                }
            }
            byte[] trimmed = java.util.Arrays.copyOf(id, BUILD_ID_MAX);
            String filename = b.cstring(pos + fixed, size - fixed);
            out.add(new Feature.BuildIds.BuildId(misc, pid, trimmed, idSize, filename));
            pos += size;
        }
        return new Feature.BuildIds(List.copyOf(out));
    }

    static Feature.NrCpus nrcpus(Bytes b) {
        long avail = b.u32(0);
        long online = b.u32(4);
        return new Feature.NrCpus(online, avail);
    }

    static Feature.Cmdline cmdline(Bytes b) {
        Cursor c = b.cursor();
        int n = c.count(c.u32(), 4, "argv");
        List<String> argv = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            argv.add(c.perfString());
        }
        return new Feature.Cmdline(List.copyOf(argv));
    }

    /** EVENT_DESC: u32 nr, u32 attr size, then per event: attr, u32 nr_ids, name, u64 ids. */
    public static Feature.EventDesc decodeEventDesc(Bytes payload) {
        return eventDesc(payload.named("feature " + FeatureId.name(FeatureId.EVENT_DESC)));
    }

    static Feature.EventDesc eventDesc(Bytes b) {
        Cursor c = b.cursor();
        long nrRaw = c.u32();
        long sz = c.u32();
        if (sz < EventAttr.SIZE_VER0 || sz > 4096) {
            throw b.error(4, "attr size " + sz + " is not a valid perf_event_attr size");
        }
        int nr = c.count(nrRaw, sz + 8, "event");
        List<Feature.EventDesc.Event> events = new ArrayList<>(nr);
        for (int i = 0; i < nr; i++) {
            Bytes attrBytes = c.slice(sz, "feature EVENT_DESC attr");
            EventAttr attr = EventAttr.read(attrBytes.named("feature EVENT_DESC attr"));
            long nrIds = c.u32();
            String name = c.perfString();
            int n = c.count(nrIds, 8, "id");
            long[] ids = new long[n];
            for (int k = 0; k < n; k++) {
                ids[k] = c.u64();
            }
            events.add(new Feature.EventDesc.Event(attr, name, ids));
        }
        return new Feature.EventDesc(List.copyOf(events));
    }

    private static List<String> strings(Cursor c, String what) {
        int n = c.count(c.u32(), 4, what);
        List<String> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(c.perfString());
        }
        return List.copyOf(out);
    }

    /**
     * CPU_TOPOLOGY, versioned by what follows: core siblings, thread siblings; then (if bytes
     * remain) core_id/socket_id for each of NRCPUS's available CPUs; then (if bytes remain) die
     * siblings and a die_id per CPU. Without NRCPUS the per-CPU count is 0, as in perf.
     */
    static Feature.CpuTopology cpuTopology(Bytes b, long nrCpus) {
        Cursor c = b.cursor();
        List<String> cores = strings(c, "core siblings");
        List<String> threads = strings(c, "thread siblings");
        if (!c.hasRemaining()) {
            return new Feature.CpuTopology(cores, threads, List.of(), List.of(), false, false);
        }
        int nr = nrCpus < 0 ? 0 : c.count(nrCpus, 8, "cpu id");
        int[] core = new int[nr];
        int[] socket = new int[nr];
        for (int i = 0; i < nr; i++) {
            core[i] = c.s32();
            socket[i] = c.s32();
        }
        List<String> dies = List.of();
        int[] die = new int[nr];
        java.util.Arrays.fill(die, -1);
        boolean hasDies = false;
        if (c.hasRemaining()) {
            hasDies = true;
            dies = strings(c, "die siblings");
            c.count(nr, 4, "die id");
            for (int i = 0; i < nr; i++) {
                die[i] = c.s32();
            }
        }
        List<Feature.CpuTopology.Cpu> cpus = new ArrayList<>(nr);
        for (int i = 0; i < nr; i++) {
            cpus.add(new Feature.CpuTopology.Cpu(core[i], socket[i], die[i]));
        }
        return new Feature.CpuTopology(cores, threads, List.copyOf(cpus), dies, true, hasDies);
    }

    static Feature.NumaTopology numa(Bytes b) {
        Cursor c = b.cursor();
        int n = c.count(c.u32(), 24, "node");
        List<Feature.NumaTopology.Node> nodes = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            long node = c.u32();
            long total = c.u64();
            long free = c.u64();
            nodes.add(new Feature.NumaTopology.Node(node, total, free, c.perfString()));
        }
        return new Feature.NumaTopology(List.copyOf(nodes));
    }

    static Feature.PmuMappings pmuMappings(Bytes b) {
        Cursor c = b.cursor();
        int n = c.count(c.u32(), 8, "pmu");
        List<Feature.PmuMappings.Pmu> pmus = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            long type = c.u32();
            pmus.add(new Feature.PmuMappings.Pmu(type, c.perfString()));
        }
        return new Feature.PmuMappings(List.copyOf(pmus));
    }

    static Feature.GroupDesc groupDesc(Bytes b) {
        Cursor c = b.cursor();
        int n = c.count(c.u32(), 12, "group");
        List<Feature.GroupDesc.Group> groups = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String name = c.perfString();
            long leader = c.u32();
            long members = c.u32();
            groups.add(new Feature.GroupDesc.Group(name, leader, members));
        }
        return new Feature.GroupDesc(List.copyOf(groups));
    }

    static Feature.Cache cache(Bytes b) {
        Cursor c = b.cursor();
        long version = c.u32();
        if (version != 1) {
            throw b.error(0, "cache info version " + version + " is not supported (expected 1)");
        }
        int n = c.count(c.u32(), 28, "cache level");
        List<Feature.Cache.Level> levels = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            long level = c.u32();
            long line = c.u32();
            long sets = c.u32();
            long ways = c.u32();
            String type = c.perfString();
            String size = c.perfString();
            String map = c.perfString();
            levels.add(new Feature.Cache.Level(level, line, sets, ways, type, size, map));
        }
        return new Feature.Cache(version, List.copyOf(levels));
    }

    static Feature.MemTopology memTopology(Bytes b) {
        Cursor c = b.cursor();
        long version = c.u64();
        long blockSize = c.u64();
        int n = c.count(c.u64(), 24, "memory node");
        // per node: u64 node, u64 size, then a bitmap as u64 bit count + u64 words
        List<Feature.MemTopology.Node> nodes = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            long node = c.u64();
            long size = c.u64();
            long bits = c.u64();
            long words = bits < 0 ? -1 : (bits + 63) >>> 6;
            int w = c.count(words, 8, "bitmap word");
            long[] map = new long[w];
            for (int k = 0; k < w; k++) {
                map[k] = c.u64();
            }
            nodes.add(new Feature.MemTopology.Node(node, size, bits, map));
        }
        return new Feature.MemTopology(version, blockSize, List.copyOf(nodes));
    }

    static Feature.Compressed compressed(Bytes b) {
        Cursor c = b.cursor();
        return new Feature.Compressed(c.u32(), c.u32(), c.u32(), c.u32(), c.u32());
    }

    static List<Feature.Cap> caps(Cursor c) {
        int n = c.count(c.u32(), 8, "capability");
        List<Feature.Cap> caps = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String name = c.perfString();
            caps.add(new Feature.Cap(name, c.perfString()));
        }
        return List.copyOf(caps);
    }

    static Feature.PmuCaps pmuCaps(Bytes b) {
        Cursor c = b.cursor();
        int n = c.count(c.u32(), 8, "pmu");
        List<Feature.PmuCaps.Pmu> pmus = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            List<Feature.Cap> caps = caps(c);
            pmus.add(new Feature.PmuCaps.Pmu(c.perfString(), caps));
        }
        return new Feature.PmuCaps(List.copyOf(pmus));
    }

    static Feature.ClockData clockData(Bytes b) {
        Cursor c = b.cursor();
        long version = c.u32();
        if (version != 1) {
            throw b.error(0, "clock data version " + version + " is not supported (expected 1)");
        }
        long clockid = c.u32();
        return new Feature.ClockData(version, clockid, c.u64(), c.u64());
    }

    static Feature.HybridTopology hybrid(Bytes b) {
        Cursor c = b.cursor();
        int n = c.count(c.u32(), 8, "hybrid node");
        List<Feature.HybridTopology.Node> nodes = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String pmu = c.perfString();
            nodes.add(new Feature.HybridTopology.Node(pmu, c.perfString()));
        }
        return new Feature.HybridTopology(List.copyOf(nodes));
    }

    static Feature.BpfBtf bpfBtf(Bytes b) {
        Cursor c = b.cursor();
        int n = c.count(c.u32(), 8, "btf");
        List<Feature.BpfBtf.Btf> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            long id = c.u32();
            long size = c.u32();
            if (size > c.remaining()) {
                throw c.error("BTF of id " + id + " needs " + size + " bytes, only " + c.remaining() + " remain");
            }
            out.add(new Feature.BpfBtf.Btf(id, c.bytes(size)));
        }
        return new Feature.BpfBtf(List.copyOf(out));
    }

    static Feature.BpfProgInfo bpfProgInfo(Bytes b) {
        Cursor c = b.cursor();
        int n = c.count(c.u32(), 16, "bpf program");
        List<BpfProg> progs = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            progs.add(BpfProgDecoder.decode(c));
        }
        return new Feature.BpfProgInfo(List.copyOf(progs));
    }
}
