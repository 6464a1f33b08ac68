package io.perfj.print;

import io.perfj.io.Bytes;
import io.perfj.io.FormatException;
import io.perfj.perfdata.EventAttr;
import io.perfj.perfdata.Evsel;
import io.perfj.perfdata.FeatureId;
import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.PerfHeader;
import io.perfj.perfdata.RawRecord;
import io.perfj.perfdata.RecordInput;
import io.perfj.perfdata.RecordType;
import io.perfj.perfdata.feature.BpfProg;
import io.perfj.bpf.BtfNames;
import io.perfj.perfdata.feature.EventGroups;
import io.perfj.perfdata.feature.EventNames;
import io.perfj.perfdata.feature.Feature;
import io.perfj.perfdata.feature.Features;

import java.io.IOException;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TimeZone;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Prints what {@code perf report --header-only} (and with {@code -I}, {@code --header-only -I})
 * prints for a recording, line for line: perf 7.2's layout, or perf 6.1's ({@link HeaderLayout}).
 *
 * <p>Almost everything comes from the file. These parts come from the running system instead,
 * as they do in perf:
 * <ul>
 *   <li>{@code # captured on} is the modification time of the input (perf's {@code fstat} of the
 *       open file, so for standard input it is the mtime of whatever fd 0 is: the file it was
 *       redirected from, or the pipe), formatted like C's {@code ctime()} in the local time zone;</li>
 *   <li>the CLOCK_DATA {@code # reference time} line formats the recorded wall-clock time in the
 *       local time zone ({@code localtime_r});</li>
 *   <li>perf on a big-endian host would treat a little-endian file as byte-swapped: BPF program
 *       and BTF sections from a file of the other byte order than the host are not printed
 *       (perf: "interpreting bpf_prog_info from systems with endianness is not yet supported"),
 *       so this printer compares the file's order with the JVM's native order.</li>
 * </ul>
 * The local zone is the system's unless one is passed in.
 *
 * <p>Which features only print with {@code -I} (perf's {@code full_only}): CPU_TOPOLOGY,
 * NUMA_TOPOLOGY, CACHE, MEM_TOPOLOGY and HYBRID_TOPOLOGY. Features the layout's perf does not
 * know (perf 6.1: id 32 and up; perf 7.2: 35 and up) print nothing; of perf 7.2's new ones,
 * CPU_DOMAIN_INFO prints nothing here. TRACING_DATA and BUILD_ID have no printer in perf.
 *
 * <p>perf 7.2 names an event's type and config from the running system (its PMUs, its tracefs
 * ids); this printer names them from the recording (PMU_MAPPINGS, the tracing data's formats),
 * which is what the recorded ids meant.
 *
 * <p>Pipe-mode recordings have no feature table: perf prints the zeroed header, closes the
 * block, then prints each HEADER_FEATURE record as it arrives until the end-of-features marker
 * (the writer's last feature id, an empty record: 32 from perf 6.1, 35 from perf 7.2) and prints
 * no "missing features" line.
 */
public final class HeaderPrinter {
    /** ctime()'s C-locale names, spelled out: a DateTimeFormatter's text fields load locale data. */
    private static final String[] DAYS = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
    private static final String[] MONTHS = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct",
        "Nov", "Dec"};

    private final PerfData data;
    private final boolean full;
    private final Instant capturedOn;
    private final ZoneId zone;
    private final HeaderLayout layout;
    /** The recording's tracepoint formats, read when an event line first needs one. */
    private java.util.Optional<io.perfj.trace.TraceEvents> traceEvents;
    private final List<String> warnings = new ArrayList<>();
    private List<String> names;

    /** A printer for {@code data} in perf 7.2's layout; {@code zone} null means the system's time zone. */
    public HeaderPrinter(PerfData data, boolean full, Instant capturedOn, ZoneId zone) {
        this(data, full, capturedOn, zone, HeaderLayout.CURRENT);
    }

    /** A printer for {@code data} in {@code layout}; {@code zone} null means the system's time zone. */
    public HeaderPrinter(PerfData data, boolean full, Instant capturedOn, ZoneId zone, HeaderLayout layout) {
        this.layout = layout;
        this.data = data;
        this.full = full;
        this.capturedOn = capturedOn;
        this.zone = zone;
    }

    /** A printer using the input's mtime and the system time zone, as perf does. */
    public static HeaderPrinter forFile(PerfData data, boolean full, HeaderLayout layout) {
        return new HeaderPrinter(data, full, modificationTime(data.name()), null, layout);
    }

    /**
     * The zone to show {@code t} in: the one given, or the system zone's offset at {@code t}.
     * TimeZone has the system zone's rules loaded already; a ZoneId of it would read the time-zone
     * database a second time, through a service loader (about 15 ms of a 0.2 s {@code header}).
     */
    private ZoneId zoneAt(Instant t) {
        if (zone != null) {
            return zone;
        }
        if (utcByEnvironment()) {
            // nothing to look up (TimeZone's first use reads the whole time-zone database)
            return ZoneOffset.UTC;
        }
        return ZoneOffset.ofTotalSeconds(TimeZone.getDefault().getOffset(t.toEpochMilli()) / 1000);
    }

    /** TZ names UTC (as C's localtime reads it) and no -Duser.timezone says otherwise. */
    private static boolean utcByEnvironment() {
        String tz = System.getenv("TZ");
        if (tz == null || !System.getProperty("user.timezone", "").isEmpty()) {
            return false;
        }
        String name = tz.startsWith(":") ? tz.substring(1) : tz;
        return switch (name) {
            case "UTC", "UTC0", "Etc/UTC", "GMT", "GMT0", "Etc/GMT" -> true;
            default -> false;
        };
    }

    /** The mtime of the input, "-" meaning standard input (fd 0), or now when it cannot be read. */
    public static Instant modificationTime(String name) {
        Path p = Path.of(name.equals("-") || name.equals("<stdin>") ? "/proc/self/fd/0" : name);
        try {
            return Files.getLastModifiedTime(p).toInstant();
        } catch (IOException | RuntimeException e) {
            return Instant.now();
        }
    }

    /** Problems met while printing (undecodable features); perf-style output is still complete. */
    public List<String> warnings() {
        return warnings;
    }

    /** C's {@code ctime()} without the trailing newline. */
    public static String ctime(Instant t, ZoneId zone) {
        ZonedDateTime z = ZonedDateTime.ofInstant(t, zone);
        StringBuilder sb = new StringBuilder(24);
        sb.append(DAYS[z.getDayOfWeek().ordinal()]).append(' ').append(MONTHS[z.getMonthValue() - 1]).append(' ');
        if (z.getDayOfMonth() < 10) {
            sb.append(' ');
        }
        sb.append(z.getDayOfMonth()).append(' ');
        two(sb, z.getHour()).append(':');
        two(sb, z.getMinute()).append(':');
        two(sb, z.getSecond()).append(' ');
        return sb.append(z.getYear()).toString();
    }

    private static StringBuilder two(StringBuilder sb, int v) {
        return sb.append((char) ('0' + v / 10)).append((char) ('0' + v % 10));
    }

    public void print(PrintWriter out) {
        PerfHeader h = data.header();
        out.print("# ========\n");
        out.print("# captured on    : " + ctime(capturedOn, zoneAt(capturedOn)) + "\n");
        out.print("# header version : " + h.version() + "\n");
        if (data.isPipe()) {
            out.print("# data offset    : 0\n# data size      : 0\n# feat offset    : 0\n");
            out.print("# ========\n#\n");
            printPipeFeatures(out);
            return;
        }
        out.print("# data offset    : " + Long.toUnsignedString(h.data().offset()) + "\n");
        out.print("# data size      : " + Long.toUnsignedString(h.data().size()) + "\n");
        out.print("# feat offset    : " + Long.toUnsignedString(h.data().offset() + h.data().size()) + "\n");
        Map<Integer, Bytes> payloads = data.features();
        for (int bit : h.featureBits()) {
            if (bit >= layout.lastFeature()) {
                continue;
            }
            Bytes p = payloads.get(bit);
            if (p != null) {
                printFeature(out, bit, p);
            }
        }
        StringBuilder missing = new StringBuilder("# missing features: ");
        for (int bit = 1; bit < layout.lastFeature(); bit++) {
            if (!h.hasFeature(bit)) {
                missing.append(FeatureId.name(bit)).append(' ');
            }
        }
        out.print(missing.append('\n'));
        out.print("# ========\n#\n");
    }

    private void printPipeFeatures(PrintWriter out) {
        RecordInput in = data.records();
        List<Integer> ids = new ArrayList<>();
        try {
            RawRecord r;
            while ((r = in.next()) != null) {
                if (r.type() != RecordType.HEADER_FEATURE) {
                    continue;
                }
                long id = r.body().u64(0);
                Bytes p = id >= 0 && id < layout.lastFeature() ? data.features().get((int) id) : null;
                if (id < 0 || id >= layout.lastFeature()
                        || id >= HeaderLayout.PERF_6_1.lastFeature() && (p == null || p.size() == 0)) {
                    // the end-of-features marker (perf 6.1's id 32 is perf 7.2's CPU_DOMAIN_INFO)
                    break;
                }
                if (p != null) {
                    ids.add((int) id);
                }
            }
            if (layout.namesIds()) {
                // the tracing data follows the features: read on to it, for the tracepoint names
                while (!data.features().containsKey(FeatureId.TRACING_DATA) && (r = in.next()) != null
                        && r.type() >= RecordType.HEADER_ATTR && r.type() != RecordType.HEADER_TRACING_DATA) {
                    continue;
                }
            }
        } catch (FormatException e) {
            warnings.add(e.getMessage());
        }
        for (int id : ids) {
            printFeature(out, id, data.features().get(id));
        }
        warnings.addAll(in.warnings());
    }

    private boolean fullOnly(int id) {
        return id == FeatureId.CPU_TOPOLOGY || id == FeatureId.NUMA_TOPOLOGY || id == FeatureId.CACHE
                || id == FeatureId.MEM_TOPOLOGY || id == FeatureId.HYBRID_TOPOLOGY;
    }

    private void printFeature(PrintWriter out, int id, Bytes payload) {
        if (id == FeatureId.TRACING_DATA || id == FeatureId.BUILD_ID) {
            return;
        }
        Feature f;
        try {
            f = Features.decode(id, payload, data);
        } catch (FormatException e) {
            warnings.add(e.getMessage());
            if (id == FeatureId.EVENT_DESC) {
                out.print("# event desc: not available or unable to read\n");
            }
            return;
        }
        if (fullOnly(id) && !full) {
            out.print("# " + FeatureId.name(id) + " info available, use -I to display\n");
            return;
        }
        StringBuilder sb = new StringBuilder();
        format(sb, f);
        out.print(sb);
    }

    // instanceof tests rather than a pattern switch: that one's bootstrap generates a class at
    // run time on every start (the ahead-of-time cache does not keep it), ~5 ms of a 0.15 s header
    private void format(StringBuilder sb, Feature f) {
        if (f instanceof Feature.Text t) {
            sb.append(switch (t.id()) {
                case FeatureId.HOSTNAME -> "# hostname : ";
                case FeatureId.OSRELEASE -> "# os release : ";
                case FeatureId.VERSION -> "# perf version : ";
                case FeatureId.ARCH -> "# arch : ";
                case FeatureId.CPUDESC -> "# cpudesc : ";
                default -> "# cpuid : ";
            }).append(t.value()).append('\n');
        } else if (f instanceof Feature.NrCpus n) {
            sb.append("# nrcpus online : ").append(n.online())
                    .append("\n# nrcpus avail : ").append(n.available()).append('\n');
        } else if (f instanceof Feature.TotalMem m) {
            sb.append("# total memory : ").append(Long.toUnsignedString(m.kb())).append(" kB\n");
        } else if (f instanceof Feature.Cmdline c) {
            sb.append("# cmdline : ");
            for (String a : c.argv()) {
                sb.append(a.replace("'", "\\'")).append(' ');
            }
            sb.append('\n');
        } else if (f instanceof Feature.EventDesc d) {
            for (Feature.EventDesc.Event e : d.events()) {
                sb.append("# event : name = ").append(e.name()).append(", ");
                if (e.ids().length > 0) {
                    sb.append(", id = {");
                    for (int j = 0; j < e.ids().length; j++) {
                        if (j > 0) {
                            sb.append(',');
                        }
                        sb.append(' ').append(Long.toUnsignedString(e.ids()[j]));
                    }
                    sb.append(" }");
                }
                for (String[] kv : AttrFormat.fields(e.attr(), layout.namesIds() ? this : null)) {
                    sb.append(", ").append(kv[0]).append(" = ").append(kv[1]);
                }
                sb.append('\n');
            }
        } else if (f instanceof Feature.CpuTopology t) {
            cpuTopology(sb, t);
        } else if (f instanceof Feature.NumaTopology t) {
            for (Feature.NumaTopology.Node n : t.nodes()) {
                sb.append("# node").append(n.node()).append(" meminfo  : total = ")
                        .append(Long.toUnsignedString(n.memTotal())).append(" kB, free = ")
                        .append(Long.toUnsignedString(n.memFree())).append(" kB\n");
                sb.append("# node").append(n.node()).append(" cpu list : ").append(CpuList.normalize(n.cpus())).append('\n');
            }
        } else if (f instanceof Feature.Flag fl) {
            sb.append(switch (fl.id()) {
                case FeatureId.BRANCH_STACK -> "# contains samples with branch stack\n";
                default -> "# contains stat data\n";
            });
        } else if (f instanceof Feature.PmuMappings m) {
            if (m.pmus().isEmpty()) {
                sb.append("# pmu mappings: not available\n");
            } else {
                String delim = "# pmu mappings: ";
                for (Feature.PmuMappings.Pmu p : m.pmus()) {
                    sb.append(delim).append(p.name()).append(" = ").append(p.type());
                    delim = ", ";
                }
                sb.append('\n');
            }
        } else if (f instanceof Feature.GroupDesc g) {
            groupDesc(sb, g);
        } else if (f instanceof Feature.Cache c) {
            sb.append("# CPU cache info:\n");
            for (Feature.Cache.Level l : c.levels()) {
                sb.append("#  L").append((int) l.level()).append(' ');
                left(sb, String.valueOf(l.type()), 15).append(' ');
                right(sb, String.valueOf(l.size()), 8).append(" [").append(l.map()).append("]\n");
            }
        } else if (f instanceof Feature.SampleTime s) {
            sb.append("# time of first sample : ").append(usec(s.first())).append('\n');
            sb.append("# time of last sample : ").append(usec(s.last())).append('\n');
            double d = unsignedToDouble(s.last() - s.first()) / 1_000_000.0;
            sb.append("# sample duration : ").append(cFixed(d, 3, 10)).append(" ms\n");
        } else if (f instanceof Feature.MemTopology m) {
            sb.append("# memory nodes (nr ").append((int) m.nodes().size()).append(", block size 0x")
                    .append(Long.toHexString(m.blockSize())).append("):\n");
            for (Feature.MemTopology.Node n : m.nodes()) {
                String size = unitNumber(m.blockSize() * n.weight());
                String map = bitmap(n);
                right(sb.append("#  "), Long.toUnsignedString(n.node()), 3)
                        .append(" [").append(size).append("]: ").append(map).append('\n');
            }
        } else if (f instanceof Feature.ClockId c) {
            sb.append("# clockid frequency: ")
                    .append(Long.toUnsignedString(c.resolutionNs() * 1000)).append(" MHz\n");
        } else if (f instanceof Feature.ClockData c) {
            clockData(sb, c);
        } else if (f instanceof Feature.DirFormat d) {
            sb.append("# directory data version : ").append(Long.toUnsignedString(d.version())).append('\n');
        } else if (f instanceof Feature.BpfProgInfo b) {
            bpfProgInfo(sb, b);
        } else if (f instanceof Feature.BpfBtf b) {
            if (data.header().order() != ByteOrder.nativeOrder()) {
                return;
            }
            TreeMap<Long, Feature.BpfBtf.Btf> byId = new TreeMap<>();
            for (Feature.BpfBtf.Btf e : b.entries()) {
                byId.putIfAbsent(e.id(), e);
            }
            if (byId.isEmpty() && layout.saysEmpty()) {
                sb.append("# btf info empty\n");
            }
            for (long id : byId.keySet()) {
                sb.append("# btf info of id ").append(id).append('\n');
            }
        } else if (f instanceof Feature.Compressed c) {
            sb.append("# compressed : ").append(c.type() == 1 ? "Zstd" : "Unknown")
                    .append(", level = ").append((int) c.level()).append(", ratio = ").append((int) c.ratio()).append('\n');
        } else if (f instanceof Feature.CpuPmuCaps c) {
            pmuCaps(sb, c.caps(), "cpu");
        } else if (f instanceof Feature.PmuCaps p) {
            for (Feature.PmuCaps.Pmu pmu : p.pmus()) {
                pmuCaps(sb, pmu.caps(), pmu.name());
            }
        } else if (f instanceof Feature.HybridTopology t) {
            sb.append("# hybrid cpu system:\n");
            for (Feature.HybridTopology.Node n : t.nodes()) {
                sb.append("# ").append(n.pmuName()).append(" cpu list : ").append(n.cpus()).append('\n');
            }
        } else if (f instanceof Feature.BuildIds ignored) {
        } else if (f instanceof Feature.Raw r) {
            if (r.id() == FeatureId.AUXTRACE) {
                sb.append("# contains AUX area data (e.g. instruction trace)\n");
            } else if (r.id() == FeatureId.E_MACHINE && r.bytes().length >= 8) {
                sb.append("# e_machine : ").append(Integer.toUnsignedString(u32(r.bytes(), 0)))
                        .append("\n#   e_flags : ").append(Integer.toUnsignedString(u32(r.bytes(), 4))).append('\n');
            } else if (r.id() == FeatureId.CLN_SIZE && r.bytes().length >= 4) {
                sb.append("# cacheline size: ").append(Integer.toUnsignedString(u32(r.bytes(), 0))).append('\n');
            }
        }
    }

    private void cpuTopology(StringBuilder sb, Feature.CpuTopology t) {
        for (String s : t.coreSiblings()) {
            sb.append("# sibling sockets : ").append(s).append('\n');
        }
        boolean dies = !t.dieSiblings().isEmpty();
        for (String s : t.dieSiblings()) {
            sb.append("# sibling dies    : ").append(s).append('\n');
        }
        for (String s : t.threadSiblings()) {
            sb.append("# sibling threads : ").append(s).append('\n');
        }
        List<Feature.CpuTopology.Cpu> cpus = t.cpus();
        if (dies) {
            if (t.hasCpuIds()) {
                for (int i = 0; i < cpus.size(); i++) {
                    Feature.CpuTopology.Cpu c = cpus.get(i);
                    sb.append("# CPU ").append(i).append(": Core ID ").append(c.coreId()).append(", Die ID ")
                            .append(c.dieId()).append(", Socket ID ").append(c.socketId()).append('\n');
                }
            } else {
                sb.append("# Core ID, Die ID and Socket ID information is not available\n");
            }
        } else if (t.hasCpuIds()) {
            for (int i = 0; i < cpus.size(); i++) {
                Feature.CpuTopology.Cpu c = cpus.get(i);
                sb.append("# CPU ").append(i).append(": Core ID ").append(c.coreId())
                        .append(", Socket ID ").append(c.socketId()).append('\n');
            }
        } else {
            sb.append("# Core ID and Socket ID information is not available\n");
        }
    }

    private List<String> names() {
        if (names == null) {
            names = EventNames.names(data);
        }
        return names;
    }

    /**
     * perf rebuilds groups from GROUP_DESC ({@link EventGroups}) and prints each group with more
     * than one member as {@code # group: NAME{leader,member,...}}; "{anon_group}" has no name.
     * An inconsistent description is reported and nothing is printed of it.
     */
    private void groupDesc(StringBuilder sb, Feature.GroupDesc g) {
        List<String> evNames = names();
        EventGroups groups = EventGroups.of(data.evlist().evsels().size(), g.groups());
        if (!groups.valid()) {
            warnings.add(data.name() + ": invalid group desc");
            return;
        }
        for (int idx = 0; idx < evNames.size(); idx++) {
            if (groups.isGroupEvent(idx)) {
                String name = groups.name(idx);
                sb.append("# group: ").append(name == null ? "" : name).append('{').append(evNames.get(idx));
            } else if (!groups.isLeader(idx)) {
                sb.append(',').append(evNames.get(idx));
                if (idx + 1 == evNames.size() || groups.leader(idx + 1) != groups.leader(idx)) {
                    sb.append("}\n");
                }
            }
        }
    }

    private static void pmuCaps(StringBuilder sb, List<Feature.Cap> caps, String pmu) {
        if (caps.isEmpty()) {
            sb.append("# ").append(pmu).append(" pmu capabilities: not available\n");
            return;
        }
        sb.append("# ").append(pmu).append(" pmu capabilities: ");
        String delim = "";
        for (Feature.Cap c : caps) {
            sb.append(delim).append(c.name()).append('=').append(c.value());
            delim = ", ";
        }
        sb.append('\n');
    }

    private void clockData(StringBuilder sb, Feature.ClockData c) {
        long tod = c.wallClockNs();
        long todSec = Long.divideUnsigned(tod, 1_000_000_000L);
        long todUsec = Long.remainderUnsigned(tod, 1_000_000_000L) / 1000;
        long clk = c.clockidNs();
        long clkSec = Long.divideUnsigned(clk, 1_000_000_000L);
        long clkNsec = Long.remainderUnsigned(clk, 1_000_000_000L);
        String name = clockidName((int) c.clockid());
        String date = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT)
                .format(ZonedDateTime.ofInstant(Instant.ofEpochSecond(todSec), zoneAt(Instant.ofEpochSecond(todSec))));
        sb.append("# clockid: ").append(name).append(" (").append(Integer.toUnsignedString((int) c.clockid())).append(")\n");
        sb.append("# reference time: ").append(date).append('.').append(zeroPadded(todUsec, 6))
                .append(" = ").append(todSec).append('.').append(zeroPadded(todUsec, 6))
                .append(" (TOD) = ").append(clkSec).append('.').append(zeroPadded(clkNsec, 9))
                .append(" (").append(name).append(")\n");
    }

    /** perf record's clockid names (the first name listed for each id). */
    static String clockidName(int id) {
        return switch (id) {
            case 1 -> "monotonic";
            case 4 -> "monotonic_raw";
            case 0 -> "realtime";
            case 7 -> "boottime";
            case 11 -> "tai";
            default -> "(not found)";
        };
    }

    private void bpfProgInfo(StringBuilder sb, Feature.BpfProgInfo b) {
        if (data.header().order() != ByteOrder.nativeOrder()) {
            return;
        }
        // perf keeps programs in a tree by id: printed in id order, duplicates dropped.
        TreeMap<Long, BpfProg> byId = new TreeMap<>();
        for (BpfProg p : b.programs()) {
            if (p.infoLen() > BpfProg.Info.SIZE) {
                // perf: "detected invalid bpf_prog_info" and the rest of the section is dropped
                warnings.add(data.name() + ": detected invalid bpf_prog_info");
                break;
            }
            byId.putIfAbsent(p.info().id(), p);
        }
        if (byId.isEmpty() && layout.saysEmpty()) {
            sb.append("# bpf_prog_info empty\n");
        }
        Map<Long, byte[]> btfs = btfsById();
        for (BpfProg p : byId.values()) {
            BpfProg.Info info = p.info();
            long n = info.nrJitedKsyms();
            if (n != info.nrProgTags() || n != info.nrJitedFuncLens()) {
                continue;
            }
            if (p.jitedKsyms().length != n || p.jitedFuncLens().length != n || p.progTags().size() != n) {
                // arrays missing from the recording: perf would read garbage; print nothing
                continue;
            }
            BtfNames btf = null;
            if (info.btfId() != 0) {
                byte[] raw = btfs.get(info.btfId());
                if (raw != null) {
                    btf = BtfNames.parse(raw);
                }
            }
            if (n == 1) {
                sb.append("# bpf_prog_info ").append(info.id()).append(": ").append(p.perfName(btf == null ? null : btf::typeName, 0))
                        .append(" addr 0x").append(Long.toHexString(p.jitedKsyms()[0]))
                        .append(" size ").append(p.jitedFuncLens()[0]).append('\n');
                continue;
            }
            sb.append("# bpf_prog_info ").append(info.id()).append(":\n");
            for (int i = 0; i < n; i++) {
                sb.append("# \tsub_prog ").append(i).append(": ").append(p.perfName(btf == null ? null : btf::typeName, i))
                        .append(" addr 0x").append(Long.toHexString(p.jitedKsyms()[i]))
                        .append(" size ").append(p.jitedFuncLens()[i]).append('\n');
            }
        }
    }

    private Map<Long, byte[]> btfsById() {
        Map<Long, byte[]> out = new TreeMap<>();
        Bytes p = data.features().get(FeatureId.BPF_BTF);
        if (p == null) {
            return out;
        }
        try {
            Feature f = Features.decode(FeatureId.BPF_BTF, p, data);
            if (f instanceof Feature.BpfBtf b) {
                for (Feature.BpfBtf.Btf e : b.entries()) {
                    out.putIfAbsent(e.id(), e.data());
                }
            }
        } catch (FormatException e) {
            // no BTF: names fall back as in perf
        }
        return out;
    }

    /** perf's {@code timestamp__scnprintf_usec}: seconds.microseconds. */
    static String usec(long ns) {
        return Long.toUnsignedString(Long.divideUnsigned(ns, 1_000_000_000L)) + "."
                + zeroPadded(Long.remainderUnsigned(ns, 1_000_000_000L) / 1000, 6);
    }

    // The padding helpers stand for String.format("%0Nd"/"%Ns"/"%-Ns"): a Formatter's first use
    // loads locale data (about 10 ms of a 0.2 s header).

    /** C's {@code %0Wd} of a non-negative {@code v}. */
    static String zeroPadded(long v, int width) {
        String d = Long.toString(v);
        return d.length() >= width ? d : "0".repeat(width - d.length()) + d;
    }

    /** C's {@code %Ws}: {@code s} right-aligned to {@code width}. */
    private static StringBuilder right(StringBuilder sb, String s, int width) {
        for (int i = s.length(); i < width; i++) {
            sb.append(' ');
        }
        return sb.append(s);
    }

    /** C's {@code %-Ws}: {@code s} left-aligned to {@code width}. */
    private static StringBuilder left(StringBuilder sb, String s, int width) {
        sb.append(s);
        for (int i = s.length(); i < width; i++) {
            sb.append(' ');
        }
        return sb;
    }

    static double unsignedToDouble(long v) {
        return v >= 0 ? (double) v : new BigDecimal(Long.toUnsignedString(v)).doubleValue();
    }

    /** C's {@code %W.Pf}: the exact binary value rounded half-even, right-aligned to width W. */
    static String cFixed(double d, int precision, int width) {
        return right(new StringBuilder(), fixed(d, precision), width).toString();
    }

    private static String fixed(double d, int precision) {
        double scaled = d * POW10[precision];
        double floor = Math.floor(scaled);
        // In long arithmetic unless the value is so near a tie (or so large) that the product's
        // rounding could decide it: BigDecimal's first use costs about 25 ms of a 0.2 s header.
        if (d >= 0 && scaled < 1e15 && Math.abs(scaled - floor - 0.5) > 2 * Math.ulp(scaled)) {
            long r = (long) floor + (scaled - floor > 0.5 ? 1 : 0);
            String digits = zeroPadded(r, precision + 1);
            int point = digits.length() - precision;
            return precision == 0 ? digits : digits.substring(0, point) + "." + digits.substring(point);
        }
        return new BigDecimal(d).setScale(precision, RoundingMode.HALF_EVEN).toPlainString();
    }

    private static final double[] POW10 = {1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};

    /** perf's {@code unit_number__scnprintf}: divide by 1024 while the quotient exceeds 1, up to G. */
    static String unitNumber(long n) {
        char[] unit = {'B', 'K', 'M', 'G'};
        int i = 0;
        while (Long.divideUnsigned(n, 1024) > 1 && i < 3) {
            n = Long.divideUnsigned(n, 1024);
            i++;
        }
        return Long.toUnsignedString(n) + unit[i];
    }

    /** perf's {@code bitmap_scnprintf} into its 100-byte buffer (at most 99 characters). */
    static String bitmap(Feature.MemTopology.Node n) {
        StringBuilder sb = new StringBuilder();
        long bits = n.bits();
        long cur = next(n, 0);
        long rbot = cur;
        boolean first = true;
        while (cur < bits) {
            long rtop = cur;
            cur = next(n, cur + 1);
            if (cur < bits && cur <= rtop + 1) {
                continue;
            }
            if (!first) {
                sb.append(',');
            }
            first = false;
            sb.append(rbot);
            if (rbot < rtop) {
                sb.append('-').append(rtop);
            }
            rbot = cur;
        }
        return sb.length() > 99 ? sb.substring(0, 99) : sb.toString();
    }

    private static long next(Feature.MemTopology.Node n, long from) {
        for (long b = from; b < n.bits(); b++) {
            if (n.has(b)) {
                return b;
            }
        }
        return n.bits();
    }

    /** perf's attr printer ({@code perf_event_attr__fprintf}, perf 6.1): non-zero fields only. */
    static final class AttrFormat {
        private static final String[] SAMPLE_ORDER = {
            "IP", "TID", "TIME", "ADDR", "READ", "CALLCHAIN", "ID", "CPU", "PERIOD", "STREAM_ID", "RAW",
            "BRANCH_STACK", "REGS_USER", "STACK_USER", "IDENTIFIER", "REGS_INTR", "DATA_SRC", "WEIGHT",
            "PHYS_ADDR", "AUX", "CGROUP", "DATA_PAGE_SIZE", "CODE_PAGE_SIZE", "WEIGHT_STRUCT",
        };
        private static final int[] SAMPLE_BITS = {
            0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 16, 18, 15, 14, 19, 20, 21, 22, 23, 24,
        };
        private static final String[] READ_FORMAT = {"TOTAL_TIME_ENABLED", "TOTAL_TIME_RUNNING", "ID", "GROUP", "LOST"};
        private static final String[] BRANCH = {
            "USER", "KERNEL", "HV", "ANY", "ANY_CALL", "ANY_RETURN", "IND_CALL", "ABORT_TX", "IN_TX", "NO_TX",
            "COND", "CALL_STACK", "IND_JUMP", "CALL", "NO_FLAGS", "NO_CYCLES", "TYPE_SAVE", "HW_INDEX", "PRIV_SAVE",
        };

        /** The fields perf prints; {@code ids} names type and config (perf 7.2), null for perf 6.1's bare ids. */
        static List<String[]> fields(EventAttr a, HeaderPrinter ids) {
            List<String[]> f = new ArrayList<>();
            if (ids == null) {
                unsigned(f, "type", a.type() & 0xffffffffL);
                unsigned(f, "size", a.size() & 0xffffffffL);
                hex(f, "config", a.config());
            } else {
                f.add(new String[] {"type", named(Integer.toUnsignedString(a.type()), ids.typeName(a.type()))});
                unsigned(f, "size", a.size() & 0xffffffffL);
                f.add(new String[] {"config", named(cHex(a.config()), ids.configName(a.type(), a.config()))});
            }
            unsigned(f, "{ sample_period, sample_freq }", a.samplePeriod());
            if (a.sampleType() != 0) {
                f.add(new String[] {"sample_type", sampleType(a.sampleType())});
            }
            if (a.readFormat() != 0) {
                f.add(new String[] {"read_format", bits(a.readFormat(), READ_FORMAT)});
            }
            for (int bit = 0; bit < EventAttr.FLAG_NAMES.length; bit++) {
                if (bit == 15) {
                    unsigned(f, "precise_ip", a.preciseIp());
                    bit++;
                    continue;
                }
                if (a.flag(bit)) {
                    f.add(new String[] {EventAttr.FLAG_NAMES[bit], "1"});
                }
            }
            unsigned(f, "{ wakeup_events, wakeup_watermark }", a.wakeupEvents() & 0xffffffffL);
            unsigned(f, "bp_type", a.bpType() & 0xffffffffL);
            hex(f, "{ bp_addr, config1 }", a.config1());
            hex(f, "{ bp_len, config2 }", a.config2());
            if (a.branchSampleType() != 0) {
                f.add(new String[] {"branch_sample_type", bits(a.branchSampleType(), BRANCH)});
            }
            hex(f, "sample_regs_user", a.sampleRegsUser());
            unsigned(f, "sample_stack_user", a.sampleStackUser() & 0xffffffffL);
            if (a.clockid() != 0) {
                f.add(new String[] {"clockid", Integer.toString(a.clockid())});
            }
            hex(f, "sample_regs_intr", a.sampleRegsIntr());
            unsigned(f, "aux_watermark", a.auxWatermark() & 0xffffffffL);
            unsigned(f, "sample_max_stack", a.sampleMaxStack());
            unsigned(f, "aux_sample_size", a.auxSampleSize() & 0xffffffffL);
            unsigned(f, "sig_data", a.sigData());
            return f;
        }

        private static String named(String value, String name) {
            return name == null ? value : value + " (" + name + ")";
        }

        /** C's {@code %#x}: no prefix for zero. */
        static String cHex(long v) {
            return v == 0 ? "0" : "0x" + Long.toHexString(v);
        }

        private static void unsigned(List<String[]> f, String name, long v) {
            if (v != 0) {
                f.add(new String[] {name, Long.toUnsignedString(v)});
            }
        }

        private static void hex(List<String[]> f, String name, long v) {
            if (v != 0) {
                f.add(new String[] {name, "0x" + Long.toHexString(v)});
            }
        }

        static String sampleType(long v) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < SAMPLE_ORDER.length; i++) {
                if ((v & (1L << SAMPLE_BITS[i])) != 0) {
                    if (!sb.isEmpty()) {
                        sb.append('|');
                    }
                    sb.append(SAMPLE_ORDER[i]);
                }
            }
            return sb.toString();
        }

        static String bits(long v, String[] names) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < names.length; i++) {
                if ((v & (1L << i)) != 0) {
                    if (!sb.isEmpty()) {
                        sb.append('|');
                    }
                    sb.append(names[i]);
                }
            }
            return sb.toString();
        }
    }

    private static final String[] TYPES = {"PERF_TYPE_HARDWARE", "PERF_TYPE_SOFTWARE", "PERF_TYPE_TRACEPOINT",
        "PERF_TYPE_HW_CACHE", "PERF_TYPE_RAW", "PERF_TYPE_BREAKPOINT"};
    private static final String[] HW = {"CPU_CYCLES", "INSTRUCTIONS", "CACHE_REFERENCES", "CACHE_MISSES",
        "BRANCH_INSTRUCTIONS", "BRANCH_MISSES", "BUS_CYCLES", "STALLED_CYCLES_FRONTEND", "STALLED_CYCLES_BACKEND",
        "REF_CPU_CYCLES"};
    private static final String[] SW = {"CPU_CLOCK", "TASK_CLOCK", "PAGE_FAULTS", "CONTEXT_SWITCHES", "CPU_MIGRATIONS",
        "PAGE_FAULTS_MIN", "PAGE_FAULTS_MAJ", "ALIGNMENT_FAULTS", "EMULATION_FAULTS", "DUMMY", "BPF_OUTPUT",
        "CGROUP_SWITCHES"};
    private static final String[] CACHES = {"L1D", "L1I", "LL", "DTLB", "ITLB", "BPU", "NODE"};
    private static final String[] CACHE_OPS = {"READ", "WRITE", "PREFETCH"};
    private static final String[] CACHE_RESULTS = {"ACCESS", "MISS"};

    /** An event type's name: perf's for the fixed types, else the PMU the recording maps it to; or null. */
    String typeName(int type) {
        if (type >= 0 && type < TYPES.length) {
            return TYPES[type];
        }
        Bytes p = data.features().get(FeatureId.PMU_MAPPINGS);
        if (p != null) {
            try {
                if (Features.decode(FeatureId.PMU_MAPPINGS, p, data) instanceof Feature.PmuMappings m) {
                    for (Feature.PmuMappings.Pmu pmu : m.pmus()) {
                        if (pmu.type() == Integer.toUnsignedLong(type)) {
                            return pmu.name();
                        }
                    }
                }
            } catch (FormatException e) {
                // no mappings: the type stays a number
            }
        }
        return null;
    }

    /**
     * An event config's name: the hardware, software and cache event perf names it by, a
     * tracepoint's {@code sys:name} from the recording's tracing data; or null.
     */
    String configName(int type, long config) {
        switch (type) {
            case 0 -> {
                return config >= 0 && config < HW.length ? "PERF_COUNT_HW_" + HW[(int) config] : null;
            }
            case 1 -> {
                return config >= 0 && config < SW.length ? "PERF_COUNT_SW_" + SW[(int) config] : null;
            }
            case 3 -> {
                int cache = (int) (config & 0xff);
                int op = (int) (config >>> 8 & 0xff);
                int result = (int) (config >>> 16 & 0xff);
                if (cache >= CACHES.length || op >= CACHE_OPS.length || result >= CACHE_RESULTS.length) {
                    return null;
                }
                return "PERF_COUNT_HW_CACHE_RESULT_" + CACHE_RESULTS[result] + " | PERF_COUNT_HW_CACHE_OP_"
                        + CACHE_OPS[op] + " | PERF_COUNT_HW_CACHE_" + CACHES[cache];
            }
            case io.perfj.trace.TraceEvents.PERF_TYPE_TRACEPOINT -> {
                if (traceEvents == null) {
                    traceEvents = io.perfj.trace.TraceEvents.of(data);
                }
                io.perfj.trace.EventFormat ev = traceEvents.map(t -> t.byId(config)).orElse(null);
                return ev == null ? null : ev.fullName();
            }
            default -> {
                return null;
            }
        }
    }

    private int u32(byte[] b, int at) {
        return java.nio.ByteBuffer.wrap(b, at, 4).order(data.header().order()).getInt();
    }

    /** CPU lists as perf re-prints them after parsing ({@code cpu_map__snprint}). */
    static final class CpuList {
        static String normalize(String list) {
            TreeSet<Integer> cpus = new TreeSet<>();
            try {
                for (String part : list.trim().split(",")) {
                    if (part.isEmpty()) {
                        continue;
                    }
                    int dash = part.indexOf('-');
                    if (dash < 0) {
                        cpus.add(Integer.parseInt(part.trim()));
                    } else {
                        int lo = Integer.parseInt(part.substring(0, dash).trim());
                        int hi = Integer.parseInt(part.substring(dash + 1).trim());
                        if (hi < lo || hi - lo > 1 << 16) {
                            return list;
                        }
                        for (int c = lo; c <= hi; c++) {
                            cpus.add(c);
                        }
                    }
                }
            } catch (NumberFormatException e) {
                return list;
            }
            StringBuilder sb = new StringBuilder();
            Integer start = null;
            Integer prev = null;
            for (int c : cpus) {
                if (start == null) {
                    start = c;
                } else if (c != prev + 1) {
                    range(sb, start, prev);
                    start = c;
                }
                prev = c;
            }
            if (start != null) {
                range(sb, start, prev);
            }
            return sb.toString();
        }

        private static void range(StringBuilder sb, int a, int b) {
            if (!sb.isEmpty()) {
                sb.append(',');
            }
            sb.append(a);
            if (b != a) {
                sb.append('-').append(b);
            }
        }
    }
}
