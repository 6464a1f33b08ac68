package io.perfj.perfdata.feature;

import io.perfj.testing.Fixtures;
import io.perfj.perfdata.EventAttr;
import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.RecordInput;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

class EventNamesTest {
    static final List<String> NAMES = Fixtures.RECORDINGS;

    @ParameterizedTest
    @FieldSource("NAMES")
    void namesMatchPerfHeader(String fixture) throws Exception {
        List<String> expected = new ArrayList<>();
        Matcher m = Pattern.compile("^# event : name = (.*?), , id = ", Pattern.MULTILINE)
                .matcher(Files.readString(Fixtures.goldenFile(fixture + ".header.txt")));
        while (m.find()) {
            expected.add(m.group(1));
        }
        assertFalse(expected.isEmpty());
        try (PerfData d = PerfData.open(Fixtures.recording(fixture))) {
            if (d.isPipe()) {
                RecordInput in = d.records();
                while (in.next() != null) {
                    // attrs and features arrive as records
                }
            }
            assertEquals(expected, EventNames.names(d));
        }
    }

    /** perf's default naming rebuilds the name perf recorded in EVENT_DESC for every fixture event. */
    @ParameterizedTest
    @FieldSource("NAMES")
    void defaultNamesAgreeWithRecordedNames(String fixture) {
        try (PerfData d = PerfData.open(Fixtures.recording(fixture))) {
            if (d.isPipe()) {
                RecordInput in = d.records();
                while (in.next() != null) {
                    // attrs and features arrive as records
                }
            }
            Feature.EventDesc desc = Features.decodeEventDesc(d.features().get(io.perfj.perfdata.FeatureId.EVENT_DESC));
            assertEquals(d.evlist().evsels().size(), desc.events().size());
            for (Feature.EventDesc.Event e : desc.events()) {
                assertEquals(e.name(), EventNames.defaultName(e.attr()));
            }
        }
    }

    private static EventAttr attr(int type, long config, long flags) {
        return new EventAttr(type, 128, config, 0, 0, 0, flags, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    }

    private static long bits(int... b) {
        long f = 0;
        for (int x : b) {
            f |= 1L << x;
        }
        return f;
    }

    @Test
    void defaultNamesFollowPerf() {
        // exclude_guest alone (perf's default for plain events): no modifiers
        assertEquals("cycles", EventNames.defaultName(attr(0, 0, bits(20))));
        // nothing excluded: host and guest both counted, shown as :HG
        assertEquals("dummy:HG", EventNames.defaultName(attr(1, 9, 0)));
        // exclude_kernel + exclude_hv: user only; the guest default flips to "excluded"
        assertEquals("instructions:u", EventNames.defaultName(attr(0, 1, bits(5, 6))));
        assertEquals("cycles:uH", EventNames.defaultName(attr(0, 0, bits(5, 6, 20))));
        // precise_ip = 3 (bits 15,16)
        assertEquals("cycles:ppp", EventNames.defaultName(attr(0, 0, bits(15, 16))));
        assertEquals("cycles:pH", EventNames.defaultName(attr(0, 0, bits(15, 20))));
        assertEquals("cpu-clock:k", EventNames.defaultName(attr(1, 0, bits(4, 6))));
        assertEquals("L1-dcache-load-misses", EventNames.defaultName(attr(3, 0x10000, bits(20))));
        assertEquals("L1-dcache-loads", EventNames.defaultName(attr(3, 0, bits(20))));
        assertEquals("raw 0x1234", EventNames.defaultName(attr(4, 0x1234, bits(20))));
        assertEquals("unknown-software", EventNames.defaultName(attr(1, 99, bits(20))));
        assertEquals("unknown attr type: 77", EventNames.defaultName(attr(77, 0, bits(20))));
        assertEquals("unknown tracepoint", EventNames.defaultName(attr(2, 5, bits(20))));
    }
}
