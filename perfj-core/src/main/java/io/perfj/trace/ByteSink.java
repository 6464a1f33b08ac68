package io.perfj.trace;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** A growable byte buffer: trace text is bytes (comm names, strings from the recording), not UTF-16. */
public final class ByteSink {
    private byte[] b = new byte[256];
    private int n;

    public ByteSink put(int c) {
        if (n == b.length) {
            b = Arrays.copyOf(b, b.length * 2);
        }
        b[n++] = (byte) c;
        return this;
    }

    public ByteSink put(byte[] s) {
        return put(s, 0, s.length);
    }

    public ByteSink put(byte[] s, int from, int len) {
        if (n + len > b.length) {
            b = Arrays.copyOf(b, Math.max(b.length * 2, n + len));
        }
        System.arraycopy(s, from, b, n, len);
        n += len;
        return this;
    }

    /** ASCII (or UTF-8) text. */
    public ByteSink put(String s) {
        return put(s.getBytes(StandardCharsets.UTF_8));
    }

    public int size() {
        return n;
    }

    public void reset() {
        n = 0;
    }

    public byte[] array() {
        return b;
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(b, n);
    }

    @Override
    public String toString() {
        return new String(b, 0, n, StandardCharsets.UTF_8);
    }
}
