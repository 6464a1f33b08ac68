package io.perfj.serve;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The HTTP layer of {@code perfj serve}, on the JDK's own server. Every URL starts with the
 * run's random token ({@code /TOKEN/...}, 128 bits from {@link SecureRandom}, compared in
 * constant time); after it come only the names of {@link Assets}' table or {@code api/NAME} with
 * a name of {@link Api#NAMES}. Anything else, a wrong token included, is 404: no part of a URL
 * is ever used as a path. Every response carries the page's Content-Security-Policy.
 */
public final class UiServer implements AutoCloseable {
    /** The policy of every response: the page's own scripts, styles and API, nothing else. */
    public static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            + "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    private final HttpServer server;
    private final ExecutorService pool;
    private final byte[] token;
    private final String tokenText;
    /** The answers: one Api for a recording; for perfj top --web, the current snapshot's. */
    private final java.util.function.Supplier<Api> api;
    private final Assets assets = new Assets();

    private UiServer(HttpServer server, java.util.function.Supplier<Api> api) {
        this.server = server;
        this.api = api;
        byte[] raw = new byte[16];
        new SecureRandom().nextBytes(raw);
        tokenText = HexFormat.of().formatHex(raw);
        token = tokenText.getBytes(StandardCharsets.US_ASCII);
        pool = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "perfj-serve");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(pool);
        server.createContext("/", this::handle);
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
    public static UiServer start(java.util.function.Supplier<Api> api, String bind, int port) throws IOException {
        HttpServer s = HttpServer.create(new InetSocketAddress(bind, port), 64);
        UiServer ui = new UiServer(s, api);
        s.start();
        return ui;
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** The page's address, token included. */
    public String url() {
        String host = server.getAddress().getAddress().getHostAddress();
        if (host.contains(":")) {
            host = "[" + host + "]";
        }
        return "http://" + host + ":" + port() + "/" + tokenText + "/";
    }

    @Override
    public void close() {
        server.stop(0);
        pool.shutdownNow();
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            Headers h = ex.getResponseHeaders();
            h.set("Content-Security-Policy", CSP);
            h.set("X-Content-Type-Options", "nosniff");
            h.set("Referrer-Policy", "no-referrer");
            h.set("Cache-Control", "no-store");
            h.set("Cross-Origin-Resource-Policy", "same-origin");
            String path = ex.getRequestURI().getRawPath();
            String rest = afterToken(path);
            if (rest == null) {
                send(ex, 404, "text/plain; charset=utf-8", "not found\n");
                return;
            }
            if (!"GET".equals(ex.getRequestMethod())) {
                h.set("Allow", "GET");
                send(ex, 405, "text/plain; charset=utf-8", "GET only\n");
                return;
            }
            Assets.Asset a = assets.get(rest);
            if (a != null) {
                send(ex, 200, a.type(), a.bytes());
                return;
            }
            if (rest.startsWith("api/") && Api.NAMES.contains(rest.substring(4))) {
                try {
                    String json = api.get().answer(rest.substring(4), query(ex.getRequestURI().getRawQuery()));
                    send(ex, 200, "application/json; charset=utf-8", json);
                } catch (BadRequest e) {
                    send(ex, 400, "text/plain; charset=utf-8", e.getMessage() + "\n");
                } catch (RuntimeException e) {
                    send(ex, 500, "text/plain; charset=utf-8", describe(e) + "\n");
                }
                return;
            }
            send(ex, 404, "text/plain; charset=utf-8", "not found\n");
        }
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

    private static void send(HttpExchange ex, int status, String type, String body) throws IOException {
        send(ex, status, type, body.getBytes(StandardCharsets.UTF_8));
    }

    private static void send(HttpExchange ex, int status, String type, byte[] body) throws IOException {
        ex.getResponseHeaders().set("Content-Type", type);
        ex.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        try (OutputStream o = ex.getResponseBody()) {
            o.write(body);
        }
    }

    /** Error text for an unexpected failure. */
    private static String describe(RuntimeException e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
