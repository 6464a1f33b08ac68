package io.perfj.perfdata;

import io.perfj.io.FormatException;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The recorded events and the sample-id index that tells which event a record belongs to, and
 * where its timestamp sits, without decoding it (perf's {@code evlist__event2evsel} and
 * {@code evsel__parse_sample_timestamp}). In pipe mode events are added as HEADER_ATTR records
 * arrive.
 */
public final class Evlist {
    public static final long NO_TIME = -1L;

    private final List<Evsel> evsels = new ArrayList<>();
    private final List<SampleLayout> layouts = new ArrayList<>();
    private final Map<Long, Evsel> byId = new HashMap<>();
    private long lastId = Long.MIN_VALUE;
    private Evsel lastEvsel;

    public void add(EventAttr attr, long[] ids) {
        Evsel e = new Evsel(evsels.size(), attr, ids);
        evsels.add(e);
        layouts.add(e.layout());
        for (long id : ids) {
            byId.putIfAbsent(id, e);
        }
        lastEvsel = null;
    }

    /** Where the samples of an event of this list keep their fixed-size fields (computed once). */
    public SampleLayout layout(Evsel e) {
        return layouts.get(e.index());
    }

    public List<Evsel> evsels() {
        return Collections.unmodifiableList(evsels);
    }

    public boolean isEmpty() {
        return evsels.isEmpty();
    }

    public Evsel first() {
        return evsels.getFirst();
    }

    /**
     * The error for a sample that arrives while no event is defined (an attr section shorter than
     * one attr, or a pipe-mode SAMPLE before any HEADER_ATTR). perf's evlist__parse_sample finds no
     * evsel for it and stops reading there ("failed to process type: 9"); its layout is unknown, so
     * nothing after it can be trusted either.
     */
    public static FormatException sampleWithoutEvent(String source, long offset) {
        return new FormatException(source, "PERF_RECORD_SAMPLE", offset,
                "sample with no event defined before it (no perf_event_attr in the attr section or HEADER_ATTR record)");
    }

    public Optional<Evsel> byId(long id) {
        return Optional.ofNullable(byId.get(id));
    }

    /** Position of the sample id inside a SAMPLE record's body (after the header), or -1. */
    static int sampleIdPos(long st) {
        int at = SampleLayout.of(st).idPosition();
        return at < 0 ? -1 : at - RawRecord.HEADER_SIZE;
    }

    /** Bytes from the end of a non-sample record to its id in the sample_id_all trailer, or -1. */
    static int trailerIdFromEnd(long st) {
        if ((st & SampleFormat.IDENTIFIER) != 0) {
            return 8;
        }
        if ((st & SampleFormat.ID) == 0) {
            return -1;
        }
        int from = 8; // the ID itself
        if ((st & SampleFormat.STREAM_ID) != 0) from += 8;
        if ((st & SampleFormat.CPU) != 0) from += 8;
        return from;
    }

    /** The event a record belongs to; the first event when the record carries no usable id. */
    public Evsel evselOf(RawRecord r) {
        if (evsels.size() <= 1) {
            return evsels.isEmpty() ? null : evsels.getFirst();
        }
        Evsel first = evsels.getFirst();
        long st = first.attr().sampleType();
        long id;
        if (r.type() == RecordType.SAMPLE) {
            int pos = sampleIdPos(st);
            if (pos < 0 || !r.bytes().has(RawRecord.HEADER_SIZE + pos, 8)) {
                return first;
            }
            id = r.bytes().u64(RawRecord.HEADER_SIZE + pos);
        } else {
            if (!first.attr().sampleIdAll()) {
                return first;
            }
            int from = trailerIdFromEnd(st);
            if (from < 0 || r.size() - from < RawRecord.HEADER_SIZE) {
                return first;
            }
            id = r.bytes().u64(r.size() - from);
        }
        if (id == lastId && lastEvsel != null) {
            return lastEvsel;
        }
        Evsel e = byId.get(id);
        if (e == null) {
            return first;
        }
        lastId = id;
        lastEvsel = e;
        return e;
    }

    /**
     * The record's timestamp as perf orders by it, or {@link #NO_TIME} when it carries none (those
     * records are delivered at once, not sorted).
     */
    public long timeOf(RawRecord r) {
        if (evsels.isEmpty() || r.isUser()) {
            return NO_TIME;
        }
        Evsel e = evselOf(r);
        EventAttr a = e.attr();
        long st = a.sampleType();
        if ((st & SampleFormat.TIME) == 0) {
            return NO_TIME;
        }
        if (r.type() == RecordType.SAMPLE) {
            int pos = layouts.get(e.index()).time();
            return r.bytes().has(pos, 8) ? r.bytes().u64(pos) : NO_TIME;
        }
        if (!a.sampleIdAll()) {
            return NO_TIME;
        }
        int trailer = SampleFormat.idTrailerSize(st);
        int pos = r.size() - trailer + ((st & SampleFormat.TID) != 0 ? 8 : 0);
        if (pos < RawRecord.HEADER_SIZE || !r.bytes().has(pos, 8)) {
            return NO_TIME;
        }
        return r.bytes().u64(pos);
    }
}
