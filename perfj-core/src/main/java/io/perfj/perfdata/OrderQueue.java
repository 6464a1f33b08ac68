package io.perfj.perfdata;

import java.util.Arrays;

/**
 * perf's ordered-events queue (tools/perf/util/ordered-events.c) on primitive handles: the
 * ordering rules of {@link OrderedRecords} without any record objects, so that a reader can
 * order records it keeps only as positions.
 *
 * <p>A caller feeds records in file order: {@link #pass} for records delivered at once (perf's own
 * records, records without a timestamp), {@link #enqueue} for timed kernel records, {@link #round}
 * after a FINISHED_ROUND has been passed, {@link #end} at the end. Handles come out of
 * {@link #take} in delivery order: at each round the queue releases, sorted by time (stable for
 * equal times), every record not later than the largest timestamp seen up to the previous round.
 */
final class OrderQueue {
    private long[] handles = new long[1024];
    private long[] times = new long[1024];
    private int queued;
    private long[] ready = new long[1024];
    private int readyHead;
    private int readyTail;
    private long maxTimestamp;
    private long nextFlush;
    private boolean anyTime;
    private long unordered;
    private long lastFlushed;
    private long halfFlushes;
    private final int maxQueued;
    /** The sort's index arrays, kept from flush to flush (fresh ones each round were a good part of its cost). */
    private int[] sortA = new int[0];
    private int[] sortB = new int[0];

    OrderQueue(int maxQueued) {
        this.maxQueued = Math.max(2, maxQueued);
    }

    boolean hasReady() {
        return readyHead != readyTail;
    }

    /** The next handle in delivery order; only when {@link #hasReady()}. */
    long take() {
        long h = ready[readyHead++];
        if (readyHead == readyTail) {
            readyHead = 0;
            readyTail = 0;
        }
        return h;
    }

    /** A record delivered at once, after everything released before it. */
    void pass(long handle) {
        if (readyTail == ready.length) {
            reserve(1);
        }
        ready[readyTail++] = handle;
    }

    /** Room for n more ready handles. */
    private void reserve(int n) {
        if (readyTail + n <= ready.length) {
            return;
        }
        if (readyHead > 0) {
            System.arraycopy(ready, readyHead, ready, 0, readyTail - readyHead);
            readyTail -= readyHead;
            readyHead = 0;
        }
        if (readyTail + n > ready.length) {
            ready = Arrays.copyOf(ready, Math.max(ready.length * 2, readyTail + n));
        }
    }

    void enqueue(long handle, long t) {
        if (anyTime && Long.compareUnsigned(t, lastFlushed) < 0) {
            unordered++;
        }
        if (!anyTime || Long.compareUnsigned(t, maxTimestamp) > 0) {
            maxTimestamp = t;
        }
        anyTime = true;
        if (queued == handles.length) {
            handles = Arrays.copyOf(handles, queued * 2);
            times = Arrays.copyOf(times, queued * 2);
        }
        handles[queued] = handle;
        times[queued] = t;
        queued++;
        if (queued >= maxQueued) {
            flushHalf();
        }
    }

    /** Whether timed records are queued (not yet released). */
    boolean waiting() {
        return queued > 0;
    }

    /** A FINISHED_ROUND was passed: release what the previous round allows. */
    void round() {
        if (!anyTime) {
            return;
        }
        flush(nextFlush, false);
        nextFlush = maxTimestamp;
    }

    /** The input ended: release everything. */
    void end() {
        flush(-1L, true);
    }

    /** Releases the earlier half of what is queued, as at the count limit (for a caller's own limit). */
    void shrink() {
        if (queued > 0) {
            flushHalf();
        }
    }

    /**
     * Keeps memory bounded when rounds are huge or missing (perf's OE_FLUSH__HALF, which perf
     * uses when its queue reaches its size limit): releases the records in the earlier half of
     * the queued time span.
     */
    private void flushHalf() {
        long first = -1;
        long last = 0;
        for (int i = 0; i < queued; i++) {
            if (first == -1 || Long.compareUnsigned(times[i], first) < 0) {
                first = times[i];
            }
            if (Long.compareUnsigned(times[i], last) > 0) {
                last = times[i];
            }
        }
        long mid = first + (last - first) / 2;
        int before = queued;
        flush(mid, false);
        if (queued == before || queued >= maxQueued) {
            flush(-1L, true);
        }
        halfFlushes++;
    }

    /**
     * Releases queued records with time &lt;= limit (all when {@code all}), sorted, stable. Only
     * what is released is sorted (each record once, when it goes); the records that stay are
     * moved to the front in arrival order, so ties still go in arrival order.
     */
    private void flush(long limit, boolean all) {
        if (queued == 0) {
            return;
        }
        if (sortA.length < queued) {
            sortA = new int[Math.max(queued, handles.length)];
            sortB = new int[sortA.length];
        }
        int released = 0;
        for (int i = 0; i < queued; i++) {
            if (all || Long.compareUnsigned(times[i], limit) <= 0) {
                sortA[released++] = i;
            }
        }
        if (released == 0) {
            return;
        }
        int[] idx = sortIndexes(times, sortA, sortB, released);
        reserve(released);
        for (int k = 0; k < released; k++) {
            ready[readyTail++] = handles[idx[k]];
        }
        lastFlushed = times[idx[released - 1]];
        if (released == queued) {
            queued = 0;
            return;
        }
        int kept = 0;
        for (int i = 0; i < queued; i++) {
            if (Long.compareUnsigned(times[i], limit) > 0) {
                handles[kept] = handles[i];
                times[kept] = times[i];
                kept++;
            }
        }
        queued = kept;
    }

    /**
     * Indexes 0..n-1 ordered by unsigned time, ties in index order (a stable sort). Records arrive
     * as a few runs already in time order (one per CPU buffer perf drained), so this finds those
     * runs and merges neighbouring runs until one is left: one pass when the input is sorted.
     */
    static int[] sortedByTime(long[] times, int n) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = i;
        }
        return sortIndexes(times, a, new int[n], n);
    }

    /**
     * Sorts the n indexes {@code a[0..n)} (increasing) stably by their times, with {@code b}
     * (at least n long) as scratch; returns the array that holds the order, a or b.
     */
    private static int[] sortIndexes(long[] times, int[] a, int[] b, int n) {
        // run boundaries: runs[r] is where run r starts, runs[count] == n
        int[] runs = new int[16];
        int count = 0;
        runs[count++] = 0;
        for (int i = 1; i < n; i++) {
            if (Long.compareUnsigned(times[a[i - 1]], times[a[i]]) > 0) {
                if (count + 1 >= runs.length) {
                    runs = Arrays.copyOf(runs, runs.length * 2);
                }
                runs[count++] = i;
            }
        }
        if (count == 1) {
            return a;
        }
        runs[count] = n;
        while (count > 1) {
            int out = 0;
            for (int r = 0; r < count; r += 2) {
                int lo = runs[r];
                if (r + 1 == count) {
                    System.arraycopy(a, lo, b, lo, n - lo);
                    runs[out++] = lo;
                    break;
                }
                int mid = runs[r + 1];
                int hi = runs[r + 2];
                merge(times, a, b, lo, mid, hi);
                runs[out++] = lo;
            }
            runs[out] = n;
            count = out;
            int[] t = a;
            a = b;
            b = t;
        }
        return a;
    }

    /** Stable merge of the sorted index runs a[lo..mid) and a[mid..hi) into b[lo..hi). */
    private static void merge(long[] times, int[] a, int[] b, int lo, int mid, int hi) {
        int i = lo;
        int j = mid;
        int k = lo;
        if (Long.compareUnsigned(times[a[mid - 1]], times[a[mid]]) <= 0) {
            System.arraycopy(a, lo, b, lo, hi - lo);
            return;
        }
        long ti = times[a[i]];
        long tj = times[a[j]];
        while (true) {
            if (Long.compareUnsigned(tj, ti) < 0) {
                b[k++] = a[j++];
                if (j == hi) {
                    break;
                }
                tj = times[a[j]];
            } else {
                b[k++] = a[i++];
                if (i == mid) {
                    break;
                }
                ti = times[a[i]];
            }
        }
        while (i < mid) {
            b[k++] = a[i++];
        }
        while (j < hi) {
            b[k++] = a[j++];
        }
    }

    /** How many records arrived with a time earlier than what had already been released. */
    long unorderedCount() {
        return unordered;
    }

    /** How many times the queue limit forced a partial release (0 for well-formed recordings). */
    long halfFlushes() {
        return halfFlushes;
    }
}
