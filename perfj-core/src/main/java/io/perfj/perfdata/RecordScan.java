package io.perfj.perfdata;

import io.perfj.io.Bytes;

import java.util.List;

/**
 * The records of a mapped recording in perf's delivery order (the same order as
 * {@link OrderedRecords}) for tools that need only a sample's fixed fields: no object is made for
 * a sample. A sample's event, ip, pid, tid, time, cpu and period are read in place at offsets
 * computed once per event; every other record is handed out as a {@link RawRecord}.
 *
 * <p>Walking, truncation warnings and header errors are those of the ordinary reader. The fields
 * after a sample's fixed part (read values, callchain and later) are not looked at, so a sample
 * damaged only there is counted rather than refused. Only for files whose records can be read in
 * place: not pipe mode, not compressed ({@link PerfData#scan()} says).
 */
public final class RecordScan implements AutoCloseable {
    private final PerfData data;
    private final Evlist evlist;
    private final MappedRecordInput in;
    private final Bytes bytes;
    private final OrderQueue order = new OrderQueue(OrderedRecords.DEFAULT_MAX_QUEUED);
    private final Layout[] layouts;
    /** A sample's handle: its position in the low bits, its event's index above. */
    private static final int POS_BITS = 44;
    private static final long POS_MASK = (1L << POS_BITS) - 1;
    private final int idPos;
    private final java.util.Map<Long, Layout> byId = new java.util.HashMap<>();
    private final RecordSlots slots = new RecordSlots();
    private boolean ended;
    private boolean warnedCompressed;
    private final List<String> warnings = new java.util.ArrayList<>();

    // the current record
    private long pos;
    private RawRecord record;
    private Layout layout;

    /** Where a sample's fixed fields are, for one event ({@link SampleLayout}); -1 when not sampled. */
    private record Layout(int index, Evsel evsel, int ip, int tid, int time, int cpu, int period, int end, long defaultPeriod) {
        static Layout of(Evsel e) {
            SampleLayout l = e.layout();
            return new Layout(e.index(), e, l.ip(), l.tid(), l.time(), l.cpu(), l.period(), l.fixedEnd(),
                    e.attr().samplePeriod());
        }
    }

    /** Whether a data section of this size with this many events fits the handles. */
    static boolean fits(long sectionSize, int events) {
        return sectionSize < POS_MASK && events < (1 << (63 - POS_BITS));
    }

    RecordScan(PerfData data, Bytes section) {
        this.data = data;
        this.evlist = data.evlist();
        this.in = new MappedRecordInput(section);
        this.bytes = section;
        List<Evsel> evsels = evlist.evsels();
        layouts = new Layout[evsels.size()];
        for (int i = 0; i < layouts.length; i++) {
            layouts[i] = Layout.of(evsels.get(i));
            for (long id : evsels.get(i).ids()) {
                byId.putIfAbsent(id, layouts[i]);
            }
        }
        idPos = evsels.size() <= 1 ? -1 : Evlist.sampleIdPos(evsels.getFirst().attr().sampleType());
    }

    /** Moves to the next record in delivery order; false at the end. */
    public boolean next() {
        while (!order.hasReady()) {
            if (ended) {
                record = null;
                layout = null;
                return false;
            }
            long at = in.advance();
            if (at < 0) {
                ended = true;
                order.end();
                continue;
            }
            int type = in.type();
            if (type == RecordType.SAMPLE) {
                if (layouts.length == 0) {
                    throw Evlist.sampleWithoutEvent(data.name(), bytes.base() + at);
                }
                int size = in.size();
                Layout l = layoutOf(at, size);
                if (l != null && size >= l.end) {
                    long t = l.time < 0 ? Evlist.NO_TIME : bytes.u64(at + l.time);
                    // the handle carries the event, so delivery need not read the id again
                    long h = at | ((long) l.index << POS_BITS);
                    if (t == Evlist.NO_TIME || t == 0) {
                        order.pass(h);
                    } else {
                        order.enqueue(h, t);
                    }
                    continue;
                }
            }
            // anything else (and a sample too short for its fixed fields) goes as a record
            RawRecord r = recordAt(at);
            if (!warnedCompressed && (type == RecordType.COMPRESSED || type == RecordType.COMPRESSED2)) {
                warnedCompressed = true;
                warnings.add(data.name() + ": compressed records without the COMPRESSED header feature were not unpacked");
            }
            if (r.isUser()) {
                order.pass(~slot(r));
                if (type == RecordType.FINISHED_ROUND) {
                    order.round();
                }
                continue;
            }
            long t = evlist.timeOf(r);
            if (t == Evlist.NO_TIME || t == 0) {
                order.pass(~slot(r));
            } else {
                order.enqueue(~slot(r), t);
            }
        }
        long h = order.take();
        if (h >= 0) {
            pos = h & POS_MASK;
            record = null;
            layout = layouts[(int) (h >>> POS_BITS)];
        } else {
            record = slots.take((int) ~h);
            layout = null;
        }
        return true;
    }

    private Layout layoutOf(long at, int size) {
        if (layouts.length == 0) {
            return null;
        }
        if (idPos < 0 || size < RawRecord.HEADER_SIZE + idPos + 8) {
            return layouts[0];
        }
        long id = bytes.u64(at + RawRecord.HEADER_SIZE + idPos);
        if (id == lastId && lastLayout != null) {
            return lastLayout;
        }
        Layout l = byId.get(id);
        if (l == null) {
            return layouts[0];
        }
        lastId = id;
        lastLayout = l;
        return l;
    }

    private long lastId;
    private Layout lastLayout;

    private RawRecord recordAt(long at) {
        int type = bytes.s32(at);
        int misc = bytes.u16(at + 4);
        int size = bytes.u16(at + 6);
        return new RawRecord(bytes.base() + at, type, misc, bytes.slice(at, size, RecordType.structure(type)), false);
    }

    private int slot(RawRecord r) {
        return slots.put(r);
    }

    /** Whether the current record is a sample read in place (the accessors below apply). */
    public boolean isSample() {
        return layout != null;
    }

    /** The current record's file offset. */
    public long offset() {
        return record != null ? record.offset() : bytes.base() + pos;
    }

    /** The current record when it is not a sample read in place. */
    public RawRecord record() {
        return record != null ? record : recordAt(pos);
    }

    public Evsel evsel() {
        return layout.evsel;
    }

    public long ip() {
        return layout.ip < 0 ? 0 : bytes.u64(pos + layout.ip);
    }

    public int pid() {
        return layout.tid < 0 ? -1 : bytes.s32(pos + layout.tid);
    }

    public int tid() {
        return layout.tid < 0 ? -1 : bytes.s32(pos + layout.tid + 4);
    }

    public long time() {
        return layout.time < 0 ? -1 : bytes.u64(pos + layout.time);
    }

    public int cpu() {
        return layout.cpu < 0 ? -1 : bytes.s32(pos + layout.cpu);
    }

    public long period() {
        return layout.period < 0 ? layout.defaultPeriod : bytes.u64(pos + layout.period);
    }

    /** {@code PERF_RECORD_MISC_CPUMODE_MASK} bits of the sample's misc. */
    public int cpumode() {
        return bytes.u16(pos + 4) & 7;
    }

    /** Nothing to release: the mapping is the recording's (kept for callers' try-with-resources). */
    @Override
    public void close() {
    }

    /** Warnings about the data (a recording cut short), once the end was reached. */
    public List<String> warnings() {
        List<String> all = new java.util.ArrayList<>(in.warnings());
        all.addAll(warnings);
        return all;
    }
}
