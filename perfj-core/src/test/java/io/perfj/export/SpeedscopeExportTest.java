package io.perfj.export;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.perfj.profile.Profile;
import io.perfj.session.Compat;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * speedscope files valid under speedscope's own file-format schema (fixtures/schemas, generated
 * from its file-format-spec.ts), holding every sample of the profile with its weight and its
 * stack, root first, in time order per thread and event.
 */
class SpeedscopeExportTest {
    @ParameterizedTest
    @ValueSource(strings = {"c-fp", "bpf-sys", "pipe", "zstd", "two-events", "java", "bpf-dwarf"})
    void validAndComplete(String name) throws Exception {
        Profile profile = ProfileFixtures.profile(name, Compat.NONE);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new SpeedscopeExport(profile, name + ".data", "perfj@test").write(out);
        JsonNode doc = new ObjectMapper().readTree(out.toByteArray());
        Schema schema;
        try (InputStream in = Files.newInputStream(Fixtures.file("schemas/speedscope-file-format-schema.json"))) {
            schema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_7).getSchema(in);
        }
        var errors = schema.validate(doc);
        assertTrue(errors.isEmpty(), errors.toString());

        // every sample, by (thread, event) in time order: its stack's frame names root first and its weight
        Map<String, List<String>> expected = new HashMap<>();
        for (int i = 0; i < profile.sampleCount(); i++) {
            int t = profile.thread(i);
            String key = profile.comm(t) + " " + profile.pid(t) + "/" + profile.tid(t)
                    + (profile.events().size() > 1 ? " " + profile.events().get(profile.event(i)) : "");
            List<String> frames = new ArrayList<>();
            for (int s = profile.stack(i); s >= 0; s = profile.stacks().parent(s)) {
                var f = profile.frames().get(profile.stacks().frame(s));
                frames.addFirst(f.sym() != null ? f.sym().name() : "0x" + Long.toHexString(f.addr()));
            }
            expected.computeIfAbsent(key, k -> new ArrayList<>()).add(frames + " " + profile.weight(i));
        }
        JsonNode shared = doc.get("shared").get("frames");
        Map<String, List<String>> actual = new HashMap<>();
        for (JsonNode p : doc.get("profiles")) {
            List<String> samples = new ArrayList<>();
            JsonNode weights = p.get("weights");
            assertEquals(weights.size(), p.get("samples").size());
            long total = 0;
            for (int i = 0; i < weights.size(); i++) {
                List<String> frames = new ArrayList<>();
                for (JsonNode f : p.get("samples").get(i)) {
                    frames.add(shared.get(f.asInt()).get("name").asText());
                }
                samples.add(frames + " " + weights.get(i).asLong());
                total += weights.get(i).asLong();
            }
            assertEquals(total, p.get("endValue").asLong());
            assertTrue(actual.put(p.get("name").asText(), samples) == null, "one profile per thread and event");
        }
        assertEquals(expected, actual);
    }
}
