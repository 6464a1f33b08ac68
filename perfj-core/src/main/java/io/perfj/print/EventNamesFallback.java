package io.perfj.print;

import io.perfj.io.Bytes;
import io.perfj.io.Cursor;
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
 * Event display names for the stats block. Stand-in until
 * {@code io.perfj.perfdata.feature.EventNames} (developed on another branch) is merged: names
 * come from PERF_RECORD_EVENT_UPDATE name records (pipe mode), then the EVENT_DESC feature,
 * then a plain type/config name for hardware and software events; no modifiers are added.
 */
final class EventNamesFallback {
    private EventNamesFallback() {
    }

    private static final String[] HW = {
        "cycles", "instructions", "cache-references", "cache-misses", "branches", "branch-misses",
        "bus-cycles", "stalled-cycles-frontend", "stalled-cycles-backend", "ref-cycles",
    };
    private static final String[] SW = {
        "cpu-clock", "task-clock", "page-faults", "context-switches", "cpu-migrations",
        "minor-faults", "major-faults", "alignment-faults", "emulation-faults", "dummy",
        "bpf-output", "cgroup-switches",
    };

    /** @param updateNames names from EVENT_UPDATE records by sample id, or null */
    static List<String> names(PerfData data, Map<Long, String> updateNames) {
        List<Evsel> evsels = data.evlist().evsels();
        Map<Integer, String> desc = fromEventDesc(data, evsels);
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
                n = desc.get(e.index());
            }
            out.add(n != null ? n : defaultName(e.attr()));
        }
        return out;
    }

    private static Map<Integer, String> fromEventDesc(PerfData data, List<Evsel> evsels) {
        Map<Integer, String> out = new HashMap<>();
        Bytes f = data.features().get(FeatureId.EVENT_DESC);
        if (f == null) {
            return out;
        }
        Map<Long, Integer> byId = new HashMap<>();
        for (Evsel e : evsels) {
            for (long id : e.ids()) {
                byId.putIfAbsent(id, e.index());
            }
        }
        try {
            Cursor c = f.cursor();
            long nr = c.u32();
            long attrSize = c.u32();
            if (attrSize < EventAttr.SIZE_VER0 || attrSize > 4096) {
                return out;
            }
            for (long i = 0; i < nr && c.hasRemaining(); i++) {
                c.skip(attrSize);
                long nrIds = c.u32();
                String name = c.perfString();
                int n = c.count(nrIds, 8, "event id");
                Integer idx = null;
                for (int k = 0; k < n; k++) {
                    long id = c.u64();
                    if (idx == null) {
                        idx = byId.get(id);
                    }
                }
                if (idx == null && n == 0 && i < evsels.size()) {
                    idx = (int) i;
                }
                if (idx != null) {
                    out.putIfAbsent(idx, name);
                }
            }
        } catch (FormatException e) {
            // An unreadable EVENT_DESC leaves the default names.
        }
        return out;
    }

    static String defaultName(EventAttr a) {
        long cfg = a.config();
        if (a.type() == 0 && cfg >= 0 && cfg < HW.length) {
            return HW[(int) cfg];
        }
        if (a.type() == 1 && cfg >= 0 && cfg < SW.length) {
            return SW[(int) cfg];
        }
        return "unknown";
    }
}
