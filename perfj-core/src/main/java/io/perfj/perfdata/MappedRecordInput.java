package io.perfj.perfdata;

import io.perfj.io.Bytes;
import io.perfj.io.FormatException;

import java.util.ArrayList;
import java.util.List;

/**
 * Walks the records of a mapped data section (or a decompressed buffer) without copying.
 *
 * <p>Over a file mapping, pages well behind the read position are handed back to the kernel
 * ({@link java.lang.foreign.MemorySegment#unload()}, i.e. {@code madvise(MADV_DONTNEED)}) so the
 * resident size stays flat however large the file is. This is safe even if a record view from
 * that range is still in use: the page is simply read again from the page cache.
 */
final class MappedRecordInput implements RecordInput {
    /** How far behind the read position pages stay resident. */
    static final long RESIDENT_WINDOW = 16L << 20;
    /** How far ahead of the read position pages are loaded, and in what steps (large mappings only). */
    static final long AHEAD = 32L << 20;
    static final long AHEAD_STEP = 8L << 20;

    private final Bytes data;
    private final boolean mapped;
    private long releasedUpTo;
    /** Where the pages handed to {@link ReadAhead} end. */
    private long aheadUpTo;
    private final List<String> warnings = new ArrayList<>();
    private long pos;
    /** The type and size of the record {@link #advance} returned last. */
    private int type;
    private int size;
    private Bytes trailing;
    private boolean done;

    MappedRecordInput(Bytes data) {
        this.data = data;
        this.mapped = data.segment().isMapped();
    }

    private void releaseBehind() {
        long upTo = pos - RESIDENT_WINDOW;
        if (upTo - releasedUpTo >= RESIDENT_WINDOW) {
            try {
                data.segment().asSlice(releasedUpTo, upTo - releasedUpTo).unload();
            } catch (RuntimeException | UnsatisfiedLinkError e) {
                // Only a memory hint; reading goes on without it.
            }
            releasedUpTo = upTo;
        }
    }

    private void readAhead() {
        long size = data.size();
        if (size < 2 * AHEAD || aheadUpTo >= size) {
            aheadUpTo = Long.MAX_VALUE; // small enough to fault in as it is read
            return;
        }
        long to = Math.min(size, aheadUpTo + AHEAD_STEP);
        ReadAhead.load(data.segment().asSlice(aheadUpTo, to - aheadUpTo));
        aheadUpTo = to;
    }

    @Override
    public RawRecord next() {
        long at = advance();
        if (at < 0) {
            return null;
        }
        int type = data.s32(at);
        return new RawRecord(data.base() + at, type, data.u16(at + 4),
                data.slice(at, data.u16(at + 6), RecordType.structure(type)), false);
    }

    /**
     * Steps over the next record without making objects and returns its position in the view, or
     * -1 at the end (with a warning when the data was cut short). The record's header has been
     * checked: its size is at least 8 and fits the data.
     */
    long advance() {
        if (done) {
            return -1;
        }
        long remaining = data.size() - pos;
        if (remaining == 0) {
            done = true;
            return -1;
        }
        long abs = data.base() + pos;
        if (remaining < RawRecord.HEADER_SIZE) {
            done = true;
            warnings.add(data.source() + ": data ends inside a record header at offset 0x" + Long.toHexString(abs)
                    + " (" + remaining + " bytes left); the recording was cut short");
            return -1;
        }
        int size = data.u16(pos + 6);
        if (size < RawRecord.HEADER_SIZE) {
            done = true;
            int type = data.s32(pos);
            throw new FormatException(data.source(), "perf_event_header", abs,
                    "record of type " + RecordType.name(type) + " (" + type + ") has size " + size
                            + ", less than its 8-byte header");
        }
        if (size > remaining) {
            done = true;
            int type = data.s32(pos);
            warnings.add(data.source() + ": record " + RecordType.name(type) + " at offset 0x" + Long.toHexString(abs)
                    + " needs " + size + " bytes but only " + remaining + " remain; the recording was cut short");
            return -1;
        }
        long at = pos;
        pos += size;
        trailing = null;
        int type = data.s32(at);
        this.type = type;
        this.size = size;
        if (type == RecordType.AUXTRACE && !skipAuxtracePayload(at, size)) {
            return at;
        }
        if (type == RecordType.HEADER_TRACING_DATA && size >= TracingDataPayload.SIZE_END) {
            long len = data.u32(at + TracingDataPayload.SIZE_AT);
            long left = data.size() - pos;
            if (len > left) {
                done = true;
                pos = data.size();
                warnings.add(TracingDataPayload.cutShort(data.source(), data.base() + at, len, left));
                return at;
            }
            trailing = data.slice(pos, len, "tracing_data");
            pos += len;
        }
        if (mapped) {
            releaseBehind();
            if (pos + AHEAD > aheadUpTo) {
                readAhead();
            }
        }
        return at;
    }

    /**
     * Steps over the trace data that follows a PERF_RECORD_AUXTRACE: its size is in the record's
     * body, not in header.size. False (with a warning, and the walk ended after this record) when
     * that size runs past the data.
     */
    private boolean skipAuxtracePayload(long at, int size) {
        if (size < AuxtracePayload.SIZE_END) {
            return true;
        }
        long payload = data.u64(at + AuxtracePayload.SIZE_AT);
        long remaining = data.size() - pos;
        if (payload < 0 || payload > remaining) {
            done = true;
            pos = data.size();
            warnings.add(AuxtracePayload.cutShort(data.source(), data.base() + at, payload, remaining));
            return false;
        }
        pos += payload;
        return true;
    }

    @Override
    public Bytes trailing() {
        return trailing;
    }

    /** The type of the record {@link #advance} returned last. */
    int type() {
        return type;
    }

    /** The header size of the record {@link #advance} returned last. */
    int size() {
        return size;
    }

    /** The data this input walks. */
    Bytes data() {
        return data;
    }

    @Override
    public List<String> warnings() {
        return warnings;
    }
}
