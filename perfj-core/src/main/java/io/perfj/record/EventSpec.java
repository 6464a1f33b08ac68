package io.perfj.record;

import io.perfj.perfdata.feature.EventNames;

import java.util.ArrayList;
import java.util.List;

/**
 * One event of {@code -e}: a hardware or software event by perf's name, with perf's
 * modifiers {@code u} (user only), {@code k} (kernel only) and {@code p} (precise, repeated).
 *
 * @param name the event as written, which is the name the recording gives it
 */
public record EventSpec(String name, int type, long config, boolean excludeUser, boolean excludeKernel,
                        int precise) {

    /** perf record's default event, and what perf falls back to where the machine has no PMU. */
    public static final String DEFAULT = "cycles";
    public static final String FALLBACK = "cpu-clock";

    /** Parses a comma-separated {@code -e} list; an unknown name is an IllegalArgumentException. */
    public static List<EventSpec> parseList(String list) {
        List<EventSpec> out = new ArrayList<>();
        for (String e : list.split(",")) {
            if (!e.isBlank()) {
                out.add(parse(e.trim()));
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("no event in '" + list + "'");
        }
        return List.copyOf(out);
    }

    /**
     * This event for user space only, named as perf renames it when it falls back: {@code u}
     * added to the modifiers ({@code cpu-clock:u}, {@code cycles:ppu}).
     */
    public EventSpec userOnly() {
        return new EventSpec(name + (name.contains(":") ? "u" : ":u"), type, config, false, true, precise);
    }

    public static EventSpec parse(String spec) {
        int colon = spec.indexOf(':');
        String base = colon < 0 ? spec : spec.substring(0, colon);
        long[] tc = EventNames.typeAndConfig(base);
        if (tc == null) {
            throw new IllegalArgumentException("event '" + spec + "' is not a hardware or software event perfj knows"
                    + " (cpu-clock, task-clock, page-faults, context-switches, cycles, instructions, ...)");
        }
        boolean u = false;
        boolean k = false;
        int p = 0;
        if (colon >= 0) {
            for (char c : spec.substring(colon + 1).toCharArray()) {
                switch (c) {
                    case 'u' -> u = true;
                    case 'k' -> k = true;
                    case 'p' -> p++;
                    default -> throw new IllegalArgumentException("event modifier '" + c + "' of '" + spec
                            + "' is not supported (u, k, p)");
                }
            }
        }
        if (p > 3) {
            throw new IllegalArgumentException("event '" + spec + "' asks for more than ppp");
        }
        // u alone counts only user space, k alone only the kernel; both or neither count both
        boolean excludeKernel = u && !k;
        boolean excludeUser = k && !u;
        return new EventSpec(spec, (int) tc[0], tc[1], excludeUser, excludeKernel, p);
    }
}
