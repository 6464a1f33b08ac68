package io.perfj.io;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * A small, fast text sink for the printers: appends bytes into a buffer and hands full buffers to
 * an {@link OutputStream} (text is ASCII except for names from the file, written as UTF-8).
 * Numbers are formatted by hand (C's {@code %d}, {@code %u}, {@code %x}, {@code %#x},
 * {@code %016x}) because {@code String.format} and char encoding are far too slow for the
 * millions of lines a dump prints.
 */
public final class TextOut {
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    private static final long TEN_TO_19 = Long.parseUnsignedLong("10000000000000000000");

    private final OutputStream out;
    private final byte[] buf;
    private int pos;

    public TextOut(OutputStream out, int size) {
        this.out = out;
        this.buf = new byte[Math.max(size, 256)];
    }

    private void room(int n) {
        if (buf.length - pos < n) {
            flushBuffer();
        }
    }

    public void flushBuffer() {
        try {
            out.write(buf, 0, pos);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        pos = 0;
    }

    public void flush() {
        flushBuffer();
        try {
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** An ASCII character. */
    public TextOut ch(char c) {
        room(1);
        buf[pos++] = (byte) c;
        return this;
    }

    public TextOut nl() {
        return ch('\n');
    }

    public TextOut str(String s) {
        int n = s.length();
        room(n);
        if (n <= buf.length - pos) {
            int p = pos;
            for (int i = 0; i < n; i++) {
                char c = s.charAt(i);
                if (c >= 0x80) {
                    return bytes(s.getBytes(StandardCharsets.UTF_8));
                }
                buf[p++] = (byte) c;
            }
            pos = p;
            return this;
        }
        return bytes(s.getBytes(StandardCharsets.UTF_8));
    }

    public TextOut bytes(byte[] b) {
        return bytes(b, 0, b.length);
    }

    /** {@code n} bytes of {@code b} from {@code from}, as they are (ASCII or UTF-8 already). */
    public TextOut bytes(byte[] b, int from, int n) {
        if (n > buf.length - pos) {
            flushBuffer();
            if (n > buf.length) {
                try {
                    out.write(b, from, n);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                return this;
            }
        }
        System.arraycopy(b, from, buf, pos, n);
        pos += n;
        return this;
    }

    /** {@code %d} of a signed 64-bit value. */
    public TextOut dec(long v) {
        room(20);
        if (v < 0) {
            if (v == Long.MIN_VALUE) {
                return str("-9223372036854775808");
            }
            buf[pos++] = (byte) '-';
            v = -v;
        }
        return udecPositive(v);
    }

    /** {@code %u} / {@code PRIu64} of an unsigned 64-bit value. */
    public TextOut udec(long v) {
        if (v < 0) {
            return str(Long.toUnsignedString(v));
        }
        room(20);
        return udecPositive(v);
    }

    private TextOut udecPositive(long v) {
        if (v < 10) {
            buf[pos++] = (byte) ('0' + v);
            return this;
        }
        if (v <= Integer.MAX_VALUE) {
            return intPositive((int) v);
        }
        int digits = 0;
        long t = v;
        while (t != 0) {
            t /= 10;
            digits++;
        }
        int end = pos + digits;
        int p = end;
        while (v != 0) {
            buf[--p] = (byte) ('0' + (v % 10));
            v /= 10;
        }
        pos = end;
        return this;
    }

    /**
     * Digits of {@code 10 <= v}: int division (a long one is several times slower before the
     * JIT's second tier, where short runs such as {@code btf dump} spend their time), the
     * length found by comparisons instead of a first division loop.
     */
    private TextOut intPositive(int v) {
        pos = putPositive(buf, pos, v);
        return this;
    }

    /**
     * {@code %u} of a 32-bit value held in an int, put at {@code b[p]} (10 bytes must be free);
     * returns the position after it. For printers that fill {@link #reserve}d room themselves.
     */
    public static int putU32(byte[] b, int p, int v) {
        if (v >= 0) {
            if (v < 10) {
                b[p] = (byte) ('0' + v);
                return p + 1;
            }
            return putPositive(b, p, v);
        }
        // 2^31 and above: the last digit by unsigned division, the rest fit an int
        int q = Integer.divideUnsigned(v, 10);
        p = putPositive(b, p, q);
        b[p] = (byte) ('0' + (v - q * 10));
        return p + 1;
    }

    private static int putPositive(byte[] b, int p, int v) {
        int digits = v < 10 ? 1 : v < 100 ? 2 : v < 1000 ? 3 : v < 10_000 ? 4 : v < 100_000 ? 5 : v < 1_000_000 ? 6
                : v < 10_000_000 ? 7 : v < 100_000_000 ? 8 : v < 1_000_000_000 ? 9 : 10;
        int end = p + digits;
        int i = end;
        while (v >= 10) {
            int q = v / 10;
            b[--i] = (byte) ('0' + v - q * 10);
            v = q;
        }
        b[--i] = (byte) ('0' + v);
        return end;
    }

    /** {@code %u} of a 32-bit value held in an int. */
    public TextOut u32(int v) {
        room(10);
        pos = putU32(buf, pos, v);
        return this;
    }

    /** {@code %d} right-aligned in {@code width} columns (C's {@code %Nd}). */
    public TextOut decPad(long v, int width) {
        return spaces(width - decWidth(v)).dec(v);
    }

    /** {@code %-Nd}: left-aligned in {@code width} columns. */
    public TextOut decLeft(long v, int width) {
        return dec(v).spaces(width - decWidth(v));
    }

    /** {@code %0Nd} of a value: zero-padded to {@code width} columns, the sign counted in them. */
    public TextOut decZero(long v, int width) {
        if (v < 0) {
            ch('-');
            int digits = decWidth(v) - 1;
            for (int i = digits; i < width - 1; i++) {
                ch('0');
            }
            return v == Long.MIN_VALUE ? str("9223372036854775808") : udec(-v);
        }
        for (int i = decWidth(v); i < width; i++) {
            ch('0');
        }
        return udec(v);
    }

    /** Columns {@code %u} of {@code v} takes (unsigned). */
    public static int udecWidth(long v) {
        if (v < 0) {
            // 2^63 and above: 19 digits below 10^19, 20 from there
            return Long.compareUnsigned(v, TEN_TO_19) >= 0 ? 20 : 19;
        }
        return decWidth(v);
    }

    /** Columns {@code %d} of {@code v} takes. */
    private static int decWidth(long v) {
        if (v == Long.MIN_VALUE) {
            return 20;
        }
        int n = v < 0 ? 2 : 1;
        for (long t = Math.abs(v); t >= 10; t /= 10) {
            n++;
        }
        return n;
    }

    /** {@code n} spaces (none when {@code n <= 0}). */
    public TextOut spaces(int n) {
        while (n > 0) {
            int k = Math.min(n, buf.length);
            room(k);
            java.util.Arrays.fill(buf, pos, pos + k, (byte) ' ');
            pos += k;
            n -= k;
        }
        return this;
    }

    /** {@code %Ns}: right-aligned in {@code width} columns (counted in chars, as Java pads). */
    public TextOut strPad(String s, int width) {
        return spaces(width - s.length()).str(s);
    }

    /** {@code %Nx}: hex right-aligned with spaces in {@code width} columns. */
    public TextOut hexSpaces(long v, int width) {
        int digits = v == 0 ? 1 : (67 - Long.numberOfLeadingZeros(v)) / 4;
        return spaces(width - digits).hex(v);
    }

    /** {@code %x}: lowercase hex without prefix or padding. */
    public TextOut hex(long v) {
        room(16);
        int digits = v == 0 ? 1 : (67 - Long.numberOfLeadingZeros(v)) / 4;
        int p = pos + digits;
        pos = p;
        do {
            buf[--p] = HEX[(int) (v & 15)];
            v >>>= 4;
        } while (v != 0);
        return this;
    }

    /** C's {@code %#x}: "0x" and hex digits, but plain "0" for zero. */
    public TextOut hexAlt(long v) {
        if (v == 0) {
            return ch('0');
        }
        room(18);
        buf[pos++] = (byte) '0';
        buf[pos++] = (byte) 'x';
        return hex(v);
    }

    /** {@code %0Nx}: hex zero-padded to {@code width} digits. */
    public TextOut hexPad(long v, int width) {
        int digits = v == 0 ? 1 : (67 - Long.numberOfLeadingZeros(v)) / 4;
        for (int i = digits; i < width; i++) {
            ch('0');
        }
        return hex(v);
    }

    /** Two hex digits of a byte. */
    public TextOut hex2(int b) {
        room(2);
        buf[pos++] = HEX[(b >>> 4) & 15];
        buf[pos++] = HEX[b & 15];
        return this;
    }

    /** Raw access for tight loops: ensures {@code n} chars of room and returns the buffer. */
    public byte[] reserve(int n) {
        room(n);
        return buf;
    }

    public int pos() {
        return pos;
    }

    public void pos(int p) {
        pos = p;
    }

    /** {@code s} right-aligned in {@code width} columns (as printf's %*s). */
    public static String padLeft(String s, int width) {
        return s.length() >= width ? s : " ".repeat(width - s.length()) + s;
    }

    /** {@code s} left-aligned in {@code width} columns (as printf's %-*s). */
    public static String padRight(String s, int width) {
        return s.length() >= width ? s : s + " ".repeat(width - s.length());
    }

    /** {@code v} in at least {@code digits} digits, zero-filled after any minus sign (printf's %0*d). */
    public static String zeroPad(long v, int digits) {
        String d = v < 0 ? Long.toString(v).substring(1) : Long.toString(v);
        String z = d.length() >= digits ? d : "0".repeat(digits - d.length()) + d;
        return v < 0 ? "-" + z : z;
    }
}
