package io.perfj.symbols.demangle;

/**
 * Rust legacy symbol names ({@code _ZN...17h<16 hex digits>E}) the way libiberty's
 * rust-demangle prints them: path components joined by "::", the hash dropped unless verbose,
 * and the $-escapes ($LT$, $u7e$, ..) decoded.
 */
public final class RustDemangler {
    private RustDemangler() {
    }

    /** The demangled legacy Rust name, or null when {@code s} is not one. */
    public static String demangleLegacy(String s, boolean verbose) {
        if (!s.startsWith("_ZN")) {
            return null;
        }
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) > 0x7e || s.charAt(i) < 0x20) {
                return null;
            }
        }
        s = withoutSuffix(s);
        if (s == null) {
            return null;
        }
        int p = 3;
        int end = s.length() - 1;
        StringBuilder out = new StringBuilder();
        String lastIdent = null;
        int count = 0;
        while (p < end) {
            if (!Character.isDigit(s.charAt(p))) {
                return null;
            }
            long len = 0;
            while (p < end && Character.isDigit(s.charAt(p))) {
                len = len * 10 + (s.charAt(p++) - '0');
                if (len > end) {
                    return null;
                }
            }
            if (len == 0 || p + len > end) {
                return null;
            }
            String ident = s.substring(p, p + (int) len);
            p += (int) len;
            lastIdent = ident;
            count++;
            if (p == end && isHash(ident)) {
                if (verbose) {
                    out.append("::").append(ident);
                }
                break;
            }
            if (count > 1) {
                out.append("::");
            }
            if (!decodeIdent(ident, out)) {
                return null;
            }
        }
        if (lastIdent == null || !isHash(lastIdent) || count < 2) {
            return null;
        }
        return out.toString();
    }

    /**
     * {@code s} without a "." suffix after its closing E, as libiberty's rust-demangle and
     * rustc-demangle drop it: LLVM's {@code .llvm.<digits>} (ThinLTO's promoted locals) and
     * the compiler's {@code .cold}, {@code .0}. The name ends at the last "E." (or at the final
     * E when there is no suffix); null when there is none, or when the suffix holds a character
     * outside libiberty's set for legacy names ({@code [_0-9a-zA-Z.:$@]}).
     */
    static String withoutSuffix(String s) {
        if (s.endsWith("E")) {
            return s;
        }
        int dot = s.lastIndexOf("E.");
        if (dot < 3) {
            return null;
        }
        for (int i = dot + 1; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(Character.isLetterOrDigit(c) || c == '_' || c == '.' || c == ':' || c == '$' || c == '@')) {
                return null;
            }
        }
        return s.substring(0, dot + 1);
    }

    static boolean isHash(String ident) {
        if (ident.length() != 17 || ident.charAt(0) != 'h') {
            return false;
        }
        for (int i = 1; i < 17; i++) {
            if (Character.digit(ident.charAt(i), 16) < 0 || Character.isUpperCase(ident.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean decodeIdent(String id, StringBuilder out) {
        int i = 0;
        if (id.length() > 1 && id.charAt(0) == '_' && id.charAt(1) == '$') {
            i = 1;
        }
        while (i < id.length()) {
            char c = id.charAt(i);
            if (c == '$') {
                int close = id.indexOf('$', i + 1);
                if (close < 0) {
                    return false;
                }
                String esc = id.substring(i + 1, close);
                String rep = switch (esc) {
                    case "SP" -> "@";
                    case "BP" -> "*";
                    case "RF" -> "&";
                    case "LT" -> "<";
                    case "GT" -> ">";
                    case "LP" -> "(";
                    case "RP" -> ")";
                    case "C" -> ",";
                    default -> {
                        if (esc.length() > 1 && esc.charAt(0) == 'u') {
                            try {
                                int cp = Integer.parseInt(esc.substring(1), 16);
                                yield new String(Character.toChars(cp));
                            } catch (IllegalArgumentException e) {
                                yield null;
                            }
                        }
                        yield null;
                    }
                };
                if (rep == null) {
                    return false;
                }
                out.append(rep);
                i = close + 1;
            } else if (c == '.') {
                if (i + 1 < id.length() && id.charAt(i + 1) == '.') {
                    out.append("::");
                    i += 2;
                } else {
                    out.append('-');
                    i++;
                }
            } else {
                out.append(c);
                i++;
            }
        }
        return true;
    }
}
