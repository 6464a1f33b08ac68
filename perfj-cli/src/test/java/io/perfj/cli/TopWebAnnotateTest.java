package io.perfj.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.perfj.perfdata.PerfData;
import io.perfj.profile.Frame;
import io.perfj.profile.Profile;
import io.perfj.serve.Api;
import io.perfj.serve.Recording;
import io.perfj.session.Session;
import io.perfj.session.SessionOptions;
import io.perfj.symbols.SymbolOptions;
import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import io.perfj.testing.Objdump;
import io.perfj.top.LiveProfile;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code perfj top --web}'s api/annotate: hot-20k replayed through a {@link LiveProfile}, the
 * live snapshot's Api answers a function's annotation from the live per-address sums with the
 * same JSON as {@code perfj serve}'s Api over the recording itself; function ids stay put from
 * one snapshot to the next.
 */
class TopWebAnnotateTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static SessionOptions options() {
        return SessionOptions.of(SymbolOptions.builder().buildIdDir(BuildIdCacheFixture.dir()).perfMapDir(Path.of("/nonexistent-perfj-maps")).noSystemFiles().build());
    }

    /** The id of function {@code name} in the Api's top table. */
    private static int fn(Api api, String name) throws Exception {
        JsonNode top = JSON.readTree(api.answer("top", Map.of("limit", "5000")));
        for (JsonNode f : top.get("fns")) {
            if (f.get(1).asText().equals(name)) {
                return f.get(0).asInt();
            }
        }
        throw new AssertionError("no " + name + " in " + top);
    }

    @Test
    void aLiveFunctionIsAnnotatedAsTheRecordingIs() throws Exception {
        Objdump.assume();
        Path file = Fixtures.recording("hot-20k");
        String recorded;
        try (PerfData data = PerfData.open(file)) {
            Profile prof = Profile.read(Session.of(data, options()), 127);
            Api api = new Api(new Recording("hot-20k.data", file, prof, options()));
            recorded = api.answer("annotate", Map.of("fn", Integer.toString(fn(api, "compute_a"))));
        }
        try (Session s = Session.open(file, options()); LiveProfile p = new LiveProfile(s).start()) {
            p.awaitEnd();
            Map<List<Object>, Integer> seen = new HashMap<>();
            Api live = TopCommand.webApi(s, p, seen);
            int id = fn(live, "compute_a");
            String answer = live.answer("annotate", Map.of("fn", Integer.toString(id)));
            JsonNode a = JSON.readTree(answer);
            assertEquals("compute_a", a.get("symbol").asText());
            assertTrue(a.get("annotations").size() == 1, answer);
            assertEquals(recorded, answer);
            // the next snapshot names every function by the same id
            Api next = TopCommand.webApi(s, p, seen);
            JsonNode before = JSON.readTree(live.answer("top", Map.of("limit", "5000"))).get("fns");
            JsonNode after = JSON.readTree(next.answer("top", Map.of("limit", "5000"))).get("fns");
            assertEquals(before, after);
        }
    }
}
