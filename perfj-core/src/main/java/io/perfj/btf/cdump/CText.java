package io.perfj.btf.cdump;

import io.perfj.btf.wire.StringSection;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** The C text being written: a growable byte buffer, ASCII fast path, UTF-8 otherwise. */
final class CText implements StringSection.Sink {
    private static final byte[] TABS = "\t\t\t\t\t\t\t\t\t\t\t\t\t".getBytes(StandardCharsets.US_ASCII);

    private byte[] buf;
    private int len;

    CText(int capacity) {
        buf = new byte[Math.max(capacity, 64)];
    }

    private void ensure(int more) {
        if (len + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + more));
        }
    }

    /** Appends ASCII text (keywords, punctuation, numbers): one char, one byte. */
    @SuppressWarnings("deprecation")
    CText add(String s) {
        int n = s.length();
        ensure(n);
        s.getBytes(0, n, buf, len);
        len += n;
        return this;
    }

    @Override
    public void name(byte[] b, int from, int n) {
        add(b, from, n);
    }

    CText add(byte[] b, int from, int n) {
        ensure(n);
        System.arraycopy(b, from, buf, len, n);
        len += n;
        return this;
    }

    CText add(char c) {
        ensure(1);
        buf[len++] = (byte) c;
        return this;
    }

    CText add(long v) {
        return add(Long.toString(v));
    }

    CText addUnsigned(int v) {
        return add(Integer.toUnsignedString(v));
    }

    CText addUnsigned(long v) {
        return add(Long.toUnsignedString(v));
    }

    /** libbpf's indent: one tab per level, at most 13. */
    CText indent(int lvl) {
        int n = Math.min(Math.max(lvl, 0), TABS.length);
        ensure(n);
        System.arraycopy(TABS, 0, buf, len, n);
        len += n;
        return this;
    }

    int length() {
        return len;
    }

    byte[] toByteArray() {
        return Arrays.copyOf(buf, len);
    }

    void writeTo(OutputStream out) throws IOException {
        out.write(buf, 0, len);
    }

    @Override
    public String toString() {
        return new String(buf, 0, len, StandardCharsets.UTF_8);
    }
}
