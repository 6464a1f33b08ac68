package io.perfj.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.perfj.profile.Profile;
import io.perfj.serve.Api;
import io.perfj.serve.Recording;
import io.perfj.session.Session;
import io.perfj.session.SessionOptions;
import io.perfj.symbols.SymbolOptions;
import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import io.perfj.top.LiveProfile;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code top --web -g}'s API over a live profile (a committed recording replayed through both of
 * its threads): the flame graph has the callchains' depth, and is the flame graph of the same
 * recording served by {@code perfj serve}; without -g each stack is its sampled frame alone.
 */
class TopWebApiTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static SessionOptions options() {
        return SessionOptions.of(SymbolOptions.builder().buildIdDir(BuildIdCacheFixture.dir()).perfMapDir(Path.of("/nonexistent-perfj-maps")).noSystemFiles().build());
    }

    private static JsonNode live(String name, boolean callchains, String call) throws Exception {
        try (Session s = Session.open(Fixtures.recording(name), options());
             LiveProfile p = new LiveProfile(s, callchains).start()) {
            p.awaitEnd();
            return JSON.readTree(TopCommand.webApi(s, p, new java.util.HashMap<>()).answer(call, Map.of()));
        }
    }

    private static JsonNode served(String name, String call) throws Exception {
        try (Session s = Session.open(Fixtures.recording(name), options())) {
            // top names the functions inlined at callchain addresses as report does by default
            Profile prof = Profile.read(s, Session.DEFAULT_MAX_STACK, io.perfj.profile.SampleFilter.ALL);
            return JSON.readTree(new Api(new Recording(name, null, prof, options())).answer(call, Map.of()));
        }
    }

    /** The deepest level of the flame tree's nodes (the root 1), from their parent column (places in the columns). */
    private static int depth(JsonNode flame) {
        JsonNode parent = flame.get("nodes").get("parent");
        int[] depth = new int[parent.size()];
        int max = 0;
        for (int i = 0; i < depth.length; i++) {
            // a node's parent is the node at that place, before it
            depth[i] = parent.get(i).asInt() < 0 ? 1 : depth[parent.get(i).asInt()] + 1;
            max = Math.max(max, depth[i]);
        }
        return max;
    }

    @ParameterizedTest
    @ValueSource(strings = {"c-fp", "hot-20k"})
    void theLiveFlameGraphIsTheRecordingsFlameGraph(String name) throws Exception {
        JsonNode live = live(name, true, "flame");
        JsonNode served = served(name, "flame");
        assertTrue(depth(live) >= 4, name + ": " + live);
        assertEquals(served.get("total"), live.get("total"), name);
        assertEquals(served, live, name);
        assertEquals(2, depth(live(name, false, "flame")), name);
    }
}
