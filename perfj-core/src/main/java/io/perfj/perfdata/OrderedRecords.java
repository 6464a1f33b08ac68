package io.perfj.perfdata;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;

/**
 * perf's ordered-events queue (tools/perf/util/ordered-events.c) over a {@link RecordInput}.
 *
 * <p>Timed kernel records are queued. At each FINISHED_ROUND the queue releases, sorted by time
 * (stable for equal times), every record not later than the largest timestamp seen up to the
 * previous round, then remembers the largest timestamp seen so far for the next round. Records
 * without a timestamp and perf's own records pass through at once; at the end the rest is
 * released. This reproduces the order in which perf delivers records to its tools.
 */
public final class OrderedRecords implements RecordInput {
    private final RecordInput in;
    private final Evlist evlist;
    private final ArrayDeque<RawRecord> ready = new ArrayDeque<>();
    private RawRecord[] queue = new RawRecord[1024];
    private long[] times = new long[1024];
    private int queued;
    private long seq;
    private long maxTimestamp;
    private long nextFlush;
    private boolean anyTime;
    private boolean ended;
    private long unordered;
    private long lastFlushed;
    private long halfFlushes;
    private final int maxQueued;

    /** Default limit on queued records: about 60 MB of record views. */
    public static final int DEFAULT_MAX_QUEUED = 500_000;

    public OrderedRecords(RecordInput in, Evlist evlist) {
        this(in, evlist, DEFAULT_MAX_QUEUED);
    }

    public OrderedRecords(RecordInput in, Evlist evlist, int maxQueued) {
        this.in = in;
        this.evlist = evlist;
        this.maxQueued = Math.max(2, maxQueued);
    }

    @Override
    public RawRecord next() {
        while (ready.isEmpty()) {
            if (ended) {
                return null;
            }
            RawRecord r = in.next();
            if (r == null) {
                ended = true;
                flush(-1L, true);
                continue;
            }
            if (r.isUser()) {
                ready.add(r);
                if (r.type() == RecordType.FINISHED_ROUND) {
                    flushRound();
                }
                continue;
            }
            long t = evlist.timeOf(r);
            if (t == Evlist.NO_TIME || t == 0) {
                // perf's ordered_events__queue refuses timestamps 0 and ~0: delivered at once
                ready.add(r);
                continue;
            }
            enqueue(r, t);
        }
        return ready.poll();
    }

    private void enqueue(RawRecord r, long t) {
        if (anyTime && Long.compareUnsigned(t, lastFlushed) < 0) {
            unordered++;
        }
        if (!anyTime || Long.compareUnsigned(t, maxTimestamp) > 0) {
            maxTimestamp = t;
        }
        anyTime = true;
        if (queued == queue.length) {
            queue = Arrays.copyOf(queue, queued * 2);
            times = Arrays.copyOf(times, queued * 2);
        }
        queue[queued] = r;
        times[queued] = t;
        queued++;
        seq++;
        if (queued >= maxQueued) {
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

    /** How many times the queue limit forced a partial release (0 for well-formed recordings). */
    public long halfFlushes() {
        return halfFlushes;
    }

    private void flushRound() {
        if (!anyTime) {
            return;
        }
        flush(nextFlush, false);
        nextFlush = maxTimestamp;
    }

    /** Releases queued records with time &lt;= limit (all when {@code all}), sorted, stable. */
    private void flush(long limit, boolean all) {
        if (queued == 0) {
            return;
        }
        int[] idx = sortedByTime(times, queued);
        int[] keep = new int[queued];
        int kept = 0;
        for (int i : idx) {
            if (all || Long.compareUnsigned(times[i], limit) <= 0) {
                ready.add(queue[i]);
                lastFlushed = times[i];
            } else {
                keep[kept++] = i;
            }
        }
        // what stays keeps its arrival order (ties then still go in arrival order)
        Arrays.sort(keep, 0, kept);
        RawRecord[] nq = new RawRecord[Math.max(1024, kept * 2)];
        long[] nt = new long[nq.length];
        for (int k = 0; k < kept; k++) {
            nq[k] = queue[keep[k]];
            nt[k] = times[keep[k]];
        }
        queue = nq;
        times = nt;
        queued = kept;
    }

    /**
     * Indexes 0..n-1 ordered by unsigned time, ties in index order (a stable sort). Records mostly
     * arrive in time order, so the common case is one pass; otherwise a bottom-up merge sort on
     * primitive arrays.
     */
    static int[] sortedByTime(long[] times, int n) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = i;
        }
        boolean sorted = true;
        for (int i = 1; i < n && sorted; i++) {
            sorted = Long.compareUnsigned(times[i - 1], times[i]) <= 0;
        }
        if (sorted) {
            return a;
        }
        int[] b = new int[n];
        for (int width = 1; width < n; width *= 2) {
            for (int lo = 0; lo < n; lo += 2 * width) {
                int mid = Math.min(lo + width, n);
                int hi = Math.min(lo + 2 * width, n);
                int i = lo;
                int j = mid;
                int k = lo;
                if (mid >= hi || Long.compareUnsigned(times[a[mid - 1]], times[a[mid]]) <= 0) {
                    System.arraycopy(a, lo, b, lo, hi - lo);
                    continue;
                }
                while (i < mid && j < hi) {
                    b[k++] = Long.compareUnsigned(times[a[j]], times[a[i]]) < 0 ? a[j++] : a[i++];
                }
                while (i < mid) {
                    b[k++] = a[i++];
                }
                while (j < hi) {
                    b[k++] = a[j++];
                }
            }
            int[] t = a;
            a = b;
            b = t;
        }
        return a;
    }

    /** How many records arrived with a time earlier than what had already been released. */
    public long unorderedCount() {
        return unordered;
    }

    @Override
    public List<String> warnings() {
        return in.warnings();
    }
}
