package io.perfj.perfdata;

import io.perfj.io.Bytes;
import io.perfj.io.FormatException;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/** Reads records from a pipe; each record is copied into its own small array. */
final class StreamRecordInput implements RecordInput {
    private final InputStream in;
    private final String name;
    private final List<String> warnings = new ArrayList<>();
    private ByteOrder order = ByteOrder.LITTLE_ENDIAN;
    private long offset;
    private boolean done;
    private Bytes trailing;

    StreamRecordInput(InputStream in, String name, long startOffset) {
        this.in = in;
        this.name = name;
        this.offset = startOffset;
    }

    void order(ByteOrder o) {
        this.order = o;
    }

    @Override
    public RawRecord next() {
        if (done) {
            return null;
        }
        byte[] head = new byte[RawRecord.HEADER_SIZE];
        int n = readUpTo(head, 0, head.length);
        if (n == 0) {
            done = true;
            return null;
        }
        if (n < head.length) {
            done = true;
            warnings.add(name + ": stream ends inside a record header at offset 0x" + Long.toHexString(offset));
            return null;
        }
        Bytes h = Bytes.of(head, order, name, "perf_event_header");
        int type = h.s32(0);
        int misc = h.u16(4);
        int size = h.u16(6);
        if (size < RawRecord.HEADER_SIZE) {
            done = true;
            throw new FormatException(name, "perf_event_header", offset,
                    "record of type " + RecordType.name(type) + " (" + type + ") has size " + size
                            + ", less than its 8-byte header");
        }
        byte[] all = new byte[size];
        System.arraycopy(head, 0, all, 0, head.length);
        int got = readUpTo(all, head.length, size - head.length);
        if (got < size - head.length) {
            done = true;
            warnings.add(name + ": record " + RecordType.name(type) + " at offset 0x" + Long.toHexString(offset)
                    + " needs " + size + " bytes but the stream ended; the recording was cut short");
            return null;
        }
        Bytes b = Bytes.of(java.lang.foreign.MemorySegment.ofArray(all), order, name,
                RecordType.structure(type), offset);
        RawRecord r = new RawRecord(offset, type, misc, b, false);
        long at = offset;
        offset += size;
        trailing = null;
        if (type == RecordType.AUXTRACE && size >= AuxtracePayload.SIZE_END) {
            readPayload(at, b.u64(AuxtracePayload.SIZE_AT));
        }
        if (type == RecordType.HEADER_TRACING_DATA && size >= TracingDataPayload.SIZE_END) {
            readTracingData(at, b.u32(TracingDataPayload.SIZE_AT));
        }
        return r;
    }

    /**
     * Reads the tracing_data blob after a HEADER_TRACING_DATA record. readNBytes grows its buffer
     * as bytes arrive, so a bogus length costs only what the stream really holds.
     */
    private void readTracingData(long at, long len) {
        if (len > Integer.MAX_VALUE - 16) {
            done = true;
            warnings.add(TracingDataPayload.cutShort(name, at, len, 0) + " (larger than perfj reads from a pipe)");
            return;
        }
        int got = readBlob(len, "tracing_data");
        if (got < len) {
            warnings.add(TracingDataPayload.cutShort(name, at, len, got));
        }
    }

    /**
     * Reads the {@code len} bytes after a record into {@link #trailing()}; returns how many the
     * stream had (fewer: the stream ended, reading stops, no trailing bytes).
     */
    private int readBlob(long len, String structure) {
        byte[] blob;
        try {
            blob = in.readNBytes((int) len);
        } catch (IOException e) {
            throw new UncheckedIOException(name + ": " + e.getMessage(), e);
        }
        long start = offset;
        offset += blob.length;
        if (blob.length < len) {
            done = true;
            return blob.length;
        }
        trailing = Bytes.of(java.lang.foreign.MemorySegment.ofArray(blob), order, name, structure, start);
        return blob.length;
    }

    @Override
    public Bytes trailing() {
        return trailing;
    }

    /**
     * Reads an AUXTRACE record's trace data, kept as the record's {@link #trailing()} (a pipe
     * cannot be read again: the decoder gets it from there); a payload too large to hold is
     * stepped over.
     */
    private void readPayload(long at, long payload) {
        if (payload >= 0 && payload <= MAX_KEPT_PAYLOAD) {
            int got = readBlob(payload, "AUXTRACE data");
            if (got < payload) {
                warnings.add(AuxtracePayload.cutShort(name, at, payload, got));
            }
            return;
        }
        skipPayload(at, payload);
    }

    /** The largest AUXTRACE payload kept in memory from a pipe. */
    private static final long MAX_KEPT_PAYLOAD = 1L << 30;

    /** Reads past an AUXTRACE record's trace data. */
    private void skipPayload(long at, long payload) {
        long skipped = 0;
        byte[] buf = new byte[(int) Math.min(Math.max(payload, 0), 1 << 16)];
        while (payload > 0 && skipped < payload) {
            int n = readUpTo(buf, 0, (int) Math.min(buf.length, payload - skipped));
            if (n == 0) {
                break;
            }
            skipped += n;
        }
        offset += skipped;
        if (payload < 0 || skipped < payload) {
            done = true;
            warnings.add(AuxtracePayload.cutShort(name, at, payload, skipped));
        }
    }

    private int readUpTo(byte[] buf, int off, int len) {
        try {
            return in.readNBytes(buf, off, len);
        } catch (IOException e) {
            throw new UncheckedIOException(name + ": " + e.getMessage(), e);
        }
    }

    static byte[] readFully(InputStream in, int len, String name, String structure, long offset) {
        byte[] b = new byte[len];
        int n;
        try {
            n = in.readNBytes(b, 0, len);
        } catch (IOException e) {
            throw new UncheckedIOException(name + ": " + e.getMessage(), e);
        }
        if (n < len) {
            throw new FormatException(name, structure, offset + n, "input ends after " + n + " of " + len + " bytes");
        }
        return b;
    }

    @Override
    public List<String> warnings() {
        return warnings;
    }
}
