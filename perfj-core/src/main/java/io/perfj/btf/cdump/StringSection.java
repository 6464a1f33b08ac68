package io.perfj.btf.cdump;

import java.nio.charset.StandardCharsets;

/**
 * A BTF string section: NUL-terminated names addressed by byte offset. Split BTF continues its
 * base's offsets: an offset below the base's length is the base's. A bad offset reads as the
 * empty name.
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
    int hash(int off) {
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
    boolean equal(int a, int b) {
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
    boolean is(int off, String ascii) {
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
    int byteLength(int off) {
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

    boolean isEmpty(int off) {
        StringSection s = owner(off);
        int o = off - s.baseLen;
        return o < 0 || o >= s.len || s.data[s.start + o] == 0;
    }

    void appendTo(CText out, int off) {
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
        out.add(d, from, e - from);
    }
}
