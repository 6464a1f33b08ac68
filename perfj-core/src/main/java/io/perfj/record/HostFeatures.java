package io.perfj.record;

import io.perfj.perfdata.FeatureId;
import io.perfj.perfdata.feature.Feature;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The header features that describe the recording machine, read from {@code /proc} and
 * {@code /sys} where perf's {@code write_*} functions read them: HOSTNAME, OSRELEASE, ARCH,
 * NRCPUS, CPUDESC, CPUID, TOTAL_MEM, CPU_TOPOLOGY, NUMA_TOPOLOGY, PMU_MAPPINGS, CACHE,
 * MEM_TOPOLOGY, CPU_PMU_CAPS and PMU_CAPS. A value
 * the machine does not offer leaves its feature out.
 */
final class HostFeatures {
    private final Path proc;
    private final Path sys;

    HostFeatures(Path proc, Path sys) {
        this.proc = proc;
        this.sys = sys;
    }

    static HostFeatures live() {
        return new HostFeatures(Path.of("/proc"), Path.of("/sys"));
    }

    List<Feature> collect() {
        List<Feature> out = new ArrayList<>();
        text(out, FeatureId.HOSTNAME, read(proc.resolve("sys/kernel/hostname")));
        text(out, FeatureId.OSRELEASE, read(proc.resolve("sys/kernel/osrelease")));
        text(out, FeatureId.ARCH, arch());
        List<Integer> present = cpus();
        int online = 0;
        for (int c : present) {
            online += online(c) ? 1 : 0;
        }
        int avail = present.isEmpty() ? 0 : present.getLast() + 1;
        if (avail > 0) {
            out.add(new Feature.NrCpus(online, avail));
        }
        String cpuinfo = read(proc.resolve("cpuinfo"));
        if (cpuinfo != null) {
            text(out, FeatureId.CPUDESC, field(cpuinfo, "model name"));
            text(out, FeatureId.CPUID, cpuid(cpuinfo));
        }
        String meminfo = read(proc.resolve("meminfo"));
        String total = meminfo == null ? null : field(meminfo, "MemTotal");
        if (total != null) {
            out.add(new Feature.TotalMem(kb(total)));
        }
        if (avail > 0) {
            out.add(topology(avail));
        }
        Feature numa = numa();
        if (numa != null) {
            out.add(numa);
        }
        out.add(pmus());
        pmuCaps(out);
        Feature cache = cache(avail);
        if (cache != null) {
            out.add(cache);
        }
        Feature mem = memTopology();
        if (mem != null) {
            out.add(mem);
        }
        return out;
    }

    private static void text(List<Feature> out, int id, String v) {
        if (v != null && !v.isBlank()) {
            out.add(new Feature.Text(id, v.strip()));
        }
    }

    /** uname's machine: the JVM's names for it are not the kernel's. */
    static String arch() {
        return switch (System.getProperty("os.arch")) {
            case "amd64", "x86_64" -> "x86_64";
            case "aarch64" -> "aarch64";
            case "x86" -> "i686";
            default -> System.getProperty("os.arch");
        };
    }

    /**
     * perf's CPUID string: on x86 "vendor,family,model,stepping"; on arm64 the MIDR as
     * {@code 0x%016lx}; elsewhere absent.
     */
    private String cpuid(String cpuinfo) {
        String vendor = field(cpuinfo, "vendor_id");
        if (vendor != null) {
            return vendor + "," + field(cpuinfo, "cpu family") + "," + field(cpuinfo, "model") + ","
                    + field(cpuinfo, "stepping");
        }
        String midr = read(sys.resolve("devices/system/cpu/cpu0/regs/identification/midr_el1"));
        return midr == null ? null : String.format("0x%016x", Long.decode(midr.strip()));
    }

    /** The first {@code name : value} line's value in a proc text file (whitespace squeezed). */
    static String field(String text, String name) {
        for (String l : text.split("\n")) {
            int colon = l.indexOf(':');
            if (colon > 0 && l.substring(0, colon).strip().equals(name)) {
                return l.substring(colon + 1).strip().replaceAll("\\s+", " ");
            }
        }
        return null;
    }

    private static long kb(String v) {
        String n = v.endsWith(" kB") ? v.substring(0, v.length() - 3) : v;
        try {
            return Long.parseLong(n.strip());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** The present CPUs: {@code /sys/devices/system/cpu/cpuN}, ascending. */
    List<Integer> cpus() {
        return numbered(sys.resolve("devices/system/cpu"), "cpu");
    }

    /** The CPUs to open events on: present and online (cpu0 often has no online file). */
    List<Integer> onlineCpus() {
        List<Integer> out = new ArrayList<>();
        for (int c : cpus()) {
            if (online(c)) {
                out.add(c);
            }
        }
        return out;
    }

    private boolean online(int cpu) {
        String v = read(sys.resolve("devices/system/cpu/cpu" + cpu + "/online"));
        return v == null || v.strip().equals("1");
    }

    private static List<Integer> numbered(Path dir, String prefix) {
        List<Integer> out = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, prefix + "[0-9]*")) {
            for (Path p : ds) {
                String n = p.getFileName().toString().substring(prefix.length());
                if (!n.isEmpty() && n.length() < 8 && n.chars().allMatch(Character::isDigit)) {
                    out.add(Integer.parseInt(n));
                }
            }
        } catch (IOException e) {
            return List.of();
        }
        out.sort(null);
        return out;
    }

    /** CPU_TOPOLOGY: package, thread and die sibling lists (each once), core/socket/die ids. */
    private Feature topology(int nr) {
        Set<String> cores = new LinkedHashSet<>();
        Set<String> threads = new LinkedHashSet<>();
        Set<String> dies = new LinkedHashSet<>();
        List<Feature.CpuTopology.Cpu> cpus = new ArrayList<>();
        for (int c = 0; c < nr; c++) {
            Path t = sys.resolve("devices/system/cpu/cpu" + c + "/topology");
            add(cores, read(t.resolve("core_siblings_list")));
            add(threads, read(t.resolve("thread_siblings_list")));
            add(dies, read(t.resolve("die_cpus_list")));
            cpus.add(new Feature.CpuTopology.Cpu(id(t.resolve("core_id")), id(t.resolve("physical_package_id")),
                    id(t.resolve("die_id"))));
        }
        return new Feature.CpuTopology(List.copyOf(cores), List.copyOf(threads), List.copyOf(cpus),
                List.copyOf(dies), true, true);
    }

    private static void add(Set<String> set, String v) {
        if (v != null) {
            set.add(v.strip());
        }
    }

    private static int id(Path p) {
        String v = read(p);
        try {
            return v == null ? -1 : Integer.parseInt(v.strip());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private Feature numa() {
        Path nodes = sys.resolve("devices/system/node");
        List<Feature.NumaTopology.Node> out = new ArrayList<>();
        for (int n : numbered(nodes, "node")) {
            Path d = nodes.resolve("node" + n);
            String mem = read(d.resolve("meminfo"));
            String cpus = read(d.resolve("cpulist"));
            if (mem == null || cpus == null) {
                continue;
            }
            // lines of "Node N MemTotal:  123 kB"
            String total = field(mem.replace("Node " + n + " ", ""), "MemTotal");
            String free = field(mem.replace("Node " + n + " ", ""), "MemFree");
            out.add(new Feature.NumaTopology.Node(n, total == null ? 0 : kb(total), free == null ? 0 : kb(free),
                    cpus.strip()));
        }
        return out.isEmpty() ? null : new Feature.NumaTopology(List.copyOf(out));
    }

    /** PMU_MAPPINGS: every event source's type number and name. */
    private Feature pmus() {
        Path dir = sys.resolve("bus/event_source/devices");
        List<Feature.PmuMappings.Pmu> out = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path p : ds) {
                String type = read(p.resolve("type"));
                if (type != null) {
                    try {
                        out.add(new Feature.PmuMappings.Pmu(Long.parseLong(type.strip()), p.getFileName().toString()));
                    } catch (NumberFormatException e) {
                        // a device without a numeric type is no event source perf lists
                    }
                }
            }
        } catch (IOException e) {
            // no event sources listed: an empty mapping, as perf writes
        }
        return new Feature.PmuMappings(List.copyOf(out));
    }

    /**
     * CPU_PMU_CAPS and PMU_CAPS, as perf 6.1 writes them: the capabilities of the PMU named
     * {@code cpu} (present only when that PMU is), and those of every other PMU with at least
     * one, in the order the event sources are listed. A capability is a file of the PMU's
     * {@code caps/} directory: its name, and its first line (at most 127 bytes) without its last
     * character, as perf takes it (the newline, where the line has one).
     */
    private void pmuCaps(List<Feature> out) {
        Path dir = sys.resolve("bus/event_source/devices");
        List<Feature.PmuCaps.Pmu> pmus = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path p : ds) {
                if (read(p.resolve("type")) == null) {
                    continue; // no event source perf knows (PMU_MAPPINGS leaves it out too)
                }
                String name = p.getFileName().toString();
                List<Feature.Cap> caps = caps(p.resolve("caps"));
                if (name.equals("cpu")) {
                    out.add(new Feature.CpuPmuCaps(caps));
                } else if (!caps.isEmpty()) {
                    pmus.add(new Feature.PmuCaps.Pmu(name, caps));
                }
            }
        } catch (IOException e) {
            // no event sources listed: no PMU has capabilities
        }
        out.add(new Feature.PmuCaps(List.copyOf(pmus)));
    }

    private static List<Feature.Cap> caps(Path dir) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        List<Feature.Cap> caps = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path f : ds) {
                byte[] b;
                try {
                    b = Files.readAllBytes(f);
                } catch (IOException e) {
                    continue;
                }
                int n = 0;
                while (n < b.length && n < 127 && b[n] != '\n') {
                    n++;
                }
                if (n < b.length && n < 127) {
                    n++;
                }
                if (n == 0) {
                    continue;
                }
                caps.add(new Feature.Cap(f.getFileName().toString(), new String(b, 0, n - 1, StandardCharsets.UTF_8)));
            }
        } catch (IOException e) {
            return List.of();
        }
        return List.copyOf(caps);
    }

    /**
     * CACHE: each CPU's cache/indexN directories (level, line size, sets, ways, type, size, the
     * CPUs sharing it), every distinct cache once, ordered by level (discovery order within a
     * level), as perf lists them; none where the machine describes no cache (a virtual machine's
     * CPUs may have no cache directory), where perf writes the feature empty too. Null when a
     * CPU's cache description is incomplete.
     */
    private Feature cache(int nr) {
        List<Feature.Cache.Level> levels = new ArrayList<>();
        for (int c = 0; c < nr; c++) {
            for (int idx = 0; idx < 4; idx++) {
                Path d = sys.resolve("devices/system/cpu/cpu" + c + "/cache/index" + idx);
                if (!Files.isDirectory(d)) {
                    break;
                }
                String type = read(d.resolve("type"));
                String size = read(d.resolve("size"));
                String map = read(d.resolve("shared_cpu_list"));
                long level = id(d.resolve("level"));
                long line = id(d.resolve("coherency_line_size"));
                long sets = id(d.resolve("number_of_sets"));
                long ways = id(d.resolve("ways_of_associativity"));
                if (type == null || size == null || map == null || level < 0 || line < 0 || sets < 0 || ways < 0) {
                    return null;
                }
                Feature.Cache.Level l = new Feature.Cache.Level(level, line, sets, ways, type.strip(), size.strip(),
                        map.strip());
                if (!contains(levels, l)) {
                    levels.add(l);
                }
            }
        }
        List<Feature.Cache.Level> sorted = new ArrayList<>(levels);
        sorted.sort(java.util.Comparator.comparingLong(Feature.Cache.Level::level));
        return new Feature.Cache(1, List.copyOf(sorted));
    }

    /**
     * Whether {@code levels} holds a cache equal to {@code l}, compared field by field: a record's
     * own equals is bound at its first call (an invokedynamic bootstrap, ~4 ms of a recording's
     * CPU time), and this is the recorder's only use of it.
     */
    private static boolean contains(List<Feature.Cache.Level> levels, Feature.Cache.Level l) {
        for (Feature.Cache.Level o : levels) {
            if (o.level() == l.level() && o.lineSize() == l.lineSize() && o.sets() == l.sets() && o.ways() == l.ways()
                    && o.type().equals(l.type()) && o.size().equals(l.size()) && o.map().equals(l.map())) {
                return true;
            }
        }
        return false;
    }

    /**
     * MEM_TOPOLOGY: the memory block size and, per node (ascending), a bitmap of the memory
     * blocks ({@code memoryN} entries of the node's directory) sized one past the highest block.
     */
    private Feature memTopology() {
        String bs = read(sys.resolve("devices/system/memory/block_size_bytes"));
        long blockSize;
        try {
            blockSize = bs == null ? 0 : Long.parseUnsignedLong(bs.strip(), 16);
        } catch (NumberFormatException e) {
            return null;
        }
        if (blockSize == 0) {
            return null;
        }
        Path nodes = sys.resolve("devices/system/node");
        List<Feature.MemTopology.Node> out = new ArrayList<>();
        for (int n : numbered(nodes, "node")) {
            List<Integer> blocks = numbered(nodes.resolve("node" + n), "memory");
            long bits = blocks.isEmpty() ? 0 : blocks.getLast() + 1L;
            long[] map = new long[(int) ((bits + 63) >>> 6)];
            for (int b : blocks) {
                map[b >>> 6] |= 1L << (b & 63);
            }
            out.add(new Feature.MemTopology.Node(n, bits, bits, map));
        }
        return out.isEmpty() ? null : new Feature.MemTopology(1, blockSize, List.copyOf(out));
    }

    private static String read(Path p) {
        try {
            return Files.readString(p, StandardCharsets.ISO_8859_1);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
