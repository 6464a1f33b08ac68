package io.perfj.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.perfj.profile.Profile;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** perfj serve over HTTP: the token, the 404s, the headers, and answers checked against Profile and perf report. */
class ServeHttpTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT = HttpClient.newHttpClient();
    private static UiServer server;
    private static UiServer hostile;
    private static UiServer two;

    @BeforeAll
    static void start() throws Exception {
        server = ServeFixtures.start("c-fp");
        hostile = ServeFixtures.start("hostile");
        two = ServeFixtures.start("c-fp", "two-events");
    }

    @AfterAll
    static void stop() {
        server.close();
        hostile.close();
        two.close();
    }

    private static HttpResponse<String> get(String url) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode api(UiServer s, String call) throws Exception {
        HttpResponse<String> r = get(s.url() + "api/" + call);
        assertEquals(200, r.statusCode(), call + ": " + r.body());
        assertEquals("application/json; charset=utf-8", r.headers().firstValue("content-type").orElse(""));
        return JSON.readTree(r.body());
    }

    /** A request written byte for byte (an HTTP client would normalise dot segments first). */
    private static String[] raw(UiServer s, String method, String path) throws Exception {
        try (Socket sock = new Socket("127.0.0.1", s.port())) {
            OutputStream o = sock.getOutputStream();
            o.write((method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + s.port() + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            o.flush();
            InputStream in = sock.getInputStream();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            in.transferTo(all);
            String text = all.toString(StandardCharsets.ISO_8859_1);
            return new String[] {text.substring(9, 12), text};
        }
    }

    @Test
    void everyUrlNeedsTheToken() throws Exception {
        String origin = "http://127.0.0.1:" + server.port();
        String t = ServeFixtures.token(server);
        assertTrue(t.matches("[0-9a-f]{32}"), "128 random bits: " + t);
        for (String p : new String[] {"/", "/api/meta", "/api/flame", "/app.js", "/index.html", "/style.css",
                "/" + t, "/" + t.substring(1) + "x/api/meta", "/" + t.toUpperCase(Locale.ROOT) + "/api/meta",
                "/" + "0".repeat(32) + "/api/meta", "/" + t + "x/api/meta", "/api/" + t + "/meta"}) {
            HttpResponse<String> r = get(origin + p);
            assertEquals(404, r.statusCode(), p);
            assertEquals(UiServer.CSP, r.headers().firstValue("content-security-policy").orElse(null), p);
        }
        assertEquals(200, get(server.url() + "api/meta").statusCode());
        assertFalse(ServeFixtures.token(server).equals(ServeFixtures.token(hostile)), "a token per server");
    }

    @Test
    void traversalAndUnknownNamesAreNotFound() throws Exception {
        String t = "/" + ServeFixtures.token(server) + "/";
        String recording = Fixtures.recording("c-fp").toAbsolutePath().toString();
        String[] paths = {t + "../../../../etc/passwd", t + "..%2f..%2f..%2fetc%2fpasswd", t + "%2e%2e/%2e%2e/etc/passwd",
                t + "%2E%2E%2F%2E%2E%2Fetc%2Fpasswd", t + "/etc/passwd", t + "etc/passwd", t + recording.substring(1),
                t + "." + recording, t + URLEncoder.encode(recording, StandardCharsets.UTF_8), t + "app.js/../../x",
                t + "./app.js", t + "app.js%00", t + "api/../app.js", t + "api/meta/..", t + "api/", t + "api/x",
                t + "index.html", t + "App.js", t + "api/meta%3F", "/../" + ServeFixtures.token(server) + "/api/meta",
                "/%2e%2e/" + ServeFixtures.token(server) + "/api/meta", t + "fixtures/c-fp.data", t + "c-fp.data"};
        for (String p : paths) {
            String[] r = raw(server, "GET", p);
            assertEquals("404", r[0], p + "\n" + r[1]);
            assertTrue(r[1].toLowerCase(Locale.ROOT).contains("content-security-policy: " + UiServer.CSP.toLowerCase(Locale.ROOT)), p);
            assertFalse(r[1].contains("root:"), p);
        }
        assertEquals("405", raw(server, "POST", t + "api/meta")[0]);
        assertEquals("200", raw(server, "GET", t + "app.js")[0]);
        assertEquals("404", raw(server, "POST", "/x/api/meta")[0], "without the token, not even the method is told");
    }

    @Test
    void everyResponseHasThePolicyAndItsType() throws Exception {
        Map<String, String> types = new HashMap<>();
        types.put("", "text/html; charset=utf-8");
        types.put("app.js", "text/javascript; charset=utf-8");
        types.put("flame.js", "text/javascript; charset=utf-8");
        types.put("style.css", "text/css; charset=utf-8");
        types.put("api/meta", "application/json; charset=utf-8");
        types.put("api/flame?root=999999999", "text/plain; charset=utf-8");
        types.put("api/butterfly?fn=abc", "text/plain; charset=utf-8");
        types.put("nothing", "text/plain; charset=utf-8");
        for (Map.Entry<String, String> e : types.entrySet()) {
            HttpResponse<String> r = get(server.url() + e.getKey());
            assertEquals(UiServer.CSP, r.headers().firstValue("content-security-policy").orElse(null), e.getKey());
            assertEquals("nosniff", r.headers().firstValue("x-content-type-options").orElse(null), e.getKey());
            assertEquals(e.getValue(), r.headers().firstValue("content-type").orElse(null), e.getKey());
        }
        assertEquals(400, get(server.url() + "api/flame?root=999999999").statusCode());
        String html = get(server.url()).body();
        assertFalse(Pattern.compile("<script(?![^>]*\\bsrc=)[^>]*>", Pattern.CASE_INSENSITIVE).matcher(html).find(),
                "no inline script");
        assertFalse(html.contains("style=") || html.contains("<style"), "no inline style");
    }

    @Test
    void flameRootIsTheSelectedSamplesWeight() throws Exception {
        Recording rec = ServeFixtures.recording("c-fp");
        Profile p = rec.profile();
        long all = 0;
        for (int i = 0; i < p.sampleCount(); i++) {
            all += p.weight(i);
        }
        JsonNode f = api(server, "flame?min=0");
        assertEquals(all, f.get("total").asLong());
        assertEquals(all, f.get("nodes").get("total").get(0).asLong());
        assertEquals(0.0, f.get("pruned").asDouble());
        // the second half of the recording, by time
        long half = rec.duration() / 2;
        long later = 0;
        for (int i = 0; i < p.sampleCount(); i++) {
            if (p.time(i) - rec.firstTime() >= half) {
                later += p.weight(i);
            }
        }
        assertTrue(later > 0 && later < all);
        assertEquals(later, api(server, "flame?from=" + half).get("total").asLong());
        // one CPU
        int cpu = p.cpu(0);
        long onCpu = 0;
        for (int i = 0; i < p.sampleCount(); i++) {
            if (p.cpu(i) == cpu) {
                onCpu += p.weight(i);
            }
        }
        assertEquals(onCpu, api(server, "flame?cpu=" + cpu).get("total").asLong());
        assertEquals(0, api(server, "flame?comm=nosuch").get("total").asLong());
        // pruning: a large minimum share leaves out what is under it, and says how much
        JsonNode pruned = api(server, "flame?min=0.5");
        JsonNode nodes = pruned.get("nodes");
        int n = nodes.get("id").size();
        long[] keptChildren = new long[n];
        for (int i = 1; i < n; i++) {
            keptChildren[nodes.get("parent").get(i).asInt()] += nodes.get("total").get(i).asLong();
        }
        double left = 0;
        for (int i = 0; i < n; i++) {
            long t = nodes.get("total").get(i).asLong();
            assertTrue(i == 0 || t * 2 >= all, "only nodes of half the weight or more");
            left += t - nodes.get("self").get(i).asLong() - keptChildren[i];
        }
        assertEquals(left / all, pruned.get("pruned").asDouble(), 1e-5);
    }

    @Test
    void zoomGivesTheSubtreeAndItsPath() throws Exception {
        JsonNode f = api(server, "flame?min=0");
        JsonNode nodes = f.get("nodes");
        int deepest = 0;
        for (int i = 0; i < nodes.get("id").size(); i++) {
            if (nodes.get("total").get(i).asLong() * 2 > f.get("total").asLong()) {
                deepest = i;
            }
        }
        int id = nodes.get("id").get(deepest).asInt();
        JsonNode z = api(server, "flame?min=0&root=" + id);
        assertEquals(id, z.get("root").asInt());
        assertEquals(nodes.get("total").get(deepest).asLong(), z.get("nodes").get("total").get(0).asLong());
        JsonNode path = z.get("path");
        assertTrue(path.size() >= 2, path.toString());
        assertEquals(id, path.get(path.size() - 1).get("node").asInt());
    }

    /** Self share per (object, symbol) as perf report --no-children printed it for c-fp.data. */
    @Test
    void topFunctionsSelfShareIsWhatPerfReportPrints() throws Exception {
        JsonNode top = api(server, "top?limit=1000");
        Map<String, Long> self = new HashMap<>();
        Map<Integer, String[]> names = new HashMap<>();
        for (JsonNode fn : top.get("fns")) {
            names.put(fn.get(0).asInt(), new String[] {fn.get(1).asText(), fn.get(2).asText()});
        }
        for (JsonNode row : top.get("rows")) {
            String[] n = names.get(row.get("fn").asInt());
            self.merge(n[1] + " " + n[0], row.get("self").asLong(), Long::sum);
        }
        long total = top.get("total").asLong();
        String golden = Files.readString(Fixtures.goldenFile("c-fp.report-nochildren-comm-dso-sym.txt"));
        Matcher m = Pattern.compile("(?m)^ +([0-9.]+)%  hot +(\\S+) +\\[.\\] (\\S+)").matcher(golden);
        int rows = 0;
        while (m.find()) {
            rows++;
            Long s = self.get(m.group(2) + " " + m.group(3));
            assertNotNull(s, m.group(0) + " in " + self);
            assertEquals(m.group(1), String.format(Locale.ROOT, "%.2f", 100.0 * s / total), m.group(0));
        }
        assertEquals(7, rows);
        JsonNode byTotal = api(server, "top?sort=total").get("rows");
        for (int i = 1; i < byTotal.size(); i++) {
            assertTrue(byTotal.get(i - 1).get("total").asLong() >= byTotal.get(i).get("total").asLong());
        }
        assertEquals("__libc_start_call_main", nameOf(api(server, "top?sort=total"), byTotal.get(0).get("fn").asInt()));
    }

    @Test
    void searchSharesAndButterfly() throws Exception {
        Recording rec = ServeFixtures.recording("c-fp");
        Profile p = rec.profile();
        long match = 0;
        long all = 0;
        for (int i = 0; i < p.sampleCount(); i++) {
            all += p.weight(i);
            for (int s = p.stack(i); s >= 0; s = p.stacks().parent(s)) {
                var f = p.frames().get(p.stacks().frame(s));
                if (f.sym() != null && f.sym().name().toLowerCase(Locale.ROOT).contains("compute")) {
                    match += p.weight(i);
                    break;
                }
            }
        }
        JsonNode s = api(server, "search?q=COMPUTE");
        assertEquals(match, s.get("matched").asLong());
        assertEquals((double) match / all, s.get("share").asDouble(), 1e-6);
        assertEquals(2, s.get("functions").asInt(), s.toString());
        assertEquals(0, api(server, "search?q=" + URLEncoder.encode("no such thing", StandardCharsets.UTF_8)).get("matched").asLong());
        int work = -1;
        for (JsonNode fn : api(server, "top?limit=1000").get("fns")) {
            if (fn.get(1).asText().equals("work")) {
                work = fn.get(0).asInt();
            }
        }
        JsonNode b = api(server, "butterfly?fn=" + work);
        assertEquals("main", nameOf(b, b.get("callers").get(0).get("fn").asInt()));
        assertEquals(b.get("total").asLong(), b.get("callers").get(0).get("weight").asLong());
        long callees = 0;
        for (JsonNode c : b.get("callees")) {
            callees += c.get("weight").asLong();
        }
        assertEquals(b.get("total").asLong() - b.get("self").asLong(), callees, "no recursion in work");
        JsonNode tree = api(server, "calltree");
        assertTrue(tree.get("children").size() >= 1);
        assertEquals(all, tree.get("total").asLong());
    }

    private static String nameOf(JsonNode answer, int fn) {
        for (JsonNode f : answer.get("fns")) {
            if (f.get(0).asInt() == fn) {
                return f.get(1).asText();
            }
        }
        return null;
    }

    @Test
    void metaAndTimeline() throws Exception {
        Profile p = ServeFixtures.recording("c-fp").profile();
        JsonNode meta = api(server, "meta").get("recordings").get(0);
        assertEquals(p.sampleCount(), meta.get("samples").asInt());
        assertEquals("cpu-clock", meta.get("events").get(0).get("name").asText());
        long threads = 0;
        for (JsonNode t : meta.get("threads")) {
            threads += t.get("samples").asLong();
        }
        assertEquals(p.sampleCount(), threads);
        for (String by : new String[] {"thread", "cpu"}) {
            JsonNode tl = api(server, "timeline?buckets=50&by=" + by);
            long sum = 0;
            for (JsonNode lane : tl.get("lanes")) {
                assertEquals(50, lane.get("counts").size());
                for (JsonNode c : lane.get("counts")) {
                    sum += c.asLong();
                }
            }
            assertEquals(p.sampleCount(), sum, by);
        }
    }

    @Test
    void diffOfTwoRecordings() throws Exception {
        JsonNode d = api(two, "diff?min=0");
        Profile a = ServeFixtures.recording("c-fp").profile();
        long wa = 0;
        for (int i = 0; i < a.sampleCount(); i++) {
            wa += a.weight(i);
        }
        assertEquals(wa, d.get("total").asLong());
        assertTrue(d.get("total2").asLong() > 0);
        assertEquals(d.get("total2").asLong(), d.get("nodes").get("total2").get(0).asLong());
        JsonNode changed = api(two, "diffchanged");
        assertTrue(changed.get("rows").size() > 0);
        assertEquals(400, get(server.url() + "api/diff").statusCode(), "one recording: no diff");
    }

    @Test
    void annotateABpfProgramWithItsBtfLines() throws Exception {
        try (UiServer bpf = ServeFixtures.start("bpf-sys")) {
            int fn = -1;
            for (JsonNode f : api(bpf, "top?limit=1000").get("fns")) {
                if (f.get(1).asText().endsWith("_perfj_mix")) {
                    fn = f.get(0).asInt();
                }
            }
            assertTrue(fn >= 0);
            JsonNode a = api(bpf, "annotate?fn=" + fn).get("annotations");
            assertEquals(1, a.size(), a.toString());
            boolean source = false;
            double sum = 0;
            for (JsonNode line : a.get(0).get("lines")) {
                if (line.get("offset").isNull()) {
                    source |= line.get("text").asText().contains("x = (x ^ (x >> 13))");
                } else {
                    sum += line.get("percent").asDouble();
                }
            }
            assertTrue(source, "BTF source lines");
            assertEquals(100.0, sum, 0.01);
        }
    }

    /** Every view of every committed recording answers, its flame root the default event's weight. */
    @Test
    void everyRecordingAnswersEveryView() {
        java.util.List<String> names = new java.util.ArrayList<>(Fixtures.RECORDINGS);
        names.add("hostile");
        for (String name : names) {
            Recording rec = ServeFixtures.recording(name);
            Profile p = rec.profile();
            Api api = new Api(rec);
            int ev = Math.max(0, p.firstSampled(null));
            long w = 0;
            for (int i = 0; i < p.sampleCount(); i++) {
                if (p.event(i) == ev) {
                    w += p.weight(i);
                }
            }
            try {
                assertEquals(w, JSON.readTree(api.answer("flame", Map.of())).get("total").asLong(), name);
                for (String call : new String[] {"meta", "top", "calltree", "timeline", "search"}) {
                    JsonNode a = JSON.readTree(api.answer(call, call.equals("search") ? Map.of("q", "a") : Map.of()));
                    assertTrue(a.isObject(), name + " " + call);
                }
                JsonNode top = JSON.readTree(api.answer("top", Map.of()));
                if (top.get("rows").size() > 0) {
                    String fn = top.get("rows").get(0).get("fn").asText();
                    assertTrue(JSON.readTree(api.answer("butterfly", Map.of("fn", fn))).get("total").asLong() > 0, name);
                    // a position, or the reason there is none
                    JsonNode src = JSON.readTree(api.answer("source", Map.of("fn", fn)));
                    assertTrue(src.get("file").isTextual() || !src.get("reason").asText().isEmpty(), name + " " + src);
                }
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }

    /** --event's choice is what a selection without an event shows (and meta names). */
    @Test
    void theDefaultEventIsTheOneAskedFor() throws Exception {
        Recording two = ServeFixtures.recording("two-events");
        Profile p = two.profile();
        int second = p.firstSampled(null) == 0 ? 1 : 0;
        Recording rec = new Recording("two-events.data", two.path(), p, two.options(), second);
        long w = 0;
        for (int i = 0; i < p.sampleCount(); i++) {
            if (p.event(i) == second) {
                w += p.weight(i);
            }
        }
        Api api = new Api(rec);
        assertEquals(w, JSON.readTree(api.answer("flame", Map.of())).get("total").asLong());
        assertEquals(second, JSON.readTree(api.answer("meta", Map.of())).get("recordings").get(0).get("defaultEvent").asInt());
        assertTrue(w > 0, "both events were sampled");
    }

    @Test
    void hostileNamesComeThroughAsTextInEscapedJson() throws Exception {
        HttpResponse<String> r = get(hostile.url() + "api/flame?min=0");
        assertFalse(r.body().contains("<") || r.body().contains(">"), "angle brackets escaped in JSON text");
        JsonNode f = JSON.readTree(r.body());
        boolean jit = false;
        for (JsonNode fn : f.get("fns")) {
            jit |= fn.get(1).asText().equals("</script><img src=x onerror=alert(1)>");
        }
        assertTrue(jit, f.get("fns").toString());
        JsonNode meta = api(hostile, "meta").get("recordings").get(0);
        assertEquals("<svg/onload=1>", meta.get("threads").get(0).get("comm").asText());
        // perf's own report names the same function and command
        String golden = Files.readString(Fixtures.goldenFile("hostile.report.txt"));
        assertTrue(golden.contains("<svg/onload=1>  [JIT] tid") && golden.contains("[.] </script><img src=x onerror=alert(1)>"));
    }
}
