package io.perfj.io;

import java.util.Locale;

/** The pieces of JSON text perfj writes by hand. */
public final class Json {
    private Json() {
    }

    /** {@code s} as a JSON string literal. */
    public static String quote(String s) {
        return quote(s, false);
    }

    /**
     * {@code s} as a JSON string literal; {@code htmlSafe} also writes {@code < > &} and the
     * JavaScript line separators U+2028/U+2029 as {@code \\u} escapes, so the text can sit
     * inside an HTML {@code <script>} element whatever names a recording holds.
     */
    public static String quote(String s, boolean htmlSafe) {
        StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\t' -> sb.append("\\t");
                case '\r' -> sb.append("\\r");
                default -> {
                    if (c < 0x20 || htmlSafe && (c == '<' || c == '>' || c == '&' || c == 0x2028 || c == 0x2029)) {
                        sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }
}
