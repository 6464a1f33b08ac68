package io.perfj.serve;

import java.net.InetAddress;
import java.util.Locale;

/**
 * Whether a request's Host (or absolute-form authority) names this server, the defence against
 * DNS rebinding that does not depend on the token: a page of another site whose name was made to
 * resolve to this machine sends that name. The port must be the server's (no port: 80). The host
 * must be:
 * <ul>
 * <li>bound to one address: that address as a literal ({@code [..]} for IPv6, compared as
 *     addresses), or {@code localhost} when it is a loopback address;</li>
 * <li>bound to every address (0.0.0.0, ::): any IP address literal or {@code localhost}, since
 *     neither can be a name an attacker controls;</li>
 * <li>either way, the name the address was given as ({@code --bind NAME}).</li>
 * </ul>
 */
final class HostCheck {
    private final InetAddress bound;
    private final int port;
    /** The name the address was given as, lower case; null when it was given as an address. */
    private final String name;

    HostCheck(InetAddress bound, int port, String bindName) {
        this.bound = bound;
        this.port = port;
        this.name = bindName == null || literal(bindName) != null ? null : bindName.toLowerCase(Locale.ROOT);
    }

    boolean allows(String authority) {
        String host;
        String rest;
        if (authority.startsWith("[")) {
            int end = authority.indexOf(']');
            if (end < 0) {
                return false;
            }
            host = authority.substring(0, end + 1);
            rest = authority.substring(end + 1);
        } else {
            int colon = authority.indexOf(':');
            host = colon < 0 ? authority : authority.substring(0, colon);
            rest = colon < 0 ? "" : authority.substring(colon);
        }
        if (!portMatches(rest)) {
            return false;
        }
        InetAddress a = literal(host);
        if (a != null) {
            return bound.isAnyLocalAddress() || a.equals(bound);
        }
        String h = host.toLowerCase(Locale.ROOT);
        return h.equals(name) || (h.equals("localhost") && (bound.isLoopbackAddress() || bound.isAnyLocalAddress()));
    }

    /** What a Host must be, for the refusal's text. */
    String expected() {
        String a = literalText(bound);
        String any = bound.isAnyLocalAddress() ? "an address of this machine" : a;
        String local = bound.isLoopbackAddress() || bound.isAnyLocalAddress() ? " or localhost" : "";
        return (name != null ? name + ", " : "") + any + local + ", with port " + port;
    }

    /** {@code ""} or {@code ":"} (the default port, 80) or {@code :DIGITS} equal to the server's port. */
    private boolean portMatches(String rest) {
        if (rest.isEmpty() || rest.equals(":")) {
            return port == 80;
        }
        if (rest.charAt(0) != ':' || rest.length() > 6) {
            return false;
        }
        for (int i = 1; i < rest.length(); i++) {
            if (rest.charAt(i) < '0' || rest.charAt(i) > '9') {
                return false;
            }
        }
        return Integer.parseInt(rest.substring(1)) == port;
    }

    /** The address an IP literal ({@code 1.2.3.4}, {@code [::1]}, also bare {@code ::1}) stands for, else null; never a name lookup. */
    static InetAddress literal(String host) {
        boolean brackets = host.startsWith("[") && host.endsWith("]");
        String h = brackets ? host.substring(1, host.length() - 1) : host;
        if (h.isEmpty() || h.contains("%") || (brackets && !h.contains(":"))) {
            return null;
        }
        try {
            return InetAddress.ofLiteral(h);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** An address as a URL's host: IPv6 in brackets. */
    static String literalText(InetAddress a) {
        String t = a.getHostAddress();
        return t.contains(":") ? "[" + t + "]" : t;
    }
}
