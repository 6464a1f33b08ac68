package io.perfj.serve;

import io.perfj.cli.Main;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The server's defences: stalled and surplus connections, request heads that are malformed, too
 * large or too slow, idle keep-alive connections, the Host check, perfj's headers on every
 * response, and the warning for a server reachable from the network.
 */
class ServeConnectionsTest {
    /** Generous: the machine running the tests may be loaded. */
    private static final int PATIENCE_MS = 30_000;
    private static String hostLine(UiServer s) {
        return "Host: 127.0.0.1:" + s.port() + "\r\n";
    }

    /** A server over c-fp with the usual limits. */
    private static UiServer start() throws IOException {
        return start(Http1Server.Limits.DEFAULT);
    }

    /** A server over c-fp with these limits. */
    private static UiServer start(Http1Server.Limits limits) throws IOException {
        Api api = new Api(ServeFixtures.recording("c-fp"));
        return UiServer.start(() -> api, "127.0.0.1", 0, limits);
    }

    private static Socket connect(UiServer s) throws IOException {
        Socket sock = new Socket();
        sock.connect(new InetSocketAddress("127.0.0.1", s.port()), PATIENCE_MS);
        sock.setSoTimeout(PATIENCE_MS);
        return sock;
    }

    private static void send(Socket sock, String text) throws IOException {
        sock.getOutputStream().write(text.getBytes(StandardCharsets.ISO_8859_1));
        sock.getOutputStream().flush();
    }

    /** Sends {@code request} on a new connection and returns all that comes back until the server closes it. */
    private static String exchange(UiServer s, String request) throws IOException {
        try (Socket sock = connect(s)) {
            send(sock, request);
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            sock.getInputStream().transferTo(all);
            return all.toString(StandardCharsets.ISO_8859_1);
        }
    }

    /** One response read off a kept connection: {status, head, body}. */
    private static String[] response(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed in a response head: " + head);
            }
            head.write(b);
        }
        String h = head.toString(StandardCharsets.ISO_8859_1);
        int length = Integer.parseInt(header(h, "content-length"));
        byte[] body = in.readNBytes(length);
        assertEquals(length, body.length, h);
        return new String[] {h.substring(9, 12), h, new String(body, StandardCharsets.UTF_8)};
    }

    /** A header's value in a response head (name in lower case), null when absent. */
    private static String header(String head, String name) {
        for (String line : head.split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).toLowerCase(Locale.ROOT).equals(name)) {
                return line.substring(colon + 1).trim();
            }
        }
        return null;
    }

    /** The status of a whole response text, after checking that it carries every one of perfj's headers. */
    private static String statusWithHeaders(String response, String what) {
        assertTrue(response.startsWith("HTTP/1.1 "), what + ": " + response);
        String head = response.substring(0, Math.max(0, response.indexOf("\r\n\r\n")));
        for (Map.Entry<String, String> e : UiServer.HEADERS.entrySet()) {
            assertEquals(e.getValue(), header(head, e.getKey().toLowerCase(Locale.ROOT)), what + ": " + e.getKey());
        }
        return response.substring(9, 12);
    }

    /** A GET of {@code path} on the server, with header lines {@code extra}, that closes the connection. */
    private static String get(UiServer s, String path, String extra) {
        return "GET " + path + " HTTP/1.1\r\n" + hostLine(s) + extra + "Connection: close\r\n\r\n";
    }

    /** A GET of {@code target} with this Host, that closes the connection. */
    private static String getAt(String target, String hostValue) {
        return "GET " + target + " HTTP/1.1\r\nHost: " + hostValue + "\r\nConnection: close\r\n\r\n";
    }

    /** Waits (up to PATIENCE_MS) until the server's {@code value} is {@code expected}, looking every 2 ms. */
    private static void await(IntSupplier value, int expected, String what) throws InterruptedException {
        long until = System.nanoTime() + PATIENCE_MS * 1_000_000L;
        while (value.getAsInt() != expected) {
            assertTrue(System.nanoTime() < until, what + ": " + value.getAsInt() + ", not " + expected);
            Thread.sleep(2);
        }
    }

    @Test
    void stalledConnectionsDoNotStopANormalRequest() throws Exception {
        try (UiServer server = start()) {
            String host = hostLine(server);
            String token = ServeFixtures.token(server);
            String meta = get(server, "/" + token + "/api/meta", "");
            assertEquals("200", statusWithHeaders(exchange(server, meta), "warm-up"));
            List<Socket> stalled = new ArrayList<>();
            try {
                for (int i = 0; i < 3; i++) {
                    // nothing at all
                    stalled.add(connect(server));
                    // half a request line
                    Socket s = connect(server);
                    send(s, "GET /" + token.substring(0, 10));
                    stalled.add(s);
                    // the request line and half the headers
                    s = connect(server);
                    send(s, "GET /" + token + "/api/meta HTTP/1.1\r\n" + host + "User-Agent: sl");
                    stalled.add(s);
                    // requests for far more than the socket buffers hold, never read
                    s = new Socket();
                    s.setReceiveBufferSize(4096);
                    s.connect(new InetSocketAddress("127.0.0.1", server.port()), PATIENCE_MS);
                    send(s, ("GET /" + token + "/app.js HTTP/1.1\r\n" + host + "\r\n").repeat(400));
                    stalled.add(s);
                }
                await(server::connections, stalled.size(), "connections open");
                long t0 = System.nanoTime();
                String r = exchange(server, meta);
                long ms = (System.nanoTime() - t0) / 1_000_000;
                assertEquals("200", statusWithHeaders(r, "beside stalled connections"));
                assertTrue(r.contains("\"recordings\""), r);
                assertTrue(ms < 1000, "answered in " + ms + " ms beside " + stalled.size() + " stalled connections");
            } finally {
                for (Socket s : stalled) {
                    s.close();
                }
            }
        }
    }

    @Test
    void malformedRequestsAre400WithPerfjsHeaders() throws Exception {
        try (UiServer server = start()) {
            String host = hostLine(server);
            String token = ServeFixtures.token(server);
            String line = "GET /" + token + "/api/meta HTTP/1.1\r\n";
            Map<String, String> cases = Map.ofEntries(
                    Map.entry("GARBAGE\r\n\r\n", "400"),
                    Map.entry("GET /" + token + "/api/meta\r\n" + host + "\r\n", "400"),
                    Map.entry("GET  /" + token + "/api/meta HTTP/1.1\r\n" + host + "\r\n", "400"),
                    Map.entry("GET /" + token + "/api/meta HTTP/1.1 \r\n" + host + "\r\n", "400"),
                    Map.entry("GET /" + token + "/api/meta HTTQ/1.1\r\n" + host + "\r\n", "400"),
                    Map.entry("GET " + token + "/api/meta HTTP/1.1\r\n" + host + "\r\n", "400"),
                    Map.entry("G(T /" + token + "/api/meta HTTP/1.1\r\n" + host + "\r\n", "400"),
                    Map.entry(line + "Host 127.0.0.1:" + server.port() + "\r\n\r\n", "400"),
                    Map.entry(line + host + "X-A : b\r\n\r\n", "400"),
                    Map.entry(line + host + "X-A: b\r\n folded\r\n\r\n", "400"),
                    Map.entry(line + host + "X-A: b\rc\r\n\r\n", "400"),
                    Map.entry(line + host + "X-A: b\0c\r\n\r\n", "400"),
                    Map.entry(line + "\r\n", "400"),
                    Map.entry(line + "Host:\r\n\r\n", "400"),
                    Map.entry(line + host + host + "\r\n", "400"),
                    Map.entry(line + host + "Content-Length: abc\r\n\r\n", "400"),
                    Map.entry(line + host + "Content-Length: 1\r\nContent-Length: 2\r\n\r\n", "400"),
                    Map.entry(line + host + "Content-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n", "400"),
                    Map.entry("GET /" + token + "/api/meta HTTP/2.0\r\n" + host + "\r\n", "505"));
            for (Map.Entry<String, String> c : cases.entrySet()) {
                String r = exchange(server, c.getKey());
                assertEquals(c.getValue(), statusWithHeaders(r, c.getKey()), c.getKey() + "\n" + r);
                assertFalse(r.contains("\"recordings\""), c.getKey());
            }
            // and the handler's own errors
            assertEquals("404", statusWithHeaders(exchange(server, get(server, "/", "")), "404"));
            String r = exchange(server, "POST /" + token + "/api/meta HTTP/1.1\r\n" + host
                    + "Content-Length: 3\r\n\r\nabc");
            assertEquals("405", statusWithHeaders(r, "405"));
            assertEquals("GET, HEAD", header(r, "allow"));
            r = exchange(server, get(server, "/" + token + "/api/flame?root=999999999", ""));
            assertEquals("400", statusWithHeaders(r, "the API's 400"));
            try (UiServer broken = UiServer.start(() -> {
                throw new IllegalStateException("no snapshot");
            }, "127.0.0.1", 0)) {
                String b = exchange(broken, get(broken, URI.create(broken.url()).getPath() + "api/meta", ""));
                assertEquals("500", statusWithHeaders(b, "500"), b);
            }
        }
    }

    @Test
    void headAnswersWithoutTheBody() throws Exception {
        try (UiServer server = start()) {
            String host = hostLine(server);
            String token = ServeFixtures.token(server);
            String r = exchange(server, "HEAD /" + token + "/app.js HTTP/1.1\r\n" + host + "Connection: close\r\n\r\n");
            assertEquals("200", statusWithHeaders(r, "HEAD"));
            assertTrue(Integer.parseInt(header(r, "content-length")) > 1000, r);
            assertTrue(r.endsWith("\r\n\r\n"), "no body: " + r.length() + " bytes");
        }
    }

    @Test
    void oversizeHeadsAreRefused() throws Exception {
        try (UiServer server = start()) {
            String token = ServeFixtures.token(server);
            String r = exchange(server, get(server, "/" + token + "/" + "a".repeat(9000), ""));
            assertEquals("414", statusWithHeaders(r, "long request line"));
            r = exchange(server, get(server, "/" + token + "/api/meta", "X-Big: " + "b".repeat(40_000) + "\r\n"));
            assertEquals("431", statusWithHeaders(r, "long header field"));
            r = exchange(server, get(server, "/" + token + "/api/meta", "X-Many: 1\r\n".repeat(200)));
            assertEquals("431", statusWithHeaders(r, "many header fields"));
            // a browser's head, cookies included, is well within
            r = exchange(server, get(server, "/" + token + "/api/meta", "Cookie: " + "c=1; ".repeat(1000) + "\r\n"));
            assertEquals("200", statusWithHeaders(r, "6 kB of cookies"));
        }
    }

    @Test
    void theHostMustNameThisServer() throws Exception {
        try (UiServer server = start()) {
            String token = ServeFixtures.token(server);
            int p = server.port();
            String path = "/" + token + "/api/meta";
            for (String ok : new String[] {"127.0.0.1:" + p, "localhost:" + p, "LocalHost:" + p}) {
                String r = exchange(server, getAt(path, ok));
                assertEquals("200", statusWithHeaders(r, ok), r);
            }
            for (String bad : new String[] {"evil.example:" + p, "evil.example", "127.0.0.1", "127.0.0.1:" + (p + 1),
                    "[::1]:" + p, "localhost.:" + p, "127.0.0.1:" + p + "x", "127.0.0.1:" + p + "@evil.example"}) {
                for (String where : new String[] {path, "/" + "0".repeat(32) + "/api/meta"}) {
                    String r = exchange(server, getAt(where, bad));
                    assertEquals("421", statusWithHeaders(r, bad), bad + " " + where + "\n" + r);
                    assertFalse(r.contains("\"recordings\""), bad);
                }
            }
            // an absolute-form target's authority is the one checked
            String r = exchange(server, get(server, "http://evil.example:" + p + path, ""));
            assertEquals("421", statusWithHeaders(r, "absolute-form"));
            r = exchange(server, getAt("http://127.0.0.1:" + p + path, "evil.example"));
            assertEquals("200", statusWithHeaders(r, "absolute-form"));
            // HTTP/1.0 may leave the Host out; the connection ends after the answer
            r = exchange(server, "GET " + path + " HTTP/1.0\r\n\r\n");
            assertEquals("200", statusWithHeaders(r, "HTTP/1.0"));
            assertEquals("close", header(r, "connection"));
        }
    }

    @Test
    void hostsAcceptedForEachKindOfAddress() {
        HostCheck v6 = new HostCheck(InetAddress.ofLiteral("::1"), 8080, "::1");
        assertTrue(v6.allows("[::1]:8080") && v6.allows("[0:0:0:0:0:0:0:1]:8080") && v6.allows("localhost:8080"));
        assertFalse(v6.allows("127.0.0.1:8080") || v6.allows("[::1]:8081") || v6.allows("::1:8080"));
        HostCheck any = new HostCheck(InetAddress.ofLiteral("0.0.0.0"), 8080, "0.0.0.0");
        assertTrue(any.allows("192.0.2.7:8080") && any.allows("[2001:db8::1]:8080") && any.allows("localhost:8080"));
        assertFalse(any.allows("evil.example:8080") || any.allows("192.0.2.7:80") || any.allows("[192.0.2.7]:8080"));
        HostCheck one = new HostCheck(InetAddress.ofLiteral("192.0.2.7"), 80, "perf-box.example");
        assertTrue(one.allows("192.0.2.7") && one.allows("192.0.2.7:80") && one.allows("PERF-BOX.example:80"));
        assertFalse(one.allows("localhost") || one.allows("192.0.2.8") || one.allows("evil.example"));
    }

    @Test
    void surplusConnectionsAreRefusedUntilOthersEnd() throws Exception {
        try (UiServer s = start(new Http1Server.Limits(4, 5_000, 30_000, 30_000, 8 << 10, 32 << 10, 100))) {
            String meta = "GET " + URI.create(s.url()).getPath() + "api/meta HTTP/1.1\r\n" + hostLine(s)
                    + "Connection: close\r\n\r\n";
            List<Socket> silent = new ArrayList<>();
            try {
                for (int i = 0; i < 4; i++) {
                    silent.add(connect(s));
                }
                await(s::connections, 4, "connections open");
                String r = exchange(s, meta);
                assertEquals("503", statusWithHeaders(r, "over the limit"), r);
                // two close: their places are free at once
                silent.remove(0).close();
                silent.remove(0).close();
                await(s::connections, 2, "connections open after two closed");
                assertEquals("200", statusWithHeaders(exchange(s, meta), "after two closed"));
                // the others are closed at the head time-out, without an answer
                for (Socket k : silent) {
                    assertEquals(-1, k.getInputStream().read(), "closed at the head time-out");
                }
                await(s::connections, 0, "connections open after the time-out");
                assertEquals("200", statusWithHeaders(exchange(s, meta), "after the time-out"));
            } finally {
                for (Socket k : silent) {
                    k.close();
                }
            }
        }
    }

    @Test
    void slowHeadIs408AndIdleConnectionsClose() throws Exception {
        try (UiServer s = start(new Http1Server.Limits(8, 1_000, 1_500, 30_000, 8 << 10, 32 << 10, 100))) {
            String h = hostLine(s);
            String path = URI.create(s.url()).getPath();
            try (Socket sock = connect(s)) {
                long t0 = System.nanoTime();
                send(sock, "GET " + path + "api/meta HTTP/1.1\r\n" + h + "X-Half: ");
                ByteArrayOutputStream all = new ByteArrayOutputStream();
                sock.getInputStream().transferTo(all);
                long ms = (System.nanoTime() - t0) / 1_000_000;
                assertEquals("408", statusWithHeaders(all.toString(StandardCharsets.ISO_8859_1), "slow head"));
                assertTrue(ms >= 500, "408 after " + ms + " ms");
            }
            try (Socket sock = connect(s)) {
                InputStream in = sock.getInputStream();
                // kept alive between requests that come in time
                for (String name : new String[] {"api/meta", "app.js", "api/meta"}) {
                    send(sock, "GET " + path + name + " HTTP/1.1\r\n" + h + "\r\n");
                    String[] r = response(in);
                    assertEquals("200", r[0], name + "\n" + r[1]);
                    assertNull(header(r[1], "connection"), r[1]);
                }
                long t0 = System.nanoTime();
                assertEquals(-1, in.read(), "closed when idle");
                long ms = (System.nanoTime() - t0) / 1_000_000;
                assertTrue(ms >= 1_000, "closed after " + ms + " ms idle");
            }
            await(s::connections, 0, "connections open");
        }
    }

    @Test
    void aNonLoopbackAddressIsWarnedOf() throws Exception {
        assertNull(UiServer.networkWarning(InetAddress.ofLiteral("127.0.0.1")));
        assertNull(UiServer.networkWarning(InetAddress.ofLiteral("127.0.0.2")));
        assertNull(UiServer.networkWarning(InetAddress.ofLiteral("::1")));
        String any = UiServer.networkWarning(InetAddress.ofLiteral("0.0.0.0"));
        assertNotNull(any);
        assertTrue(any.contains("every address") && any.contains("anyone on the network who has the URL"), any);
        String one = UiServer.networkWarning(InetAddress.ofLiteral("192.0.2.7"));
        assertTrue(one.contains("192.0.2.7") && one.contains("anyone on the network"), one);
        String v6 = UiServer.networkWarning(InetAddress.ofLiteral("::"));
        assertTrue(v6.contains("every address"), v6);
        // as perfj serve prints it
        String file = Fixtures.recording("c-fp").toString();
        assertTrue(serveErr(file, "--bind", "0.0.0.0").contains(any), "0.0.0.0 warned of");
        assertFalse(serveErr(file).contains("warning: listening"), "loopback not warned of");
    }

    /** perfj serve's standard error when it starts and stops at once. */
    private static String serveErr(String file, String... more) {
        List<String> args = new ArrayList<>(List.of("serve", "-i", file, "--exit-after-start"));
        args.addAll(List.of(more));
        StringWriter err = new StringWriter();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertEquals(0, Main.execute(args.toArray(String[]::new), out, new PrintWriter(err, true)), err.toString());
        assertTrue(out.toString(StandardCharsets.UTF_8).startsWith("http://"), out.toString(StandardCharsets.UTF_8));
        return err.toString();
    }
}
