package io.perfj.perfdata;

import io.perfj.io.Bytes;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class OrderedRecordsTest {
    private static final EventAttr ATTR = new EventAttr(1, 128, 0, 1, SampleFormat.TIME | SampleFormat.PERIOD,
            0, 1L << 18, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

    /** A SAMPLE with TIME and PERIOD; the period holds a sequence number to check stability. */
    private static RawRecord sample(long time, long seq) {
        ByteBuffer b = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(RecordType.SAMPLE).putShort((short) 1).putShort((short) 24).putLong(time).putLong(seq);
        return new RawRecord(seq, RecordType.SAMPLE, 1, Bytes.of(b.array(), ByteOrder.LITTLE_ENDIAN, "t", "r"), false);
    }

    private static RawRecord round() {
        ByteBuffer b = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(RecordType.FINISHED_ROUND).putShort((short) 0).putShort((short) 8);
        return new RawRecord(-1, RecordType.FINISHED_ROUND, 0, Bytes.of(b.array(), ByteOrder.LITTLE_ENDIAN, "t", "r"), false);
    }

    private static List<RawRecord> order(List<RawRecord> in) {
        return order(in, OrderedRecords.DEFAULT_MAX_QUEUED);
    }

    private static List<RawRecord> order(List<RawRecord> in, int maxQueued) {
        Evlist ev = new Evlist();
        ev.add(ATTR, new long[] {1});
        Iterator<RawRecord> it = in.iterator();
        OrderedRecords o = new OrderedRecords(() -> it.hasNext() ? it.next() : null, ev, maxQueued);
        List<RawRecord> out = new ArrayList<>();
        for (RawRecord r; (r = o.next()) != null; ) {
            out.add(r);
        }
        return out;
    }

    /**
     * Records that are copies on the heap wait as bytes in arena blocks; past the byte budget the
     * queue releases its earlier half, as at its count limit, and every record still comes out
     * exactly once with its bytes.
     */
    @Test
    void heapRecordsAreBoundedByBytes() {
        List<RawRecord> in = new ArrayList<>();
        for (int i = 0; i < 50_000; i++) {
            in.add(sample(1_000_000 - i, i)); // all out of order, no rounds
        }
        Evlist ev = new Evlist();
        ev.add(ATTR, new long[] {1});
        for (long budget : new long[] {64 << 10, 1L << 30}) {
            Iterator<RawRecord> it = in.iterator();
            OrderedRecords o = new OrderedRecords(() -> it.hasNext() ? it.next() : null, ev,
                    OrderedRecords.DEFAULT_MAX_QUEUED, budget);
            boolean[] seen = new boolean[in.size()];
            long last = Long.MIN_VALUE;
            boolean sorted = true;
            for (RawRecord r; (r = o.next()) != null; ) {
                int seq = (int) r.bytes().u64(16);
                assertEquals(1_000_000 - seq, r.bytes().u64(8));
                assertEquals(false, seen[seq], "record " + seq + " twice");
                seen[seq] = true;
                sorted &= r.bytes().u64(8) >= last;
                last = r.bytes().u64(8);
            }
            for (int i = 0; i < seen.length; i++) {
                assertEquals(true, seen[i], "record " + i + " lost");
            }
            assertEquals(budget > 1 << 20, o.halfFlushes() == 0, budget + ": " + o.halfFlushes() + " half flushes");
            assertEquals(budget > 1 << 20, sorted);
        }
    }

    @Test
    void roundsAreReleasedOneRoundLate() {
        List<RawRecord> in = List.of(sample(30, 0), sample(10, 1), round(), sample(20, 2), sample(50, 3), round(),
                sample(40, 4), round());
        List<RawRecord> out = order(in);
        // A FINISHED_ROUND is delivered before the records it releases (perf dumps it, then
        // flushes). Round 1 releases nothing (the limit starts at 0); round 2 releases t <= 30,
        // i.e. 10, 20, 30; round 3 releases t <= 50, i.e. 40, 50.
        List<Long> seqs = out.stream().map(r -> r.type() == RecordType.FINISHED_ROUND ? -1 : r.bytes().u64(16)).toList();
        assertEquals(List.of(-1L, -1L, 1L, 2L, 0L, -1L, 4L, 3L), seqs);
    }

    @Provide
    Arbitrary<List<List<Integer>>> rounds() {
        return Arbitraries.integers().between(0, 1000).list().ofMaxSize(30).list().ofMaxSize(12);
    }

    /**
     * Whenever the input keeps perf's promise (nothing in a round is older than what was already
     * seen two rounds earlier), the output is all records, sorted by time, stable for equal times.
     */
    @Property(tries = 300)
    void sortsEverythingWhenPerfsPromiseHolds(@ForAll("rounds") List<List<Integer>> deltas) {
        List<RawRecord> in = new ArrayList<>();
        List<long[]> expected = new ArrayList<>();
        long maxTwoBack = 0;
        long maxPrev = 0;
        long maxAll = 0;
        long seq = 0;
        for (List<Integer> round : deltas) {
            for (int d : round) {
                long t = maxTwoBack + d;
                in.add(sample(t, seq));
                expected.add(new long[] {t, seq});
                maxAll = Math.max(maxAll, t);
                seq++;
            }
            in.add(round());
            maxTwoBack = maxPrev;
            maxPrev = maxAll;
        }
        expected.sort(Comparator.<long[]>comparingLong(a -> a[0]).thenComparingLong(a -> a[1]));
        List<long[]> got = order(in).stream().filter(r -> r.type() == RecordType.SAMPLE)
                .map(r -> new long[] {r.bytes().u64(8), r.bytes().u64(16)}).toList();
        assertEquals(expected.size(), got.size());
        for (int i = 0; i < got.size(); i++) {
            assertEquals(expected.get(i)[0], got.get(i)[0], "time at " + i);
            assertEquals(expected.get(i)[1], got.get(i)[1], "sequence at " + i);
        }
    }

    @Provide
    Arbitrary<List<Integer>> runs() {
        return Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(8, Arbitraries.integers().between(1, 4)),
                net.jqwik.api.Tuple.of(1, Arbitraries.integers().between(5, 2_000))).list().ofMinSize(1).ofMaxSize(12);
    }

    /**
     * A run of rounds that comes as one record ({@link RawRecord#count()}, as unpacked from
     * compressed records) is delivered as that many single rounds are: the same records in the
     * same order, each round in its place among them.
     */
    @Property(tries = 300)
    void aRunOfRoundsDeliversWhatAsManySingleRoundsDo(@ForAll("rounds") List<List<Integer>> times,
                                                     @ForAll("runs") List<Integer> runs) {
        List<RawRecord> asRuns = new ArrayList<>();
        List<RawRecord> single = new ArrayList<>();
        long seq = 0;
        for (int i = 0; i < times.size(); i++) {
            for (int t : times.get(i)) {
                asRuns.add(sample(t, seq));
                single.add(sample(t, seq));
                seq++;
            }
            int n = runs.get(i % runs.size());
            asRuns.add(round().times(n));
            for (int k = 0; k < n; k++) {
                single.add(round());
            }
        }
        List<RawRecord> got = order(asRuns);
        assertEquals(oneByOne(order(single)), oneByOne(got));
        assertEquals(true, got.size() <= seq + 3L * times.size(), got.size() + " records delivered");
    }

    /** Each delivered record as its time and sequence, a round as -1, {@link RawRecord#count()} times. */
    private static List<Long> oneByOne(List<RawRecord> out) {
        List<Long> all = new ArrayList<>();
        for (RawRecord r : out) {
            for (int i = 0; i < r.count(); i++) {
                if (r.type() == RecordType.FINISHED_ROUND) {
                    all.add(-1L);
                } else {
                    all.add(r.bytes().u64(8));
                    all.add(r.bytes().u64(16));
                }
            }
        }
        return all;
    }

    /** Without any FINISHED_ROUND, a queue limit releases the earlier half by time, bounded memory. */
    @Test
    void queueLimitReleasesTheEarlierHalf() {
        List<RawRecord> in = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            in.add(sample(100 - i * 10, i));
        }
        List<Long> times = order(in, 4).stream().map(r -> r.bytes().u64(8)).toList();
        // At 4 queued (100, 90, 80, 70) the half up to 85 is released: 70, 80; and so on.
        assertEquals(List.of(70L, 80L, 50L, 60L, 30L, 40L, 10L, 20L, 90L, 100L), times);
    }

    /** Whatever the input, every record comes out exactly once. */
    @Property(tries = 200)
    void neverLosesOrDuplicates(@ForAll("rounds") List<List<Integer>> times) {
        List<RawRecord> in = new ArrayList<>();
        long seq = 0;
        for (List<Integer> round : times) {
            for (int t : round) {
                in.add(sample(t, seq++));
            }
            in.add(round());
        }
        List<Long> got = order(in).stream().filter(r -> r.type() == RecordType.SAMPLE).map(r -> r.bytes().u64(16)).sorted().toList();
        List<Long> all = new ArrayList<>();
        for (long i = 0; i < seq; i++) {
            all.add(i);
        }
        assertEquals(all, got);
    }
}
