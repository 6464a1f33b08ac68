package io.perfj.fleet;

import org.apache.spark.sql.sources.And;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThan;
import org.apache.spark.sql.sources.GreaterThanOrEqual;
import org.apache.spark.sql.sources.In;
import org.apache.spark.sql.sources.LessThan;
import org.apache.spark.sql.sources.LessThanOrEqual;
import org.apache.spark.sql.sources.StringStartsWith;

import java.io.Serializable;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The predicates a fleet read applies itself: hosts (which recordings are read at all), commands
 * and a time window (which samples are resolved). Spark still evaluates every filter on the
 * rows, so this only saves work: a filter it does not know is simply not applied here.
 *
 * @param hosts      the hosts allowed, or null for all
 * @param hostPrefix a prefix every host must have, or null
 * @param comms      the commands allowed, or null for all
 * @param timeFrom   the least time allowed
 * @param timeTo     the greatest time allowed
 */
record Pushed(Set<String> hosts, String hostPrefix, Set<String> comms, long timeFrom, long timeTo)
        implements Serializable {
    static final Pushed NONE = new Pushed(null, null, null, Long.MIN_VALUE, Long.MAX_VALUE);

    /** This and one more filter; {@code used} gets the filter when it narrowed anything. */
    Pushed and(Filter f, List<Filter> used) {
        Pushed p = switch (f) {
            case And a -> and(a.left(), used).and(a.right(), used);
            case EqualTo e when e.attribute().equals("host") -> withHosts(Set.of(String.valueOf(e.value())));
            case In i when i.attribute().equals("host") -> withHosts(strings(i.values()));
            case StringStartsWith s when s.attribute().equals("host") && hostPrefix == null ->
                    new Pushed(hosts, s.value(), comms, timeFrom, timeTo);
            case EqualTo e when e.attribute().equals("comm") -> withComms(Set.of(String.valueOf(e.value())));
            case In i when i.attribute().equals("comm") -> withComms(strings(i.values()));
            case EqualTo e when e.attribute().equals("time") && e.value() instanceof Long t ->
                    window(t, t);
            case GreaterThan g when g.attribute().equals("time") && g.value() instanceof Long t && t < Long.MAX_VALUE ->
                    window(t + 1, Long.MAX_VALUE);
            case GreaterThanOrEqual g when g.attribute().equals("time") && g.value() instanceof Long t ->
                    window(t, Long.MAX_VALUE);
            case LessThan l when l.attribute().equals("time") && l.value() instanceof Long t && t > Long.MIN_VALUE ->
                    window(Long.MIN_VALUE, t - 1);
            case LessThanOrEqual l when l.attribute().equals("time") && l.value() instanceof Long t ->
                    window(Long.MIN_VALUE, t);
            default -> this;
        };
        if (p != this && !(f instanceof And) && !used.contains(f)) {
            used.add(f);
        }
        return p;
    }

    private static Set<String> strings(Object[] values) {
        Set<String> s = new HashSet<>();
        for (Object v : values) {
            s.add(String.valueOf(v));
        }
        return s;
    }

    private Pushed withHosts(Set<String> h) {
        return new Pushed(intersect(hosts, h), hostPrefix, comms, timeFrom, timeTo);
    }

    private Pushed withComms(Set<String> c) {
        return new Pushed(hosts, hostPrefix, intersect(comms, c), timeFrom, timeTo);
    }

    private Pushed window(long from, long to) {
        return new Pushed(hosts, hostPrefix, comms, Math.max(timeFrom, from), Math.min(timeTo, to));
    }

    private static Set<String> intersect(Set<String> a, Set<String> b) {
        if (a == null) {
            return Set.copyOf(b);
        }
        Set<String> s = new HashSet<>(a);
        s.retainAll(b);
        return Set.copyOf(s);
    }

    boolean keepsHost(String host) {
        return (hosts == null || hosts.contains(host)) && (hostPrefix == null || host.startsWith(hostPrefix));
    }

    boolean keepsComm(String comm) {
        return comms == null || comms.contains(comm);
    }

    boolean keepsTime(long t) {
        return t >= timeFrom && t <= timeTo;
    }
}
