package io.perfj.btf.cdump;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** The C text being written: a growable byte buffer, ASCII fast path, UTF-8 otherwise. */
final class CText {
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

    CText add(String s) {
        int n = s.length();
        ensure(n);
        byte[] b = buf;
        int p = len;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                len = p;
                return addUtf8(s.substring(i));
            }
            b[p++] = (byte) c;
        }
        len = p;
        return this;
    }

    private CText addUtf8(String s) {
        byte[] u = s.getBytes(StandardCharsets.UTF_8);
        ensure(u.length);
        System.arraycopy(u, 0, buf, len, u.length);
        len += u.length;
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
