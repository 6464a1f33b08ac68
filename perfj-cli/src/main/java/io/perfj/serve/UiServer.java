package io.perfj.serve;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.function.Supplier;

/**
 * The HTTP layer of {@code perfj serve}, on {@link Http1Server} (bounded connections, time
 * limits on request heads and idle connections, the Host header checked before anything else).
 * Every URL starts with the run's random token ({@code /TOKEN/...}, 128 bits from
 * {@link SecureRandom}, compared in constant time); after it come only the names of
 * {@link Assets}' table or {@code api/NAME} with a name of {@link Api#NAMES}. Anything else, a
 * wrong token included, is 404: no part of a URL is ever used as a path. Every response, the
 * server's own refusals included, carries {@link #HEADERS}.
 */
public final class UiServer implements AutoCloseable {
    /** The policy of every response: the page's own scripts, styles and API, nothing else. */
    public static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            + "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    /** The headers of every response, errors included. */
    static final Map<String, String> HEADERS;

    static {
        Map<String, String> h = new LinkedHashMap<>();
        h.put("Content-Security-Policy", CSP);
        h.put("X-Content-Type-Options", "nosniff");
        h.put("Referrer-Policy", "no-referrer");
        h.put("Cache-Control", "no-store");
        h.put("Cross-Origin-Resource-Policy", "same-origin");
        HEADERS = java.util.Collections.unmodifiableMap(h);
    }

    private static final String TEXT = "text/plain; charset=utf-8";

    private final Http1Server server;
    private final byte[] token;
    private final String tokenText;
    /** The answers: one Api for a recording; for perfj top --web, the current snapshot's. */
    private final Supplier<Api> api;
    private final Assets assets = new Assets();
    /** API answers are computed two at a time, however many connections ask. */
    private final Semaphore answering = new Semaphore(2, true);

    private UiServer(Supplier<Api> api, String bind, int port, Http1Server.Limits limits) throws IOException {
        this.api = api;
        byte[] raw = new byte[16];
        new SecureRandom().nextBytes(raw);
        tokenText = HexFormat.of().formatHex(raw);
        token = tokenText.getBytes(StandardCharsets.US_ASCII);
        server = Http1Server.start(new InetSocketAddress(bind, port), bind, limits, HEADERS, this::handle);
    }

    /** Starts serving {@code api} on {@code bind}:{@code port} (0: a free port). */
    public static UiServer start(Api api, String bind, int port) throws IOException {
        return start(() -> api, bind, port);
    }

    /**
     * Starts serving the answers of whichever Api {@code api} gives at each request: a live
     * profile's, replaced as new snapshots are taken (each an Api of its own, so a request is
     * answered from one snapshot).
     */
    public static UiServer start(Supplier<Api> api, String bind, int port) throws IOException {
        return start(api, bind, port, Http1Server.Limits.DEFAULT);
    }

    /** As {@link #start(Supplier, String, int)} with other limits (tests: short time-outs). */
    static UiServer start(Supplier<Api> api, String bind, int port, Http1Server.Limits limits) throws IOException {
        return new UiServer(api, bind, port, limits);
    }

    public int port() {
        return server.port();
    }

    /** The page's address, token included. */
    public String url() {
        return "http://" + HostCheck.literalText(server.address()) + ":" + port() + "/" + tokenText + "/";
    }

    /**
     * The line to print on standard error when the server is reachable from other machines (not
     * bound to a loopback address); null when it is not.
     */
    public String networkWarning() {
        return networkWarning(server.address());
    }

    /** {@link #networkWarning()} for a server bound to {@code bound}. */
    static String networkWarning(InetAddress bound) {
        if (bound.isLoopbackAddress()) {
            return null;
        }
        String where = bound.isAnyLocalAddress() ? "every address of this machine" : HostCheck.literalText(bound);
        return "perfj: warning: listening on " + where + ", not only loopback: anyone on the network who has the "
                + "URL (with its token) can read the profile";
    }

    /** The connections open now (for tests). */
    int connections() {
        return server.connections();
    }

    @Override
    public void close() {
        server.close();
    }

    private Http1Server.Response handle(Http1Server.Request r) {
        String rest = afterToken(r.path());
        if (rest == null) {
            return Http1Server.Response.text(404, "not found\n");
        }
        if (!r.method().equals("GET") && !r.method().equals("HEAD")) {
            return new Http1Server.Response(405, TEXT, "GET or HEAD only\n".getBytes(StandardCharsets.UTF_8),
                    "GET, HEAD");
        }
        Assets.Asset a = assets.get(rest);
        if (a != null) {
            return new Http1Server.Response(200, a.type(), a.bytes(), null);
        }
        if (rest.startsWith("api/") && Api.NAMES.contains(rest.substring(4))) {
            try {
                answering.acquire();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Http1Server.Response.text(503, "stopping\n");
            }
            try {
                String json = api.get().answer(rest.substring(4), query(r.query()));
                return new Http1Server.Response(200, "application/json; charset=utf-8",
                        json.getBytes(StandardCharsets.UTF_8), null);
            } catch (BadRequest e) {
                return Http1Server.Response.text(400, e.getMessage() + "\n");
            } catch (RuntimeException e) {
                return Http1Server.Response.text(500, describe(e) + "\n");
            } finally {
                answering.release();
            }
        }
        return Http1Server.Response.text(404, "not found\n");
    }

    /** The path after {@code /TOKEN/}, or null when it does not start with the token. */
    private String afterToken(String path) {
        if (path == null || path.length() < token.length + 2 || path.charAt(0) != '/'
                || path.charAt(token.length + 1) != '/') {
            return null;
        }
        byte[] given = path.substring(1, token.length + 1).getBytes(StandardCharsets.UTF_8);
        return MessageDigest.isEqual(given, token) ? path.substring(token.length + 2) : null;
    }

    /** The query's parameters; only the API reads them, and only as values. */
    static Map<String, String> query(String raw) {
        Map<String, String> q = new HashMap<>();
        if (raw == null || raw.isEmpty()) {
            return q;
        }
        for (String part : raw.split("&")) {
            int eq = part.indexOf('=');
            String k = eq < 0 ? part : part.substring(0, eq);
            String v = eq < 0 ? "" : part.substring(eq + 1);
            try {
                q.put(URLDecoder.decode(k, StandardCharsets.UTF_8), URLDecoder.decode(v, StandardCharsets.UTF_8));
            } catch (IllegalArgumentException e) {
                throw new BadRequest("bad query encoding");
            }
        }
        return q;
    }

    /** Error text for an unexpected failure. */
    private static String describe(RuntimeException e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
