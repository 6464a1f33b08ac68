package io.perfj.serve;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The HTTP/1.1 server under {@link UiServer}: requests without a body (GET and HEAD are what the
 * handler answers), responses with a Content-Length, keep-alive. One thread accepts, each
 * connection has a virtual thread of its own, so a slow or silent client holds only its own
 * connection:
 * <ul>
 * <li>at most {@link Limits#connections} connections at once; one more is answered 503 and
 *     closed at once;</li>
 * <li>a request head (request line and header fields) must arrive whole within
 *     {@link Limits#headMillis} of its first byte (of the accept, for a connection's first
 *     request): then 408; a kept-alive connection that sends nothing for
 *     {@link Limits#idleMillis} is closed;</li>
 * <li>a request line over {@link Limits#requestLine} bytes is 414, header fields over
 *     {@link Limits#headerBytes} bytes or {@link Limits#headerFields} fields 431, anything else
 *     out of RFC 9112's grammar 400, an HTTP version other than 1.x 505;</li>
 * <li>the Host header (or an absolute-form target's authority) must name this server
 *     ({@link HostCheck}): otherwise 421, before the handler sees the request; HTTP/1.1 without
 *     Host is 400;</li>
 * <li>each 64 KiB of a response must be written within {@link Limits#writeMillis} (a client
 *     that does not read), else the connection is closed.</li>
 * </ul>
 * Every response, the server's own errors included, carries the {@code always} headers given at
 * start. A request announcing a body is answered and its connection closed (no body is read).
 */
final class Http1Server implements AutoCloseable {
    /** The bounds on connections, their time (milliseconds) and their request heads (bytes, fields). */
    record Limits(int connections, long headMillis, long idleMillis, long writeMillis, int requestLine,
                  int headerBytes, int headerFields) {
        static final Limits DEFAULT = new Limits(64, 10_000, 30_000, 30_000, 8 << 10, 32 << 10, 100);
    }

    /** A request: its method, the target's path and query as sent (query null when none). */
    record Request(String method, String path, String query) {
    }

    /** A response: {@code allow} is the Allow header's value of a 405 (null otherwise). */
    record Response(int status, String type, byte[] body, String allow) {
        static Response text(int status, String text) {
            return new Response(status, "text/plain; charset=utf-8", text.getBytes(StandardCharsets.UTF_8), null);
        }
    }

    /** What answers a request that reached the handler (its Host already checked). */
    interface Handler {
        Response handle(Request request);
    }

    /** A request the server answers itself with {@code status}, then closes the connection. */
    private static final class Refused extends Exception {
        final int status;

        Refused(int status, String message) {
            super(message, null, false, false);
            this.status = status;
        }
    }

    /** Bytes written at once under one write deadline. */
    private static final int WRITE_CHUNK = 64 << 10;
    /** After a last answer: how long, and how much, of what the client still sends is read and dropped. */
    private static final long LINGER_MILLIS = 1000;
    private static final int LINGER_BYTES = 64 << 10;
    private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'",
            Locale.US);
    private static final Map<Integer, String> REASONS = Map.ofEntries(Map.entry(200, "OK"),
            Map.entry(400, "Bad Request"), Map.entry(404, "Not Found"), Map.entry(405, "Method Not Allowed"),
            Map.entry(408, "Request Timeout"), Map.entry(414, "URI Too Long"), Map.entry(421, "Misdirected Request"),
            Map.entry(431, "Request Header Fields Too Large"), Map.entry(500, "Internal Server Error"),
            Map.entry(503, "Service Unavailable"), Map.entry(505, "HTTP Version Not Supported"));

    private final ServerSocket listener;
    private final Limits limits;
    private final HostCheck hosts;
    private final String always;
    private final Handler handler;
    private final Semaphore slots;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    /** Closes a connection whose write is late. */
    private final ScheduledThreadPoolExecutor timer;
    private volatile boolean closed;

    private Http1Server(ServerSocket listener, HostCheck hosts, Limits limits, Map<String, String> always,
                        Handler handler) {
        this.listener = listener;
        this.hosts = hosts;
        this.limits = limits;
        this.handler = handler;
        StringBuilder h = new StringBuilder();
        always.forEach((k, v) -> h.append(k).append(": ").append(v).append("\r\n"));
        this.always = h.toString();
        slots = new Semaphore(limits.connections());
        timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "perfj-serve-timer");
            t.setDaemon(true);
            return t;
        });
        timer.setRemoveOnCancelPolicy(true);
    }

    /**
     * Listens on {@code address} ({@code bindName}: the name it was given as, accepted in Host
     * headers when it is not an address) and serves until {@link #close()}.
     */
    static Http1Server start(InetSocketAddress address, String bindName, Limits limits, Map<String, String> always,
                             Handler handler) throws IOException {
        ServerSocket listener = new ServerSocket();
        try {
            listener.bind(address, 64);
        } catch (IOException e) {
            listener.close();
            throw e;
        }
        HostCheck hosts = new HostCheck(listener.getInetAddress(), listener.getLocalPort(), bindName);
        Http1Server s = new Http1Server(listener, hosts, limits, always, handler);
        Thread accept = new Thread(s::acceptLoop, "perfj-serve");
        accept.setDaemon(true);
        accept.start();
        return s;
    }

    InetAddress address() {
        return listener.getInetAddress();
    }

    int port() {
        return listener.getLocalPort();
    }

    /** The connections open now (for tests). */
    int connections() {
        return open.size();
    }

    @Override
    public void close() {
        closed = true;
        closeQuietly(listener);
        for (Socket s : open) {
            closeQuietly(s);
        }
        timer.shutdownNow();
    }

    private void acceptLoop() {
        while (!closed) {
            Socket s;
            try {
                s = listener.accept();
            } catch (IOException e) {
                if (closed || listener.isClosed()) {
                    return;
                }
                // out of descriptors, say: a moment for connections to end before accepting again
                LockSupport.parkNanos(50_000_000);
                continue;
            }
            if (!slots.tryAcquire()) {
                refuse(s);
                continue;
            }
            open.add(s);
            try {
                Thread.ofVirtual().name("perfj-serve-connection").start(() -> serve(s));
            } catch (RuntimeException | OutOfMemoryError e) {
                release(s);
            }
        }
    }

    /** A connection over the limit: a 503 (it fits any socket's send buffer, so this cannot block) and close. */
    private void refuse(Socket s) {
        try (s) {
            s.getOutputStream().write(message(Response.text(503, "too many connections\n"), false, false));
        } catch (IOException e) {
            // gone already
        }
    }

    /** Gives back the connection's slot, then closes it (a client that saw the close can connect again at once). */
    private void release(Socket s) {
        if (open.remove(s)) {
            slots.release();
        }
        closeQuietly(s);
    }

    private void serve(Socket s) {
        try {
            Connection c = new Connection(s);
            // the first request's head is due within the head time-out of the accept
            long headCap = System.nanoTime() + limits.headMillis() * 1_000_000;
            long waitUntil = headCap;
            while (true) {
                Head h;
                try {
                    h = c.readHead(waitUntil, headCap);
                } catch (Refused r) {
                    c.send(Response.text(r.status, r.getMessage() + "\n"), false, false);
                    c.linger();
                    return;
                }
                if (h == null) {
                    return;
                }
                c.send(answer(h.request()), h.request().method().equals("HEAD"), h.keepAlive());
                if (!h.keepAlive()) {
                    c.linger();
                    return;
                }
                waitUntil = System.nanoTime() + limits.idleMillis() * 1_000_000;
                headCap = Long.MAX_VALUE;
            }
        } catch (IOException | RejectedExecutionException e) {
            // the client went away, timed out between requests, a late write closed it, or the server closed
        } finally {
            release(s);
        }
    }

    /** The handler's response, or 500 when it failed. */
    private Response answer(Request request) {
        try {
            return handler.handle(request);
        } catch (RuntimeException e) {
            return Response.text(500, "internal error\n");
        }
    }

    /** A parsed request head, and whether the connection may carry another request after it. */
    private record Head(Request request, boolean keepAlive) {
    }

    /** One connection's reading and writing; its buffer keeps what a pipelining client sent ahead. */
    private final class Connection {
        private final Socket socket;
        private final InputStream in;
        private final OutputStream out;
        private final byte[] buf = new byte[8192];
        private int pos;
        private int lim;

        Connection(Socket socket) throws IOException {
            this.socket = socket;
            socket.setTcpNoDelay(true);
            in = socket.getInputStream();
            out = socket.getOutputStream();
        }

        /**
         * The next request head: its first byte awaited until {@code waitUntil} (null when none
         * comes, or the client closed), all of it read by its first byte's time plus the head
         * timeout and by {@code headCap} (System.nanoTime() values).
         */
        Head readHead(long waitUntil, long headCap) throws Refused, IOException {
            try {
                if (!await(waitUntil)) {
                    return null;
                }
            } catch (SocketTimeoutException e) {
                return null;
            }
            long deadline = Math.min(headCap, System.nanoTime() + limits.headMillis() * 1_000_000);
            try {
                return parse(deadline);
            } catch (SocketTimeoutException e) {
                throw new Refused(408, "request head not received in time");
            } catch (EOFException e) {
                // a half request, then the client closed: nothing to answer
                return null;
            }
        }

        private Head parse(long deadline) throws Refused, IOException {
            String line = line(limits.requestLine(), deadline, 414);
            // RFC 9112 2.2: an empty line or two before the request line are ignored
            for (int i = 0; i < 2 && line.isEmpty(); i++) {
                line = line(limits.requestLine(), deadline, 414);
            }
            String[] parts = line.split(" ", -1);
            if (parts.length != 3 || !token(parts[0]) || parts[1].isEmpty()) {
                throw new Refused(400, "malformed request line");
            }
            String version = parts[2];
            if (!version.matches("HTTP/[0-9]\\.[0-9]")) {
                throw new Refused(400, "malformed HTTP version");
            }
            if (version.charAt(5) != '1') {
                throw new Refused(505, "HTTP/1.1 only");
            }
            boolean http10 = version.charAt(7) == '0';
            String target = parts[1];
            String authority = null;
            if (target.regionMatches(true, 0, "http://", 0, 7)) {
                int end = 7;
                while (end < target.length() && target.charAt(end) != '/' && target.charAt(end) != '?') {
                    end++;
                }
                authority = target.substring(7, end);
                target = end == target.length() || target.charAt(end) == '?' ? "/" + target.substring(end)
                        : target.substring(end);
            } else if (!target.startsWith("/")) {
                throw new Refused(400, "malformed request target");
            }
            int budget = limits.headerBytes();
            int fields = 0;
            String host = null;
            boolean close = http10;
            String length = null;
            boolean chunked = false;
            while (true) {
                String f = line(budget, deadline, 431);
                budget -= f.length() + 2;
                if (f.isEmpty()) {
                    break;
                }
                if (++fields > limits.headerFields()) {
                    throw new Refused(431, "too many header fields");
                }
                int colon = f.indexOf(':');
                if (colon <= 0 || !token(f.substring(0, colon))) {
                    throw new Refused(400, "malformed header field");
                }
                String value = trim(f.substring(colon + 1));
                switch (f.substring(0, colon).toLowerCase(Locale.ROOT)) {
                    case "host" -> {
                        if (host != null) {
                            throw new Refused(400, "more than one Host");
                        }
                        host = value;
                    }
                    case "connection" -> {
                        for (String t : value.split(",")) {
                            close |= trim(t).equalsIgnoreCase("close");
                        }
                    }
                    case "content-length" -> length = contentLength(length, value);
                    case "transfer-encoding" -> chunked = true;
                    default -> {
                    }
                }
            }
            if (chunked && (http10 || length != null)) {
                throw new Refused(400, "Transfer-Encoding with HTTP/1.0 or Content-Length");
            }
            if (authority == null && (host == null || host.isEmpty()) && !http10) {
                throw new Refused(400, "no Host");
            }
            String named = authority != null ? authority : host;
            if (named != null && !hosts.allows(named)) {
                throw new Refused(421, "not this server: Host must be " + hosts.expected());
            }
            int q = target.indexOf('?');
            Request r = new Request(parts[0], q < 0 ? target : target.substring(0, q),
                    q < 0 ? null : target.substring(q + 1));
            // a body is not read: the connection ends after the answer
            boolean body = chunked || (length != null && !length.equals("0"));
            return new Head(r, !close && !body);
        }

        /** Whether a byte came by {@code until} (false: the client closed). */
        private boolean await(long until) throws IOException {
            return pos < lim || fill(until);
        }

        private boolean fill(long until) throws IOException {
            long left = until - System.nanoTime();
            if (left <= 0) {
                throw new SocketTimeoutException();
            }
            socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, Math.max(1, (left + 999_999) / 1_000_000)));
            int n = in.read(buf);
            if (n < 0) {
                return false;
            }
            pos = 0;
            lim = n;
            return true;
        }

        private int next(long until) throws IOException {
            if (pos == lim && !fill(until)) {
                throw new EOFException();
            }
            return buf[pos++] & 0xff;
        }

        /**
         * A line without its CRLF (or bare LF), at most {@code max} bytes, else {@code tooLong};
         * a CR elsewhere or another control character than HTAB is 400.
         */
        private String line(int max, long until, int tooLong) throws Refused, IOException {
            StringBuilder s = new StringBuilder();
            while (true) {
                int b = next(until);
                if (b == '\n') {
                    return s.toString();
                }
                if (b == '\r') {
                    if (next(until) != '\n') {
                        throw new Refused(400, "CR without LF");
                    }
                    return s.toString();
                }
                if ((b < 0x20 && b != '\t') || b == 0x7f) {
                    throw new Refused(400, "control character in the request head");
                }
                if (s.length() >= max) {
                    throw new Refused(tooLong, tooLong == 414 ? "request line too long" : "header fields too large");
                }
                s.append((char) b);
            }
        }

        /** Writes the response (without its body for HEAD). */
        void send(Response r, boolean head, boolean keep) throws IOException {
            byte[] all = message(r, head, keep);
            for (int at = 0; at < all.length; at += WRITE_CHUNK) {
                ScheduledFuture<?> late = timer.schedule(() -> closeQuietly(socket), limits.writeMillis(),
                        TimeUnit.MILLISECONDS);
                try {
                    out.write(all, at, Math.min(WRITE_CHUNK, all.length - at));
                } finally {
                    late.cancel(false);
                }
            }
            out.flush();
        }

        /**
         * After the last answer: the write side closed (the client reads to its end), and what
         * the client still sends read and dropped for a moment, so that closing does not reset
         * the connection before the answer was read.
         */
        void linger() {
            if (open.remove(socket)) {
                slots.release();
            }
            try {
                socket.shutdownOutput();
                long until = System.nanoTime() + LINGER_MILLIS * 1_000_000;
                for (int dropped = 0; dropped < LINGER_BYTES && fill(until); dropped += lim) {
                    pos = lim;
                }
            } catch (IOException e) {
                // timed out or reset: closed next
            }
        }
    }

    /** The response's bytes: status line, headers ({@code always} among them), body unless {@code head}. */
    private byte[] message(Response r, boolean head, boolean keep) {
        StringBuilder h = new StringBuilder(512);
        h.append("HTTP/1.1 ").append(r.status()).append(' ').append(REASONS.getOrDefault(r.status(), "Error"))
                .append("\r\n");
        h.append("Date: ").append(DATE.format(ZonedDateTime.now(ZoneOffset.UTC))).append("\r\n");
        h.append(always);
        h.append("Content-Type: ").append(r.type()).append("\r\n");
        h.append("Content-Length: ").append(r.body().length).append("\r\n");
        if (r.allow() != null) {
            h.append("Allow: ").append(r.allow()).append("\r\n");
        }
        if (!keep) {
            h.append("Connection: close\r\n");
        }
        byte[] top = h.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
        if (head) {
            return top;
        }
        byte[] all = Arrays.copyOf(top, top.length + r.body().length);
        System.arraycopy(r.body(), 0, all, top.length, r.body().length);
        return all;
    }

    /** The Content-Length seen so far combined with another field's value: one number, else 400. */
    private static String contentLength(String before, String value) throws Refused {
        for (String v : value.split(",", -1)) {
            String n = trim(v);
            if (n.isEmpty() || n.length() > 18 || !n.chars().allMatch(c -> c >= '0' && c <= '9')) {
                throw new Refused(400, "malformed Content-Length");
            }
            n = Long.toString(Long.parseLong(n));
            if (before != null && !before.equals(n)) {
                throw new Refused(400, "conflicting Content-Length");
            }
            before = n;
        }
        return before;
    }

    /** RFC 9110's token: one or more of its characters. */
    private static boolean token(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean alnum = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
            if (!alnum && "!#$%&'*+-.^_`|~".indexOf(c) < 0) {
                return false;
            }
        }
        return true;
    }

    /** Without leading and trailing spaces and tabs (HTTP's optional white space). */
    private static String trim(String s) {
        int a = 0;
        int b = s.length();
        while (a < b && (s.charAt(a) == ' ' || s.charAt(a) == '\t')) {
            a++;
        }
        while (b > a && (s.charAt(b - 1) == ' ' || s.charAt(b - 1) == '\t')) {
            b--;
        }
        return s.substring(a, b);
    }

    private static void closeQuietly(Closeable c) {
        try {
            c.close();
        } catch (IOException e) {
            // closing anyway
        }
    }
}
