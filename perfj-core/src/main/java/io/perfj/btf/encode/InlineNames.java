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
    /**
     * Open addressing, two ints a slot: entry index + 1 (0 for free), then the entry's hash, so
     * that a probe past another name reads nothing else.
     */
    private int[] slots = new int[2 << 12];
    /** Entry e's pool id at {@code 3e}, where its bytes start in {@link #text} at {@code 3e + 1}, their count at {@code 3e + 2}. */
    private int[] entry = new int[3 << 11];
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
        int[] sl = slots;
        int mask = (sl.length >> 1) - 1;
        for (int s = h & mask; ; s = (s + 1) & mask) {
            int e = sl[2 * s] - 1;
            if (e < 0) {
                return add(s, h, b, from, n);
            }
            if (sl[2 * s + 1] == h) {
                int[] en = entry;
                int at = en[3 * e + 1];
                if (en[3 * e + 2] == n && Arrays.equals(text, at, at + n, b, from, from + n)) {
                    return en[3 * e];
                }
            }
        }
    }

    private int add(int slot, int h, byte[] b, int from, int n) {
        int poolId = pool.intern(new String(b, from, n, StandardCharsets.UTF_8));
        int e = entries++;
        if (3 * e == entry.length) {
            entry = Arrays.copyOf(entry, 2 * entry.length);
        }
        if (textEnd + n > text.length) {
            text = Arrays.copyOf(text, Math.max(textEnd + n, 2 * text.length));
        }
        System.arraycopy(b, from, text, textEnd, n);
        entry[3 * e] = poolId;
        entry[3 * e + 1] = textEnd;
        entry[3 * e + 2] = n;
        textEnd += n;
        slots[2 * slot] = e + 1;
        slots[2 * slot + 1] = h;
        if (4 * entries > slots.length) { // more than half the slots taken
            rehash();
        }
        return poolId;
    }

    private void rehash() {
        int[] old = slots;
        int[] s = new int[2 * old.length];
        int mask = (s.length >> 1) - 1;
        for (int o = 0; o < old.length; o += 2) {
            if (old[o] == 0) {
                continue;
            }
            int i = old[o + 1] & mask;
            while (s[2 * i] != 0) {
                i = (i + 1) & mask;
            }
            s[2 * i] = old[o];
            s[2 * i + 1] = old[o + 1];
        }
        slots = s;
    }
}
