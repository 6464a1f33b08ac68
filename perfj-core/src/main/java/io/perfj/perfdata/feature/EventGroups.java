package io.perfj.perfdata.feature;

import io.perfj.io.Bytes;
import io.perfj.io.FormatException;
import io.perfj.perfdata.FeatureId;
import io.perfj.perfdata.PerfData;

import java.util.Arrays;
import java.util.List;

/**
 * Which events of a recording form groups ({@code perf record -e '{a,b}'}): each event's leader,
 * each leader's member count and group name, as perf rebuilds them from the GROUP_DESC feature
 * (in pipe mode a HEADER_FEATURE record, so ask after the records were read).
 *
 * <p>perf walks the event list against the descriptions in order: an event whose index is the
 * next description's leader starts a group, the next {@code nr_members - 1} events are its
 * members. A description that does not fit the list (a leader inside a group, groups left over)
 * is "invalid"; perf stops there but keeps the groups it has set up so far, and so does this.
 * An unreadable GROUP_DESC leaves every event on its own, as perf ignores the feature then.
 *
 * <p>Mirrors: {@code process_group_desc} (tools/perf/util/header.c), {@code evlist__force_leader}
 * (perf report --group on a recording without groups), {@code evsel__group_desc} and
 * {@code evsel__is_group_event} (tools/perf/util/evsel.c, evsel.h), perf 6.1.
 */
public final class EventGroups {
    /**
     * perf report's group view: a group's events as one report, one percentage column per event,
     * rows matched across the events by their sort keys.
     */
    public enum Mode {
        /** The groups the recording describes (perf's default). */
        RECORDED,
        /** {@code --group}: as recorded, or all events one group when none is recorded. */
        FORCED,
        /** {@code --no-group}: every event on its own. */
        NONE
    }

    private final int[] leader;
    private final int[] nrMembers;
    private final String[] name;
    private final int nrGroups;
    private final boolean valid;
    private final boolean forced;

    private EventGroups(int[] leader, int[] nrMembers, String[] name, int nrGroups, boolean valid, boolean forced) {
        this.leader = leader;
        this.nrMembers = nrMembers;
        this.name = name;
        this.nrGroups = nrGroups;
        this.valid = valid;
        this.forced = forced;
    }

    /** The groups the recording describes; every event its own leader when it describes none. */
    public static EventGroups recorded(PerfData data) {
        int n = data.evlist().evsels().size();
        Bytes payload = data.features().get(FeatureId.GROUP_DESC);
        if (payload == null) {
            return ungrouped(n);
        }
        Feature.GroupDesc desc;
        try {
            desc = Features.groupDesc(payload.named("feature GROUP_DESC"));
        } catch (FormatException e) {
            return ungrouped(n);
        }
        return of(n, desc.groups());
    }

    /** {@code n} events, none in a group. */
    static EventGroups ungrouped(int n) {
        int[] leader = new int[n];
        Arrays.setAll(leader, i -> i);
        int[] members = new int[n];
        Arrays.fill(members, 1);
        return new EventGroups(leader, members, new String[n], 0, true, false);
    }

    /** The groups of {@code n} events (by position) as perf sets them up from these descriptions. */
    public static EventGroups of(int n, List<Feature.GroupDesc.Group> groups) {
        EventGroups g = ungrouped(n);
        int i = 0;
        long nr = 0;
        int current = -1;
        for (int idx = 0; idx < n; idx++) {
            if (i < groups.size() && idx == groups.get(i).leaderIdx()) {
                Feature.GroupDesc.Group d = groups.get(i);
                g.leader[idx] = idx;
                g.name[idx] = d.name().equals("{anon_group}") ? null : d.name();
                g.nrMembers[idx] = (int) Math.min(Integer.MAX_VALUE, d.nrMembers());
                if (nr > 0) {
                    return new EventGroups(g.leader, g.nrMembers, g.name, groups.size(), false, false);
                }
                current = idx;
                nr = d.nrMembers() - 1;
                i++;
            } else if (nr > 0) {
                g.leader[idx] = current;
                nr--;
            }
        }
        boolean valid = i == groups.size() && nr == 0;
        return new EventGroups(g.leader, g.nrMembers, g.name, groups.size(), valid, false);
    }

    /**
     * perf report's {@code --group} on a recording without groups: all events one group under
     * the first; a recording with groups keeps them.
     */
    public EventGroups forced() {
        int n = leader.length;
        if (nrGroups != 0 || n == 0) {
            return this;
        }
        int[] members = new int[n];
        Arrays.fill(members, 1);
        members[0] = n;
        return new EventGroups(new int[n], members, new String[n], n > 1 ? 1 : 0, true, true);
    }

    /** How many groups the recording describes (0 without GROUP_DESC). */
    public int nrGroups() {
        return nrGroups;
    }

    /** Whether the description fitted the event list (perf's "invalid group desc" when not). */
    public boolean valid() {
        return valid;
    }

    /** The index of event {@code idx}'s leader (itself when it leads or is in no group). */
    public int leader(int idx) {
        return leader[idx];
    }

    public boolean isLeader(int idx) {
        return leader[idx] == idx;
    }

    /** How many events the group led by {@code idx} has, the leader included (1: none). */
    public int nrMembers(int idx) {
        return isLeader(idx) ? nrMembers[idx] : 1;
    }

    /** Whether {@code idx} leads a group of more than one event (perf's {@code evsel__is_group_event}). */
    public boolean isGroupEvent(int idx) {
        return isLeader(idx) && nrMembers[idx] > 1;
    }

    /** The position of event {@code idx} in its group (0 for the leader). */
    public int groupIndex(int idx) {
        return idx - leader[idx];
    }

    /** The group's name, or null for an anonymous group. */
    public String name(int idx) {
        return name[idx];
    }

    /**
     * perf's description of the group led by {@code idx}: {@code anon group { a, b }} or
     * {@code NAME { a, b }}; only the names for a group made by {@code --group}.
     *
     * @param names the events' display names, by index
     */
    public String describe(int idx, List<String> names) {
        StringBuilder b = new StringBuilder();
        if (!forced) {
            b.append(name[idx] == null ? "anon group" : name[idx]).append(" { ");
        }
        b.append(names.get(idx));
        for (int m = idx + 1; m < leader.length; m++) {
            if (leader[m] == idx) {
                b.append(", ").append(names.get(m));
            }
        }
        if (!forced) {
            b.append(" }");
        }
        return b.toString();
    }
}
