package io.perfj.symbols.demangle;

/**
 * The bytes of a Rust v0 {@code str} constant: pairs of lower-case hex digits holding UTF-8,
 * decoded strictly (no overlong forms, surrogates or values past U+10FFFF), as RFC 2603's
 * "Constants" section and rustc-demangle require.
 */
final class Utf8Hex {
    private Utf8Hex() {
    }

    /** The decoded text, or null when the digits are odd in number or not valid UTF-8. */
    static String decode(String hex) {
        if ((hex.length() & 1) != 0) {
            return null;
        }
        int n = hex.length() / 2;
        int[] b = new int[n];
        for (int i = 0; i < n; i++) {
            int hi = Character.digit(hex.charAt(2 * i), 16);
            int lo = Character.digit(hex.charAt(2 * i + 1), 16);
            if (hi < 0 || lo < 0) {
                return null;
            }
            b[i] = hi << 4 | lo;
        }
        StringBuilder sb = new StringBuilder(n);
        int i = 0;
        while (i < n) {
            int c = b[i];
            int len;
            int cp;
            if (c < 0x80) {
                len = 1;
                cp = c;
            } else if (c < 0xc2) {
                return null;
            } else if (c < 0xe0) {
                len = 2;
                cp = c & 0x1f;
            } else if (c < 0xf0) {
                len = 3;
                cp = c & 0x0f;
            } else if (c < 0xf5) {
                len = 4;
                cp = c & 0x07;
            } else {
                return null;
            }
            if (i + len > n) {
                return null;
            }
            for (int k = 1; k < len; k++) {
                int t = b[i + k];
                if (t < 0x80 || t >= 0xc0) {
                    return null;
                }
                cp = cp << 6 | (t & 0x3f);
            }
            if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp < 0xe000))) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff))) {
                return null;
            }
            sb.appendCodePoint(cp);
            i += len;
        }
        return sb.toString();
    }
}
