package io.perfj.export;

import io.perfj.export.pprof.ProfileProto;
import io.perfj.profile.Frame;
import io.perfj.profile.Profile;
import io.perfj.session.Compat;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The pprof file decoded with profile.proto's classes: it holds every sample of every event,
 * the same stacks (function names, leaf first) with the same weights as the profile it came
 * from, and tables whose ids all resolve.
 */
class PprofExportTest {
    @ParameterizedTest
    @ValueSource(strings = {"c-fp", "bpf-sys", "pipe", "zstd", "two-events", "java", "bpf-dwarf"})
    void decodesToTheProfilesSamples(String name) throws Exception {
        Profile profile = ProfileFixtures.profile(name, Compat.NONE);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new PprofExport(profile).write(out);
        ProfileProto.Profile p;
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(out.toByteArray()))) {
            p = ProfileProto.Profile.parseFrom(in);
        }
        List<String> strings = p.getStringTableList();
        assertEquals("", strings.getFirst());
        int events = profile.events().size();
        assertEquals(2 * events, p.getSampleTypeCount());
        Map<Long, ProfileProto.Location> locations = new HashMap<>();
        for (ProfileProto.Location l : p.getLocationList()) {
            locations.put(l.getId(), l);
        }
        Map<Long, String> functions = new HashMap<>();
        for (ProfileProto.Function f : p.getFunctionList()) {
            functions.put(f.getId(), strings.get((int) f.getName()));
        }
        Map<Long, ProfileProto.Mapping> mappings = new HashMap<>();
        for (ProfileProto.Mapping m : p.getMappingList()) {
            mappings.put(m.getId(), m);
        }
        // stacks as function names (unsymbolized frames as their address), leaf first, per event
        Map<String, long[]> fromPprof = new HashMap<>();
        for (ProfileProto.Sample s : p.getSampleList()) {
            int event = -1;
            for (int e = 0; e < events; e++) {
                if (s.getValue(2 * e) != 0) {
                    assertEquals(-1, event, "one event per sample");
                    event = e;
                }
            }
            List<String> stack = new ArrayList<>();
            for (long id : s.getLocationIdList()) {
                ProfileProto.Location l = locations.get(id);
                assertTrue(l != null, "location " + id);
                assertTrue(l.getMappingId() == 0 || mappings.containsKey(l.getMappingId()), "mapping " + l.getMappingId());
                if (l.getLineCount() == 0) {
                    stack.add("0x" + Long.toHexString(l.getAddress()));
                }
                for (ProfileProto.Line line : l.getLineList()) {
                    assertTrue(functions.containsKey(line.getFunctionId()), "function " + line.getFunctionId());
                    stack.add(functions.get(line.getFunctionId()));
                }
            }
            long[] v = fromPprof.computeIfAbsent(event + " " + stack, k -> new long[2]);
            v[0] += s.getValue(2 * event);
            v[1] += s.getValue(2 * event + 1);
        }
        Map<String, long[]> fromProfile = new HashMap<>();
        for (int i = 0; i < profile.sampleCount(); i++) {
            List<String> stack = new ArrayList<>();
            for (int s = profile.locationStack(i); s >= 0; s = profile.locationStacks().parent(s)) {
                int loc = profile.locationStacks().frame(s);
                Frame f = profile.frames().get(profile.locations().frame(loc));
                stack.add(f.sym() != null ? f.sym().name() : "0x" + Long.toHexString(profile.locations().address(loc)));
            }
            long[] v = fromProfile.computeIfAbsent(profile.event(i) + " " + stack, k -> new long[2]);
            v[0]++;
            v[1] += profile.weight(i);
        }
        assertEquals(fromProfile.keySet(), fromPprof.keySet());
        for (var e : fromProfile.entrySet()) {
            assertEquals(e.getValue()[0], fromPprof.get(e.getKey())[0], "count of " + e.getKey());
            assertEquals(e.getValue()[1], fromPprof.get(e.getKey())[1], "weight of " + e.getKey());
        }
        assertFalse(p.getMappingList().isEmpty());
        Map<String, String> buildIds = new HashMap<>();
        for (ProfileProto.Mapping m : p.getMappingList()) {
            buildIds.put(strings.get((int) m.getFilename()), strings.get((int) m.getBuildId()));
        }
        for (int f = 0; f < profile.frames().size(); f++) {
            Frame fr = profile.frames().get(f);
            if (fr.dso() != null && fr.dso().buildId().isPresent()) {
                assertEquals(fr.dso().buildIdHex(), buildIds.get(fr.dso().longName()), fr.dso().longName());
            }
        }
    }
}
