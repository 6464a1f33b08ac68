package io.perfj.serve;

import io.perfj.profile.Profile;
import io.perfj.profile.SampleFilter;

import java.util.Map;
import java.util.Set;
import java.util.function.IntPredicate;

/**
 * The samples a view shows: one event, a time range (offsets from the first sample, ns),
 * report's filters (command, pid, tid, CPU, DSO of the sampled frame) applied by
 * {@link SampleFilter}, the one filter rule report and the exports use too, and in a profile of
 * many hosts ({@link Profile#host}) one host: the threads' host dimension (null: every host),
 * since a pid or tid names a thread on one host only.
 */
public record Selection(int event, long from, long to, SampleFilter filter, String host) {
    /** The query parameters a selection is made from. */
    static final String[] KEYS = {"event", "from", "to", "comm", "pid", "tid", "cpu", "dso", "host"};

    /** The selection a request's parameters describe (unknown event: the first one sampled). */
    static Selection parse(Map<String, String> q, Recording r) {
        Profile p = r.profile();
        int event = (int) number(q, "event", -1);
        if (event < 0 || event >= p.events().size()) {
            event = r.defaultEvent();
        }
        long from = number(q, "from", Long.MIN_VALUE);
        long to = number(q, "to", Long.MAX_VALUE);
        SampleFilter f = new SampleFilter(text(q, "comm"), text(q, "dso"), null, ints(q, "pid"), ints(q, "tid"),
                ints(q, "cpu"));
        Set<String> host = text(q, "host");
        return new Selection(event, from, to, f, host == null ? null : host.iterator().next());
    }

    /** The same samples without the time range (the timeline shows every moment). */
    Selection anyTime() {
        return new Selection(event, Long.MIN_VALUE, Long.MAX_VALUE, filter, host);
    }

    /** Which of the recording's samples are selected (by sample index). */
    IntPredicate samples(Recording r) {
        Profile p = r.profile();
        long base = r.firstTime();
        boolean timed = from != Long.MIN_VALUE || to != Long.MAX_VALUE;
        boolean filters = filter.filters();
        String h = host;
        return i -> {
            if (p.event(i) != event) {
                return false;
            }
            if (timed) {
                long t = p.time(i) - base;
                if (t < from || t > to) {
                    return false;
                }
            }
            if (!filters && h == null) {
                return true;
            }
            int th = p.thread(i);
            if (h != null && !h.equals(p.host(th))) {
                return false;
            }
            return !filters || filter.accepts(p.comm(th), p.pid(th), p.tid(th), p.cpu(i), r.leafFrame(i));
        };
    }

    private static long number(Map<String, String> q, String key, long dflt) {
        String v = q.get(key);
        if (v == null || v.isEmpty()) {
            return dflt;
        }
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new BadRequest(key + ": not a number");
        }
    }

    private static Set<String> text(Map<String, String> q, String key) {
        String v = q.get(key);
        return v == null || v.isEmpty() ? null : Set.of(v);
    }

    private static Set<Integer> ints(Map<String, String> q, String key) {
        long v = number(q, key, Long.MIN_VALUE);
        return v == Long.MIN_VALUE ? null : Set.of((int) v);
    }
}
