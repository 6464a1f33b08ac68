package io.perfj.btf.encode;

import java.util.Arrays;

/** All types, numbered globally from 1, as words (see {@link BtfWords}); start[id] is where type id begins. */
final class TypeTable {
    int[] w;
    int nw;
    int[] start;
    int count;

    TypeTable(int words, int types) {
        w = new int[Math.max(words, 16)];
        start = new int[Math.max(types, 16) + 1];
    }

    /** Reserves {@code n} words for a new type and returns its id; the words begin at start[id]. */
    int add(int n) {
        if (nw + n > w.length) {
            w = Arrays.copyOf(w, Math.max(nw + n, w.length + (w.length >> 1)));
        }
        if (count + 2 > start.length) {
            start = Arrays.copyOf(start, start.length + (start.length >> 1) + 16);
        }
        int id = ++count;
        start[id] = nw;
        nw += n;
        return id;
    }

    int info(int id) {
        return w[start[id] + 1];
    }

    int kind(int id) {
        return BtfWords.kind(w[start[id] + 1]);
    }
}
