package io.perfj.perfdata;

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
    private final OrderQueue order;
    /** Records between arrival and delivery; a handle is a slot. */
    private final RecordSlots slots = new RecordSlots();
    private boolean ended;
    /** Queued records that live on the heap, as bytes; their handles are negative in the queue. */
    private final RecordArena arena;
    private final long maxHeapHeld;

    /** Default limit on queued records: about 60 MB of record views. */
    public static final int DEFAULT_MAX_QUEUED = 500_000;
    /**
     * Limit on the memory held by queued records that live on the heap (unpacked from COMPRESSED
     * records, or read from a pipe), which unlike views of a mapped file cost memory per record:
     * past it the queue releases its earlier half as it does at its count limit. An eighth of the
     * heap, between 4 and 64 MiB: perf's rounds (one pass over the ring buffers) fit many times
     * over, and a small heap is not filled by records that are only waiting.
     */
    static final long MAX_HEAP_HELD = Math.clamp(Runtime.getRuntime().maxMemory() / 8, 4L << 20, 64L << 20);

    public OrderedRecords(RecordInput in, Evlist evlist) {
        this(in, evlist, DEFAULT_MAX_QUEUED);
    }

    public OrderedRecords(RecordInput in, Evlist evlist, int maxQueued) {
        this(in, evlist, maxQueued, MAX_HEAP_HELD);
    }

    OrderedRecords(RecordInput in, Evlist evlist, int maxQueued, long maxHeapHeld) {
        this.in = in;
        this.evlist = evlist;
        this.order = new OrderQueue(maxQueued);
        this.maxHeapHeld = maxHeapHeld;
        this.arena = new RecordArena(maxHeapHeld);
    }

    /** A format error of the input, thrown once the records read before it are delivered. */
    private io.perfj.io.FormatException damage;

    @Override
    public RawRecord next() {
        while (!order.hasReady()) {
            if (ended) {
                if (damage != null) {
                    io.perfj.io.FormatException d = damage;
                    damage = null;
                    throw d;
                }
                return null;
            }
            RawRecord r;
            try {
                r = in.next();
            } catch (io.perfj.io.FormatException e) {
                // the records queued before the damage are delivered first, in order, then the error
                damage = e;
                r = null;
            }
            if (r == null) {
                ended = true;
                order.end();
                continue;
            }
            if (r.type() == RecordType.FINISHED_ROUND) {
                rounds(r);
                continue;
            }
            if (r.isUser()) {
                order.pass(slot(r));
                continue;
            }
            long t = evlist.timeOf(r);
            if (t == Evlist.NO_TIME || t == 0) {
                // perf's ordered_events__queue refuses timestamps 0 and ~0: delivered at once
                order.pass(slot(r));
                continue;
            }
            if (!RecordArena.ownsItsBytes(r)) {
                order.enqueue(slot(r), t);
            } else {
                order.enqueue(~arena.put(r), t);
                if (arena.held() > maxHeapHeld) {
                    order.shrink();
                }
            }
        }
        long h = order.take();
        return h >= 0 ? slots.take((int) h) : arena.take(~h);
    }

    /**
     * FINISHED_ROUND records ({@link RawRecord#count()} of them): each is delivered, then releases
     * what the round before it allows. While records wait they go one at a time; a round on an
     * empty queue releases nothing and only sets the next limit to the largest time seen, as
     * every later one of the run would, so the rest of the run goes as one record. Records wait
     * for at most two rounds: the second releases everything up to the largest time seen.
     */
    private void rounds(RawRecord r) {
        int left = r.count();
        while (left > 1 && order.waiting()) {
            order.pass(slot(r.times(1)));
            order.round();
            left--;
        }
        order.pass(slot(r.times(left)));
        order.round();
    }

    private int slot(RawRecord r) {
        return slots.put(r);
    }

    /** How many times the queue limit forced a partial release (0 for well-formed recordings). */
    public long halfFlushes() {
        return order.halfFlushes();
    }

    /** How many records arrived with a time earlier than what had already been released. */
    public long unorderedCount() {
        return order.unorderedCount();
    }

    @Override
    public List<String> warnings() {
        return in.warnings();
    }
}
