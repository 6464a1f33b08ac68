package io.perfj.btf.encode;

import java.util.Arrays;

/** A growable int array. */
final class IntBuf {
    int[] a;
    int n;

    IntBuf(int cap) {
        a = new int[Math.max(cap, 4)];
    }

    void add(int v) {
        if (n == a.length) {
            a = Arrays.copyOf(a, a.length + (a.length >> 1) + 16);
        }
        a[n++] = v;
    }

    int get(int i) {
        return a[i];
    }

    void set(int i, int v) {
        a[i] = v;
    }

    int size() {
        return n;
    }

    void clear() {
        n = 0;
    }

    int[] toArray() {
        return Arrays.copyOf(a, n);
    }
}
