package io.perfj.btf.encode;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Pool ids of names looked up by their bytes: names stored inside DIEs ({@code DW_FORM_string}),
 * which have no offset to key a cache by, and short, common names ("next", "len", "ops") are stored
 * this way in every unit; and {@code .debug_str} names seen for the first time at their offset
 * (in a relocatable object each unit has its own copies). Without this table each occurrence would
 * cost a String and a trip through the shared {@link StringPool}. One per thread; it keeps what it
 * learns across units.
 */
final class InlineNames {
    private final StringPool pool;
    /** Open addressing: entry index + 1, or 0 for free. */
    private int[] slots = new int[1 << 12];
    private int[] hash = new int[1 << 11];
    private int[] id = new int[1 << 11];
    private int[] at = new int[1 << 11];
    private int[] len = new int[1 << 11];
    private int entries;
    /** The names' bytes, one after another. */
    private byte[] text = new byte[1 << 14];
    private int textEnd;

    InlineNames(StringPool pool) {
        this.pool = pool;
    }

    /** The pool id of the {@code n} bytes at {@code b[from]} (UTF-8). */
    int id(byte[] b, int from, int n) {
        int h = 1;
        for (int i = from, e = from + n; i < e; i++) {
            h = 31 * h + b[i];
        }
        return find(b, from, n, h);
    }

    /**
     * The pool id of the NUL-terminated string at {@code b[from]} (or up to the end of {@code b}),
     * measured and hashed in one pass.
     */
    int idOfTerminated(byte[] b, int from) {
        int h = 1;
        int i = from;
        for (byte x; i < b.length && (x = b[i]) != 0; i++) {
            h = 31 * h + x;
        }
        return find(b, from, i - from, h);
    }

    private int find(byte[] b, int from, int n, int h) {
        h ^= h >>> 16;
        int mask = slots.length - 1;
        for (int s = h & mask; ; s = (s + 1) & mask) {
            int e = slots[s] - 1;
            if (e < 0) {
                return add(s, h, b, from, n);
            }
            if (hash[e] == h && len[e] == n && Arrays.equals(text, at[e], at[e] + n, b, from, from + n)) {
                return id[e];
            }
        }
    }

    private int add(int slot, int h, byte[] b, int from, int n) {
        int poolId = pool.intern(new String(b, from, n, StandardCharsets.UTF_8));
        int e = entries++;
        if (e == hash.length) {
            int c = 2 * e;
            hash = Arrays.copyOf(hash, c);
            id = Arrays.copyOf(id, c);
            at = Arrays.copyOf(at, c);
            len = Arrays.copyOf(len, c);
        }
        if (textEnd + n > text.length) {
            text = Arrays.copyOf(text, Math.max(textEnd + n, 2 * text.length));
        }
        System.arraycopy(b, from, text, textEnd, n);
        hash[e] = h;
        id[e] = poolId;
        at[e] = textEnd;
        len[e] = n;
        textEnd += n;
        slots[slot] = e + 1;
        if (2 * entries > slots.length) {
            rehash();
        }
        return poolId;
    }

    private void rehash() {
        int[] s = new int[2 * slots.length];
        int mask = s.length - 1;
        for (int e = 0; e < entries; e++) {
            int i = hash[e] & mask;
            while (s[i] != 0) {
                i = (i + 1) & mask;
            }
            s[i] = e + 1;
        }
        slots = s;
    }
}
