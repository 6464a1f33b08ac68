package io.perfj.perfdata.feature;

import io.perfj.io.Bytes;
import io.perfj.io.FormatException;
import io.perfj.perfdata.EventAttr;
import io.perfj.perfdata.Evsel;
import io.perfj.perfdata.FeatureId;
import io.perfj.perfdata.PerfData;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Event display names as perf shows them. The EVENT_DESC feature, when present, gives each
 * event the name it was recorded under (matched by position in the event list, as perf does); events it does not describe get perf's default name
 * built from the attr ({@code evsel__name} in perf 6.1: a base name from type/config plus
 * modifiers such as {@code :u}, {@code :ppp}, {@code :HG}).
 */
public final class EventNames {
    private EventNames() {
    }

    public static final int TYPE_HARDWARE = 0;
    public static final int TYPE_SOFTWARE = 1;
    public static final int TYPE_TRACEPOINT = 2;
    public static final int TYPE_HW_CACHE = 3;
    public static final int TYPE_RAW = 4;
    public static final int TYPE_BREAKPOINT = 5;

    private static final String[] HW = {
        "cycles", "instructions", "cache-references", "cache-misses", "branches", "branch-misses",
        "bus-cycles", "stalled-cycles-frontend", "stalled-cycles-backend", "ref-cycles",
    };
    private static final String[] SW = {
        "cpu-clock", "task-clock", "page-faults", "context-switches", "cpu-migrations",
        "minor-faults", "major-faults", "alignment-faults", "emulation-faults", "dummy",
        "bpf-output", "cgroup-switches",
    };
    private static final String[] CACHE = {"L1-dcache", "L1-icache", "LLC", "dTLB", "iTLB", "branch", "node"};
    private static final String[][] CACHE_OP = {
        {"load", "loads"}, {"store", "stores"}, {"prefetch", "prefetches"},
    };
    private static final String[] CACHE_RESULT = {"refs", "misses"};
    /** Which ops (bit per op: read, write, prefetch) each cache type supports. */
    private static final int[] CACHE_OPS = {7, 5, 7, 7, 1, 1, 7};

    /**
     * Display names of the file's events, in evlist order. In pipe mode the EVENT_DESC feature
     * and the attrs arrive as records, so call this after the records have been read.
     */
    public static List<String> names(PerfData data) {
        return names(data, null);
    }

    /**
     * As {@link #names(PerfData)}, with names carried by PERF_RECORD_EVENT_UPDATE (NAME) records
     * taking precedence, as perf applies them to the event when it reads them.
     *
     * @param updateNames event names by sample id from EVENT_UPDATE records, or null
     */
    public static List<String> names(PerfData data, Map<Long, String> updateNames) {
        List<Evsel> evsels = data.evlist().evsels();
        Map<Integer, String> fromDesc = new HashMap<>();
        // perf ignores an EVENT_DESC it cannot read and keeps the default names.
        Bytes payload = data.features().get(FeatureId.EVENT_DESC);
        if (payload != null) {
            try {
                Feature.EventDesc desc = Features.decodeEventDesc(payload);
                matchDescriptions(evsels, desc, fromDesc);
            } catch (FormatException e) {
                // An unreadable EVENT_DESC leaves perf's default names in place.
            }
        }
        List<String> out = new ArrayList<>(evsels.size());
        for (Evsel e : evsels) {
            String n = null;
            if (updateNames != null) {
                for (long id : e.ids()) {
                    n = updateNames.get(id);
                    if (n != null) {
                        break;
                    }
                }
            }
            if (n == null) {
                n = fromDesc.get(e.index());
            }
            out.add(n != null ? n : defaultName(e.attr()));
        }
        return out;
    }

    /**
     * Gives evsel {@code i} the name of EVENT_DESC's event {@code i}, as perf does
     * ({@code evlist__set_event_name} matches by position, not by sample id).
     */
    static void matchDescriptions(List<Evsel> evsels, Feature.EventDesc desc, Map<Integer, String> out) {
        List<Feature.EventDesc.Event> events = desc.events();
        for (int i = 0; i < events.size() && i < evsels.size(); i++) {
            String name = events.get(i).name();
            if (name != null && !name.isEmpty()) {
                out.putIfAbsent(evsels.get(i).index(), name);
            }
        }
    }

    /** perf's other names of hardware and software events ({@code event_symbols_hw/sw}). */
    private static final String[][] ALIASES = {
        {"cpu-cycles", "cycles"}, {"branch-instructions", "branches"}, {"faults", "page-faults"},
        {"cs", "context-switches"}, {"migrations", "cpu-migrations"}, {"idle-cycles-frontend", "stalled-cycles-frontend"},
        {"idle-cycles-backend", "stalled-cycles-backend"},
    };

    /**
     * The {@code {type, config}} of a hardware or software event named as perf names it (or by
     * one of perf's aliases), or null for any other name: the reverse of {@link #defaultName}.
     */
    public static long[] typeAndConfig(String name) {
        String n = name;
        for (String[] a : ALIASES) {
            if (a[0].equals(n)) {
                n = a[1];
            }
        }
        for (int i = 0; i < HW.length; i++) {
            if (HW[i].equals(n)) {
                return new long[] {TYPE_HARDWARE, i};
            }
        }
        for (int i = 0; i < SW.length; i++) {
            if (SW[i].equals(n)) {
                return new long[] {TYPE_SOFTWARE, i};
            }
        }
        return null;
    }

    /** perf's name for an event that has no recorded name. */
    public static String defaultName(EventAttr a) {
        long config = a.config();
        return switch (a.type()) {
            case TYPE_HARDWARE -> pick(HW, config, "unknown-hardware") + modifiers(a);
            case TYPE_SOFTWARE -> pick(SW, config, "unknown-software") + modifiers(a);
            case TYPE_HW_CACHE -> cacheName(config) + modifiers(a);
            case TYPE_RAW -> "raw 0x" + Long.toHexString(config) + modifiers(a);
            case TYPE_TRACEPOINT -> "unknown tracepoint";
            case TYPE_BREAKPOINT -> breakpointName(a) + modifiers(a);
            default -> "unknown attr type: " + a.type();
        };
    }

    private static String pick(String[] names, long config, String unknown) {
        return config >= 0 && config < names.length ? names[(int) config] : unknown;
    }

    private static String cacheName(long config) {
        int type = (int) (config & 0xff);
        int op = (int) ((config >>> 8) & 0xff);
        int result = (int) ((config >>> 16) & 0xff);
        if (type >= CACHE.length) {
            return "unknown-ext-hardware-cache-type";
        }
        if (op >= CACHE_OP.length) {
            return "unknown-ext-hardware-cache-op";
        }
        if (result >= CACHE_RESULT.length) {
            return "unknown-ext-hardware-cache-result";
        }
        if ((CACHE_OPS[type] & (1 << op)) == 0) {
            return "invalid-cache";
        }
        if (result != 0) {
            return CACHE[type] + "-" + CACHE_OP[op][0] + "-" + CACHE_RESULT[result];
        }
        return CACHE[type] + "-" + CACHE_OP[op][1];
    }

    private static String breakpointName(EventAttr a) {
        // bp_addr shares its slot with config1, bp_type is its own field.
        StringBuilder sb = new StringBuilder("mem:0x").append(Long.toHexString(a.config1())).append(':');
        if ((a.bpType() & 1) != 0) sb.append('r');
        if ((a.bpType() & 2) != 0) sb.append('w');
        if ((a.bpType() & 4) != 0) sb.append('x');
        return sb.toString();
    }

    /**
     * The modifier suffix perf appends: k/u/h for the contexts still counted when any is
     * excluded, p's for precise_ip, then H/G when host or guest counting differs from the default.
     */
    public static String modifiers(EventAttr a) {
        boolean excludeUser = a.flag(4);
        boolean excludeKernel = a.flag(5);
        boolean excludeHv = a.flag(6);
        boolean excludeHost = a.flag(19);
        boolean excludeGuest = a.flag(20);
        StringBuilder m = new StringBuilder();
        boolean guestDefault = false;
        if (excludeKernel || excludeUser || excludeHv) {
            if (!excludeKernel) m.append('k');
            if (!excludeUser) m.append('u');
            if (!excludeHv) m.append('h');
            guestDefault = true;
        }
        int precise = a.preciseIp();
        if (precise > 0) {
            m.append("ppp", 0, precise);
            guestDefault = true;
        }
        if (excludeHost || excludeGuest == guestDefault) {
            if (!excludeHost) m.append('H');
            if (!excludeGuest) m.append('G');
        }
        return m.isEmpty() ? "" : ":" + m;
    }
}
