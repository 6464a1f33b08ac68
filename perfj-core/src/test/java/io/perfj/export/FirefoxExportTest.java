package io.perfj.export;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.perfj.io.TextOut;
import io.perfj.perfdata.PerfData;
import io.perfj.profile.Profile;
import io.perfj.profile.SourcePositions;
import io.perfj.session.Compat;
import io.perfj.session.Session;
import io.perfj.session.SessionOptions;
import io.perfj.symbols.SymbolOptions;
import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Firefox Profiler files valid under the schema generated from the profiler's own types
 * (fixtures/schemas), and meaning what the profile means: every sample once, stacks that walk
 * back to the folded stacks of the same recording, times in order, indexes in range.
 */
class FirefoxExportTest {
    private static JsonNode export(Profile profile) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new FirefoxExport(profile, 1_700_000_000_000.0).write(out);
        return new ObjectMapper().readTree(out.toByteArray());
    }

    private static Schema schema() throws Exception {
        try (InputStream in = Files.newInputStream(Fixtures.file("schemas/firefox-processed-profile-schema.json"))) {
            return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_7).getSchema(in);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"c-fp", "bpf-sys", "bpf-dwarf", "two-events", "pipe", "zstd", "java"})
    void validAndMeaningful(String name) throws Exception {
        Profile profile = ProfileFixtures.profile(name, Compat.NONE);
        JsonNode doc = export(profile);
        var errors = schema().validate(doc);
        assertTrue(errors.isEmpty(), errors.toString());
        assertEquals(FirefoxExport.VERSION, doc.get("meta").get("preprocessedProfileVersion").asInt());

        indexesInRange(doc);
        int samples = 0;
        for (JsonNode t : doc.get("threads")) {
            samples += t.get("samples").get("length").asInt();
            assertEquals(t.get("samples").get("length").asInt(), t.get("samples").get("stack").size());
        }
        assertEquals(profile.sampleCount(), samples, "every sample once");
        timesInOrder(profile, doc);
        assertEquals(folded(profile), foldedFromExport(profile, doc));
    }

    /** Every index points into its table; a stack's prefix comes before it. */
    private static void indexesInRange(JsonNode doc) {
        JsonNode sh = doc.get("shared");
        for (var table : sh.properties()) {
            if (table.getValue().has("length")) {
                for (var column : table.getValue().properties()) {
                    if (column.getValue().isArray()) {
                        assertEquals(table.getValue().get("length").asInt(), column.getValue().size(),
                                table.getKey() + "." + column.getKey());
                    }
                }
            }
        }
        int strings = sh.get("stringArray").size();
        int frames = sh.get("frameTable").get("length").asInt();
        int funcs = sh.get("funcTable").get("length").asInt();
        int resources = sh.get("resourceTable").get("length").asInt();
        int symbols = sh.get("nativeSymbols").get("length").asInt();
        int libs = doc.get("libs").size();
        JsonNode st = sh.get("stackTable");
        for (int i = 0; i < st.get("length").asInt(); i++) {
            int off = st.get("prefixOffset").get(i).asInt();
            assertTrue(off >= 0 && off <= i, "prefix of stack " + i);
            inRange(st.get("frame").get(i), frames);
        }
        JsonNode ft = sh.get("frameTable");
        for (int i = 0; i < frames; i++) {
            inRange(ft.get("func").get(i), funcs);
            inRangeOrNone(ft.get("lib").get(i), libs);
            inRangeOrNone(ft.get("nativeSymbol").get(i), symbols);
            inRange(ft.get("category").get(i), doc.get("meta").get("categories").size());
        }
        JsonNode fn = sh.get("funcTable");
        for (int i = 0; i < funcs; i++) {
            inRange(fn.get("name").get(i), strings);
            inRangeOrNone(fn.get("resource").get(i), resources);
        }
        for (JsonNode n : sh.get("resourceTable").get("name")) {
            inRange(n, strings);
        }
        JsonNode ns = sh.get("nativeSymbols");
        for (int i = 0; i < symbols; i++) {
            inRange(ns.get("name").get(i), strings);
            inRange(ns.get("libIndex").get(i), libs);
        }
        int stacks = st.get("length").asInt();
        for (JsonNode t : doc.get("threads")) {
            for (JsonNode s : t.get("samples").get("stack")) {
                inRangeOrNone(s, stacks);
            }
            JsonNode m = t.get("markers");
            for (int i = 0; i < m.get("length").asInt(); i++) {
                inRange(m.get("name").get(i), strings);
                inRange(m.get("data").get(i).get("name"), strings);
            }
        }
    }

    private static void inRange(JsonNode v, int size) {
        assertTrue(v.isInt() && v.asInt() >= 0 && v.asInt() < size, v + " not below " + size);
    }

    private static void inRangeOrNone(JsonNode v, int size) {
        if (!v.isNull() && v.asInt() != -1) {
            inRange(v, size);
        }
    }

    /**
     * Per thread, the deltas never go back, add up to the thread's register time at its first
     * sample and from there to each sample's own time (to the microsecond: the sum is a double).
     */
    private static void timesInOrder(Profile profile, JsonNode doc) {
        boolean split = profile.events().size() > 1;
        Map<Integer, List<Long>> byTrack = new TreeMap<>();
        for (int i = 0; i < profile.sampleCount(); i++) {
            int key = split ? profile.thread(i) * profile.events().size() + profile.event(i) : profile.thread(i);
            byTrack.computeIfAbsent(key, k -> new ArrayList<>()).add(profile.time(i));
        }
        List<List<Long>> expected = new ArrayList<>(byTrack.values());
        JsonNode threads = doc.get("threads");
        assertEquals(expected.size(), threads.size(), "threads");
        for (int t = 0; t < threads.size(); t++) {
            JsonNode deltas = threads.get(t).get("samples").get("timeDeltas");
            List<Long> times = expected.get(t);
            assertEquals(times.size(), deltas.size());
            double now = 0;
            double first = 0;
            for (int k = 0; k < deltas.size(); k++) {
                assertTrue(deltas.get(k).asDouble() >= 0, "time goes back in " + threads.get(t).get("name"));
                now += deltas.get(k).asDouble();
                if (k == 0) {
                    first = now;
                    assertEquals(threads.get(t).get("registerTime").asDouble(), now, 1e-9);
                }
                double want = first + (times.get(k) - times.getFirst()) / 1e6;
                assertEquals(want, now, 1e-3, "sample " + k + " of " + threads.get(t).get("name"));
            }
        }
    }

    /** FoldedStacks' lines of the first event. */
    private static String folded(Profile profile) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new FoldedStacks(profile, null).write(out);
        return out.toString(StandardCharsets.UTF_8);
    }

    /**
     * The export's samples of the first event folded as stackcollapse-perf.pl folds: each
     * stack walked back through its prefixes, each frame named by its function and the path
     * of its library ({@code inlined} for inlined frames, nothing for an address).
     */
    private static String foldedFromExport(Profile profile, JsonNode doc) {
        String event = profile.events().get(profile.event(0));
        boolean split = profile.events().size() > 1;
        JsonNode sh = doc.get("shared");
        JsonNode st = sh.get("stackTable");
        JsonNode ft = sh.get("frameTable");
        JsonNode strings = sh.get("stringArray");
        Map<String, Long> lines = new HashMap<>();
        for (JsonNode t : doc.get("threads")) {
            String name = t.get("name").asText();
            if (split) {
                if (!name.endsWith(" (" + event + ")")) {
                    continue;
                }
                name = name.substring(0, name.length() - event.length() - 3);
            }
            boolean java = name.startsWith("java");
            JsonNode samples = t.get("samples");
            JsonNode cpu = samples.get("threadCPUDelta");
            for (int i = 0; i < samples.get("length").asInt(); i++) {
                List<String> names = new ArrayList<>();
                for (int s = samples.get("stack").get(i).asInt(-1); s >= 0; ) {
                    int f = st.get("frame").get(s).asInt();
                    names.addAll(0, frameNames(doc, ft, strings, f, java));
                    int off = st.get("prefixOffset").get(s).asInt();
                    if (off == 0) {
                        break;
                    }
                    s -= off;
                }
                StringBuilder line = new StringBuilder(name.replace(' ', '_'));
                for (String n : names) {
                    line.append(';').append(n);
                }
                lines.merge(line.toString(), cpu == null ? 1L : cpu.get(i).asLong(), Long::sum);
            }
        }
        byte[][] out = new byte[lines.size()][];
        int k = 0;
        for (var e : lines.entrySet()) {
            out[k++] = (e.getKey() + " " + e.getValue() + "\n").getBytes(StandardCharsets.UTF_8);
        }
        Arrays.sort(out, Arrays::compareUnsigned);
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        for (byte[] l : out) {
            text.writeBytes(l);
        }
        return text.toString(StandardCharsets.UTF_8);
    }

    private static List<String> frameNames(JsonNode doc, JsonNode ft, JsonNode strings, int f, boolean java) {
        JsonNode func = doc.get("shared").get("funcTable");
        int fn = ft.get("func").get(f).asInt();
        String name = strings.get(func.get("name").get(fn).asInt()).asText();
        boolean inlined = ft.get("inlineDepth").get(f).asInt() > 0;
        int lib = ft.get("lib").get(f).asInt();
        String object = inlined ? "inlined" : lib < 0 ? "[unknown]" : doc.get("libs").get(lib).get("path").asText();
        boolean address = ft.get("nativeSymbol").get(f).isNull() && !inlined;
        return FrameNames.of(address ? null : name, object, java);
    }

    @Test
    void inlinedFramesSitOnTheFunctionTheyAreInlinedInto() throws Exception {
        Profile profile = ProfileFixtures.profile("bpf-dwarf", Compat.NONE);
        JsonNode doc = export(profile);
        JsonNode st = doc.get("shared").get("stackTable");
        JsonNode ft = doc.get("shared").get("frameTable");
        int inlined = 0;
        for (int s = 0; s < st.get("length").asInt(); s++) {
            int f = st.get("frame").get(s).asInt();
            int depth = ft.get("inlineDepth").get(f).asInt();
            if (depth == 0) {
                continue;
            }
            inlined++;
            int parent = st.get("frame").get(s - st.get("prefixOffset").get(s).asInt()).asInt();
            assertEquals(depth - 1, ft.get("inlineDepth").get(parent).asInt());
            assertEquals(ft.get("address").get(parent), ft.get("address").get(f));
            assertEquals(ft.get("nativeSymbol").get(parent), ft.get("nativeSymbol").get(f));
            assertEquals(ft.get("lib").get(parent), ft.get("lib").get(f));
        }
        assertTrue(inlined > 0, "bpf-dwarf has inlined frames");
    }

    /**
     * A program with DWARF: each sampled address of compute_a is a frame of its own, at its
     * address in the object (a return address less one), with its source line; the function
     * has its file and first line, as the profiler's source view wants them.
     */
    @Test
    void framesHaveTheirAddressesAndLines() throws Exception {
        SymbolOptions symbols = SymbolOptions.builder().buildIdDir(BuildIdCacheFixture.dir())
                .perfMapDir(Fixtures.file("perf-maps")).noSystemFiles().build();
        JsonNode doc;
        try (PerfData data = PerfData.open(Fixtures.recording("c-fp"));
             Session session = Session.of(data,
                     SessionOptions.of(symbols))) {
            Profile p = Profile.read(session, Session.DEFAULT_MAX_STACK);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            new FirefoxExport(p, 0, new SourcePositions(p, SessionSources.of(session))).write(out);
            doc = new ObjectMapper().readTree(out.toByteArray());
        }
        assertTrue(schema().validate(doc).isEmpty());
        JsonNode shared = doc.get("shared");
        JsonNode ft = shared.get("frameTable");
        JsonNode funcs = shared.get("funcTable");
        JsonNode strings = shared.get("stringArray");
        Set<Long> addresses = new HashSet<>();
        int computeA = -1;
        for (int f = 0; f < ft.get("length").asInt(); f++) {
            int func = ft.get("func").get(f).asInt();
            if (!strings.get(funcs.get("name").get(func).asInt()).asText().equals("compute_a")) {
                continue;
            }
            computeA = func;
            long address = ft.get("address").get(f).asLong();
            assertTrue(address >= 0x1182 && address < 0x11af, Long.toHexString(address));
            addresses.add(address);
            int line = ft.get("line").get(f).asInt();
            assertTrue(line >= 18 && line <= 23, "line " + line);
        }
        assertTrue(addresses.size() >= 7, "compute_a's addresses: " + addresses);
        assertEquals(18, funcs.get("lineNumber").get(computeA).asInt());
        int source = funcs.get("source").get(computeA).asInt();
        assertEquals("./src/hot.c", strings.get(shared.get("sources").get("filename").get(source).asInt()).asText());
        // main calls work: its frame is the call instruction, one byte before the return address
        for (int f = 0; f < ft.get("length").asInt(); f++) {
            String name = strings.get(funcs.get("name").get(ft.get("func").get(f).asInt()).asInt()).asText();
            if (name.equals("main")) {
                assertTrue(ft.get("line").get(f).asInt() > 0, "main's line");
            }
        }
    }

    @Test
    void execIsAMarkerOnTheThreadItNamed() throws Exception {
        Profile profile = ProfileFixtures.profile("c-fp", Compat.NONE);
        JsonNode doc = export(profile);
        JsonNode strings = doc.get("shared").get("stringArray");
        boolean exec = false;
        for (JsonNode t : doc.get("threads")) {
            JsonNode m = t.get("markers");
            for (int i = 0; i < m.get("length").asInt(); i++) {
                assertEquals("Text", m.get("data").get(i).get("type").asText());
                assertEquals(t.get("name").asText(), strings.get(m.get("data").get(i).get("name").asInt()).asText());
                assertTrue(m.get("startTime").get(i).asDouble() >= 0);
                exec |= strings.get(m.get("name").get(i).asInt()).asText().equals("exec");
            }
        }
        assertTrue(exec, "bin/hot's exec");
        JsonNode hot = doc.get("threads").get(0);
        assertEquals("hot", hot.get("processName").asText());
        assertTrue(hot.get("isMainThread").asBoolean());
        assertEquals("ns", doc.get("meta").get("sampleUnits").get("threadCPUDelta").asText());
    }

    @Test
    void kernelFramesHaveTheirOwnCategory() throws Exception {
        JsonNode doc = export(ProfileFixtures.profile("bpf-sys", Compat.NONE));
        JsonNode categories = doc.get("meta").get("categories");
        JsonNode ft = doc.get("shared").get("frameTable");
        boolean kernel = false;
        boolean user = false;
        for (JsonNode c : ft.get("category")) {
            String name = categories.get(c.asInt()).get("name").asText();
            kernel |= name.equals("Kernel");
            user |= name.equals("User");
        }
        assertTrue(kernel && user, "kernel and user frames");
    }

    @Test
    void libsCarryBreakpadIds() throws Exception {
        JsonNode doc = export(ProfileFixtures.profile("c-fp", Compat.NONE));
        boolean withId = false;
        for (JsonNode lib : doc.get("libs")) {
            if (!lib.get("codeId").isNull()) {
                withId = true;
                byte[] id = java.util.HexFormat.of().parseHex(lib.get("codeId").asText());
                assertEquals(DebugIds.breakpadId(id), lib.get("breakpadId").asText());
            }
        }
        assertTrue(withId);
    }

    /** The ids samply writes for its test library (fxprof-processed-profile's snapshot). */
    @Test
    void debugIdsAsBreakpadDerivesThem() {
        byte[] id = java.util.HexFormat.of().parseHex("510d0a5c19eadf8043f203b4525be9be3dcb9554");
        assertEquals("5C0A0D51EA1980DF43F203B4525BE9BE0", DebugIds.breakpadId(id));
        assertEquals("510d0a5c19eadf8043f203b4525be9be3dcb9554", DebugIds.codeId(id));
        assertEquals("0403020106050807" + "0".repeat(16) + "0", DebugIds.breakpadId(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}));
    }

    @Test
    void millisecondsExactly() {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        TextOut out = new TextOut(b, 256);
        for (long ns : new long[] {0, 1, 1_000_000, 1_001_001, 1_500_000, 123_456_789_012L, -2_000_500}) {
            FirefoxExport.ms(out, ns);
            out.ch(' ');
        }
        out.flush();
        assertEquals("0 0.000001 1 1.001001 1.5 123456.789012 -2.0005 ", b.toString(StandardCharsets.US_ASCII));
    }

    @Test
    void schemaRejectsWhatTheProfilerWouldNot() throws Exception {
        JsonNode doc = export(ProfileFixtures.profile("c-fp", Compat.NONE));
        ((com.fasterxml.jackson.databind.node.ObjectNode) doc.get("shared").get("stackTable")).remove("prefixOffset");
        assertFalse(schema().validate(doc).isEmpty(), "a stack table without prefixes");
    }
}
