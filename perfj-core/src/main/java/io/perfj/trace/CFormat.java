package io.perfj.trace;

import java.nio.charset.StandardCharsets;

/**
 * C printf conversions as glibc prints them, for the specs a print fmt holds: flags
 * {@code - + space # 0}, a width (or {@code *}), a precision, a length ({@code hh h l ll L z j t})
 * and {@code d i u x X o c s}; plus {@code %p}'s {@code (nil)}/{@code 0x...}.
 */
final class CFormat {
    private CFormat() {
    }

    private static final class Spec {
        boolean left, plus, space, alt, zero;
        int width = -1;
        int precision = -1;
        int bits = 32;
        char conv;
    }

    private static Spec spec(String s, int star) {
        Spec sp = new Spec();
        int i = 1;
        for (; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '-') {
                sp.left = true;
            } else if (c == '+') {
                sp.plus = true;
            } else if (c == ' ') {
                sp.space = true;
            } else if (c == '#') {
                sp.alt = true;
            } else if (c == '0') {
                sp.zero = true;
            } else {
                break;
            }
        }
        if (i < s.length() && s.charAt(i) == '*') {
            sp.width = star;
            if (star < 0) {
                sp.left = true;
                sp.width = -star;
            }
            i++;
        } else {
            int w = 0;
            boolean any = false;
            while (i < s.length() && Character.isDigit(s.charAt(i))) {
                w = w * 10 + (s.charAt(i++) - '0');
                any = true;
            }
            if (any) {
                sp.width = w;
            }
        }
        if (i < s.length() && s.charAt(i) == '.') {
            i++;
            if (i < s.length() && s.charAt(i) == '*') {
                sp.precision = star;
                i++;
            } else {
                int pr = 0;
                while (i < s.length() && Character.isDigit(s.charAt(i))) {
                    pr = pr * 10 + (s.charAt(i++) - '0');
                }
                sp.precision = pr;
            }
        }
        int h = 0;
        int l = 0;
        for (; i < s.length() - 1; i++) {
            switch (s.charAt(i)) {
                case 'h' -> h++;
                case 'l', 'L', 'q', 'z', 'Z', 'j', 't' -> l++;
                default -> {
                }
            }
        }
        sp.bits = l > 0 ? 64 : h >= 2 ? 8 : h == 1 ? 16 : 32;
        sp.conv = s.charAt(s.length() - 1);
        return sp;
    }

    /** A number conversion ({@code %d %u %x %X %o %c} with any flags and length) of {@code v}. */
    static void number(ByteSink out, String specText, long v, int star) {
        Spec sp = spec(specText, star);
        if (sp.conv == 'c') {
            pad(out, new byte[] {(byte) v}, sp);
            return;
        }
        long x = v;
        if (sp.bits < 64) {
            long mask = (1L << sp.bits) - 1;
            x &= mask;
        }
        boolean signedConv = sp.conv == 'd' || sp.conv == 'i';
        boolean negative = false;
        String digits;
        if (signedConv) {
            long sv = sp.bits < 64 ? (x << (64 - sp.bits)) >> (64 - sp.bits) : x;
            negative = sv < 0;
            digits = negative ? Long.toUnsignedString(-sv) : Long.toString(sv);
            if (sv == Long.MIN_VALUE) {
                digits = "9223372036854775808";
            }
        } else {
            digits = switch (sp.conv) {
                case 'x' -> Long.toHexString(x);
                case 'X' -> Long.toHexString(x).toUpperCase(java.util.Locale.ROOT);
                case 'o' -> Long.toOctalString(x);
                default -> Long.toUnsignedString(x);
            };
        }
        if (sp.precision == 0 && x == 0) {
            digits = "";
        }
        StringBuilder num = new StringBuilder();
        if (sp.precision > digits.length()) {
            num.append("0".repeat(sp.precision - digits.length()));
        }
        num.append(digits);
        if (sp.alt && sp.conv == 'o' && (num.isEmpty() || num.charAt(0) != '0')) {
            num.insert(0, '0');
        }
        String prefix = "";
        if (signedConv) {
            prefix = negative ? "-" : sp.plus ? "+" : sp.space ? " " : "";
        } else if (sp.alt && x != 0 && (sp.conv == 'x' || sp.conv == 'X')) {
            prefix = sp.conv == 'x' ? "0x" : "0X";
        }
        int len = prefix.length() + num.length();
        StringBuilder all = new StringBuilder();
        if (sp.width > len && !sp.left && sp.zero && sp.precision < 0) {
            all.append(prefix).append("0".repeat(sp.width - len)).append(num);
        } else {
            all.append(prefix).append(num);
        }
        pad(out, all.toString().getBytes(StandardCharsets.US_ASCII), sp);
    }

    /** A {@code %s} conversion (width, precision, {@code -}) of the bytes of {@code s} up to its first NUL. */
    static void string(ByteSink out, String specText, byte[] s, int star) {
        Spec sp = spec(specText, star);
        int len = 0;
        while (len < s.length && s[len] != 0) {
            len++;
        }
        if (sp.precision >= 0 && sp.precision < len) {
            len = sp.precision;
        }
        byte[] v = len == s.length ? s : java.util.Arrays.copyOf(s, len);
        pad(out, v, sp);
    }

    private static void pad(ByteSink out, byte[] v, Spec sp) {
        int fill = sp.width - v.length;
        if (fill > 0 && !sp.left) {
            for (int i = 0; i < fill; i++) {
                out.put(' ');
            }
        }
        out.put(v);
        if (fill > 0 && sp.left) {
            for (int i = 0; i < fill; i++) {
                out.put(' ');
            }
        }
    }

    /** glibc's {@code %p}: {@code (nil)} for zero, else {@code 0x} and the hex digits. */
    static void pointer(ByteSink out, long v) {
        out.put(v == 0 ? "(nil)" : "0x" + Long.toHexString(v));
    }
}
