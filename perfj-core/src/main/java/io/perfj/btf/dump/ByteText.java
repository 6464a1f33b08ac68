package io.perfj.btf.dump;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * A buffered byte sink for the dumpers: ASCII fast path for strings, C-style number formatting
 * by hand ({@code %u}, {@code %d}, {@code %llu}, {@code %lld}), full buffers handed to the stream.
 */
final class ByteText {
    private final OutputStream out;
    private final byte[] buf = new byte[1 << 16];
    private final byte[] digits = new byte[24];
    private int pos;

    ByteText(OutputStream out) {
        this.out = out;
    }

    private void room(int n) {
        if (buf.length - pos < n) {
            flushBuffer();
        }
    }

    private void flushBuffer() {
        try {
            out.write(buf, 0, pos);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        pos = 0;
    }

    void flush() {
        flushBuffer();
        try {
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    ByteText ch(char c) {
        room(1);
        buf[pos++] = (byte) c;
        return this;
    }

    /** Text: ASCII byte per char, anything else as UTF-8. */
    ByteText str(String s) {
        int n = s.length();
        if (n > 4096) {
            return bytes(s.getBytes(StandardCharsets.UTF_8));
        }
        room(n);
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                pos -= i;
                return bytes(s.getBytes(StandardCharsets.UTF_8));
            }
            buf[pos++] = (byte) c;
        }
        return this;
    }

    ByteText bytes(byte[] b) {
        if (b.length > buf.length) {
            flushBuffer();
            try {
                out.write(b);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return this;
        }
        room(b.length);
        System.arraycopy(b, 0, buf, pos, b.length);
        pos += b.length;
        return this;
    }

    /** C's {@code %u} of a 32-bit value. */
    ByteText u32(int v) {
        return u64(Integer.toUnsignedLong(v));
    }

    /** C's {@code %d}. */
    ByteText s32(int v) {
        return s64(v);
    }

    /** C's {@code %lld}. */
    ByteText s64(long v) {
        if (v < 0) {
            ch('-');
            if (v == Long.MIN_VALUE) {
                return str("9223372036854775808");
            }
            v = -v;
        }
        return u64(v);
    }

    /** C's {@code %llu}. */
    ByteText u64(long v) {
        room(21);
        if (v >= 0 && v < 10) {
            buf[pos++] = (byte) ('0' + v);
            return this;
        }
        int n = 0;
        if (v < 0) {
            long q = Long.divideUnsigned(v, 10);
            digits[n++] = (byte) ('0' + (v - q * 10));
            v = q;
        }
        while (v != 0) {
            long q = v / 10;
            digits[n++] = (byte) ('0' + (v - q * 10));
            v = q;
        }
        while (n > 0) {
            buf[pos++] = digits[--n];
        }
        return this;
    }
}
