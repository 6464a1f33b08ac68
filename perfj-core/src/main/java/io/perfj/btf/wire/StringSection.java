package io.perfj.btf.wire;

import java.nio.charset.StandardCharsets;

/**
 * A BTF string section: NUL-terminated names addressed by byte offset. Split BTF continues its
 * base's offsets: an offset below the base's length is the base's. A bad offset reads as the
 * empty name (callers that must reject one check {@link #contains} first). Names are compared,
 * hashed and copied as bytes, so the C dumper makes no String per name.
 */
public final class StringSection {
    private final byte[] data;
    private final int start;
    private final int len;
    private final StringSection base;
    private final int baseLen;

    /** The {@code len} bytes of {@code data} from {@code start}, on top of {@code base} (or null). */
    public StringSection(byte[] data, int start, int len, StringSection base) {
        if (start < 0 || len < 0 || start + len > data.length) {
            throw new IllegalArgumentException("string section outside its array");
        }
        this.data = data;
        this.start = start;
        this.len = len;
        this.base = base;
        this.baseLen = base == null ? 0 : base.length();
    }

    /** All of {@code data}, on top of {@code base} (or null). */
    public static StringSection of(byte[] data, StringSection base) {
        return new StringSection(data, 0, data.length, base);
    }

    /** Whether {@code off} is inside this section or its base's. */
    public boolean contains(int off) {
        return off >= 0 && off < length();
    }

    /** Length of this section without its base's: offsets from {@link #baseLength()} are its own. */
    public int ownLength() {
        return len;
    }

    public int baseLength() {
        return baseLen;
    }

    /** A copy of this section's own bytes. */
    public byte[] ownBytes() {
        return java.util.Arrays.copyOfRange(data, start, start + len);
    }

    /** Total length, the base's included. */
    public int length() {
        return baseLen + len;
    }

    private StringSection owner(int off) {
        StringSection s = this;
        while (off < s.baseLen && s.base != null) {
            s = s.base;
        }
        return s;
    }

    /** The name at {@code off}. */
    public String get(int off) {
        StringSection s = owner(off);
        int o = off - s.baseLen;
        if (o < 0 || o >= s.len) {
            return "";
        }
        byte[] d = s.data;
        int from = s.start + o;
        int limit = s.start + s.len;
        int e = from;
        boolean ascii = true;
        while (e < limit && d[e] != 0) {
            ascii &= d[e] >= 0;
            e++;
        }
        return new String(d, from, e - from, ascii ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8);
    }

    /** Hash of the name's bytes (31-polynomial, as String's). */
    public int hash(int off) {
        StringSection s = owner(off);
        int o = off - s.baseLen;
        if (o < 0 || o >= s.len) {
            return 0;
        }
        byte[] d = s.data;
        int limit = s.start + s.len;
        int h = 0;
        for (int i = s.start + o; i < limit && d[i] != 0; i++) {
            h = 31 * h + d[i];
        }
        return h;
    }

    /** Whether the names at two offsets are equal strings. */
    public boolean equal(int a, int b) {
        if (a == b) {
            return true;
        }
        StringSection sa = owner(a);
        StringSection sb = owner(b);
        int oa = a - sa.baseLen;
        int ob = b - sb.baseLen;
        boolean va = oa >= 0 && oa < sa.len;
        boolean vb = ob >= 0 && ob < sb.len;
        if (!va || !vb) {
            return va == vb || (va ? sa.data[sa.start + oa] == 0 : sb.data[sb.start + ob] == 0);
        }
        byte[] da = sa.data;
        byte[] db = sb.data;
        int ia = sa.start + oa;
        int ib = sb.start + ob;
        int la = sa.start + sa.len;
        int lb = sb.start + sb.len;
        for (;;) {
            byte ca = ia < la ? da[ia] : 0;
            byte cb = ib < lb ? db[ib] : 0;
            if (ca != cb) {
                return false;
            }
            if (ca == 0) {
                return true;
            }
            ia++;
            ib++;
        }
    }

    /** Whether the name at {@code off} is {@code ascii}. */
    public boolean is(int off, String ascii) {
        StringSection s = owner(off);
        int o = off - s.baseLen;
        if (o < 0 || o >= s.len) {
            return ascii.isEmpty();
        }
        int p = s.start + o;
        int limit = s.start + s.len;
        int n = ascii.length();
        if (p + n > limit) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (s.data[p + i] != ascii.charAt(i)) {
                return false;
            }
        }
        return p + n == limit || s.data[p + n] == 0;
    }

    /** Length in bytes of the name at {@code off}. */
    public int byteLength(int off) {
        StringSection s = owner(off);
        int o = off - s.baseLen;
        if (o < 0 || o >= s.len) {
            return 0;
        }
        int p = s.start + o;
        int limit = s.start + s.len;
        int e = p;
        while (e < limit && s.data[e] != 0) {
            e++;
        }
        return e - p;
    }

    public boolean isEmpty(int off) {
        StringSection s = owner(off);
        int o = off - s.baseLen;
        return o < 0 || o >= s.len || s.data[s.start + o] == 0;
    }

    /**
     * Copies the bytes of the name at {@code off} (none for a bad offset) to {@code dst} from
     * {@code p}, scanning and copying in one pass; returns the position after them, or -1 when
     * the name does not end before {@code limit} (then {@link #appendTo} is the way).
     */
    public int copy(int off, byte[] dst, int p, int limit) {
        StringSection s = owner(off);
        int o = off - s.baseLen;
        if (o < 0 || o >= s.len) {
            return p;
        }
        byte[] d = s.data;
        int end = s.start + s.len;
        for (int i = s.start + o; i < end; i++) {
            byte c = d[i];
            if (c == 0) {
                break;
            }
            if (p >= limit) {
                return -1;
            }
            dst[p++] = c;
        }
        return p;
    }

    /** Receives the bytes of a name. */
    @FunctionalInterface
    public interface Sink {
        void name(byte[] b, int from, int n);
    }

    /** Gives the bytes of the name at {@code off} (none for a bad offset) to {@code out}. */
    public void appendTo(Sink out, int off) {
        StringSection s = owner(off);
        int o = off - s.baseLen;
        if (o < 0 || o >= s.len) {
            return;
        }
        byte[] d = s.data;
        int from = s.start + o;
        int limit = s.start + s.len;
        int e = from;
        while (e < limit && d[e] != 0) {
            e++;
        }
        out.name(d, from, e - from);
    }
}
