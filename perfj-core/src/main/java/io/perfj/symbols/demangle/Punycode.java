package io.perfj.symbols.demangle;

/**
 * The punycode decoder (RFC 3492, section 6.2) for Rust v0 identifiers that start with {@code u},
 * with the limits of rustc-demangle and perf's port of it: at most 128 decoded characters, 64-bit
 * unsigned overflow is an error, and every decoded value must be a Unicode scalar value.
 */
final class Punycode {
    static final int MAX_CHARS = 128;
    private static final int BASE = 36;
    private static final int T_MIN = 1;
    private static final int T_MAX = 26;
    private static final int SKEW = 38;
    private static final int INITIAL_BIAS = 72;
    private static final int INITIAL_N = 0x80;

    private Punycode() {
    }

    /**
     * Decodes {@code punycode} on top of the basic code points {@code ascii}; null when the input
     * is not valid punycode or decodes to more than {@link #MAX_CHARS} characters.
     */
    static String decode(CharSequence ascii, CharSequence punycode) {
        if (punycode.isEmpty() || ascii.length() > MAX_CHARS) {
            return null;
        }
        int[] out = new int[MAX_CHARS];
        int len = ascii.length();
        for (int j = 0; j < len; j++) {
            out[j] = ascii.charAt(j);
        }
        long damp = 700;
        long bias = INITIAL_BIAS;
        long i = 0;
        long n = INITIAL_N;
        int p = 0;
        while (true) {
            long delta = 0;
            long w = 1;
            long k = 0;
            long t;
            while (true) {
                k += BASE;
                long biased = k < bias ? 0 : k - bias;
                t = Math.min(Math.max(biased, T_MIN), T_MAX);
                if (p == punycode.length()) {
                    return null;
                }
                char c = punycode.charAt(p++);
                long d;
                if (c >= 'a' && c <= 'z') {
                    d = c - 'a';
                } else if (c >= '0' && c <= '9') {
                    d = 26 + (c - '0');
                } else {
                    return null;
                }
                if (w == 0 || Math.unsignedMultiplyHigh(d, w) != 0 || addOverflows(d * w, delta)) {
                    return null;
                }
                delta += d * w;
                if (d < t) {
                    break;
                }
                if (Math.unsignedMultiplyHigh(w, BASE - t) != 0) {
                    return null;
                }
                w *= BASE - t;
            }
            len++;
            if (addOverflows(i, delta)) {
                return null;
            }
            i += delta;
            long q = Long.divideUnsigned(i, len);
            if (addOverflows(n, q)) {
                return null;
            }
            n += q;
            i = Long.remainderUnsigned(i, len);
            if (Long.compareUnsigned(n, 0xffff_ffffL) > 0 || !isScalar((int) n)) {
                return null;
            }
            if (len > MAX_CHARS) {
                return null;
            }
            System.arraycopy(out, (int) i, out, (int) i + 1, len - (int) i - 1);
            out[(int) i] = (int) n;
            i++;
            if (p == punycode.length()) {
                StringBuilder sb = new StringBuilder(len + 4);
                for (int j = 0; j < len; j++) {
                    sb.appendCodePoint(out[j]);
                }
                return sb.toString();
            }
            delta /= damp;
            damp = 2;
            delta += delta / len;
            k = 0;
            while (delta > ((BASE - T_MIN) * T_MAX) / 2) {
                delta /= BASE - T_MIN;
                k += BASE;
            }
            bias = k + ((BASE - T_MIN + 1) * delta) / (delta + SKEW);
        }
    }

    /** A Unicode scalar value: below 0x110000 and not a surrogate. */
    static boolean isScalar(int cp) {
        return Integer.compareUnsigned((cp ^ 0xd800) - 0x800, 0x110000 - 0x800) < 0;
    }

    private static boolean addOverflows(long a, long b) {
        return Long.compareUnsigned(a + b, a) < 0;
    }
}
