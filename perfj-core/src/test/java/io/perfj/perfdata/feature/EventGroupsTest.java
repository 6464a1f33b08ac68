package io.perfj.perfdata.feature;

import io.perfj.perfdata.PerfData;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EventGroupsTest {
    private static Feature.GroupDesc.Group g(String name, long leader, long members) {
        return new Feature.GroupDesc.Group(name, leader, members);
    }

    @Test
    void groupsFromTheDescriptionInEventOrder() {
        // {a,b,c},d,{e,f} named "pair"
        EventGroups e = EventGroups.of(6, List.of(g("{anon_group}", 0, 3), g("pair", 4, 2)));
        assertTrue(e.valid());
        assertEquals(2, e.nrGroups());
        assertEquals(List.of(0, 0, 0, 3, 4, 4), List.of(e.leader(0), e.leader(1), e.leader(2), e.leader(3),
                e.leader(4), e.leader(5)));
        assertTrue(e.isGroupEvent(0));
        assertFalse(e.isGroupEvent(3));
        assertEquals(1, e.nrMembers(3));
        assertEquals(1, e.nrMembers(1), "a member leads nothing");
        assertEquals(2, e.groupIndex(2));
        assertNull(e.name(0));
        List<String> names = List.of("a", "b", "c", "d", "e", "f");
        assertEquals("anon group { a, b, c }", e.describe(0, names));
        assertEquals("pair { e, f }", e.describe(4, names));
    }

    @Test
    void anInvalidDescriptionKeepsWhatPerfSetUpBeforeIt() {
        // the second leader sits inside the first group: perf stops there
        EventGroups e = EventGroups.of(4, List.of(g("{anon_group}", 0, 3), g("{anon_group}", 1, 2)));
        assertFalse(e.valid());
        assertEquals(0, e.leader(0));
        assertEquals(1, e.leader(1), "perf made it a leader before noticing");
        assertEquals(3, e.leader(3));
        // groups left over at the end
        assertFalse(EventGroups.of(2, List.of(g("x", 0, 3))).valid());
        assertFalse(EventGroups.of(2, List.of(g("x", 0, 2), g("y", 5, 2))).valid());
    }

    @Test
    void forcedMakesOneGroupOnlyWithoutRecordedOnes() {
        EventGroups none = EventGroups.ungrouped(3);
        EventGroups f = none.forced();
        assertTrue(f.isGroupEvent(0));
        assertEquals(3, f.nrMembers(0));
        assertEquals(0, f.leader(2));
        // perf's forced leader lists the events without the group's braces
        assertEquals("a, b, c", f.describe(0, List.of("a", "b", "c")));
        EventGroups recorded = EventGroups.of(3, List.of(g("{anon_group}", 1, 2)));
        assertSame(recorded, recorded.forced());
        assertFalse(EventGroups.ungrouped(1).forced().isGroupEvent(0));
    }

    @Test
    void aRecordingsGroupDescription() throws Exception {
        try (PerfData d = PerfData.open(Fixtures.file("corpus/q-lost_samples-4.4.data"))) {
            EventGroups e = EventGroups.recorded(d);
            assertTrue(e.valid());
            assertEquals(3, e.nrMembers(0));
            assertEquals("anon group { cycles:pp, instructions:pp, branch-instructions:pp }",
                    e.describe(0, EventNames.names(d)));
        }
        try (PerfData d = PerfData.open(Fixtures.file("corpus/here-two-events.data"))) {
            EventGroups e = EventGroups.recorded(d);
            assertEquals(0, e.nrGroups());
            assertFalse(e.isGroupEvent(0));
        }
    }
}
