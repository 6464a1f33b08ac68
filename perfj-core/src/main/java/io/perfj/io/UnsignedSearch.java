package io.perfj.io;

/** Binary search over addresses held as unsigned longs. */
public final class UnsignedSearch {
    private UnsignedSearch() {
    }

    /** Index of the last element of sorted {@code a} that is at or below {@code key} (unsigned), or -1. */
    public static int floor(long[] a, long key) {
        int lo = 0;
        int hi = a.length - 1;
        int best = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(a[mid], key) <= 0) {
                best = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return best;
    }
}
