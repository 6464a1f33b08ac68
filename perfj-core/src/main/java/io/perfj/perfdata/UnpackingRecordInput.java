package io.perfj.perfdata;

import io.perfj.io.Bytes;
import io.perfj.io.FormatException;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * Passes records through, unpacking COMPRESSED (81) and COMPRESSED2 (83) records in place and
 * feeding pipe-mode HEADER_ATTR / HEADER_FEATURE records to the {@link PerfData}. A compressed
 * record itself is returned first, then the records it held; a record may be split across two
 * compressed records, so the unfinished tail is carried over.
 */
final class UnpackingRecordInput implements RecordInput {
    static final int DEFAULT_BOUND = 64 << 20;
    static final int MAX_BOUND = 1 << 30;

    private final RecordInput base;
    private final PerfData data;
    private final List<String> warnings = new ArrayList<>();
    private ZstdStream zstd;
    private byte[] tail = new byte[0];
    private MappedRecordInput inner;
    private long innerOffset;
    private RawRecord pendingUnpack;

    UnpackingRecordInput(RecordInput base, PerfData data) {
        this.base = base;
        this.data = data;
    }

    @Override
    public RawRecord next() {
        while (true) {
            if (pendingUnpack != null) {
                RawRecord c = pendingUnpack;
                pendingUnpack = null;
                unpack(c);
            }
            if (inner != null) {
                RawRecord r = nextInner();
                if (r != null) {
                    return r;
                }
                inner = null;
            }
            RawRecord r = base.next();
            if (r == null) {
                if (tail.length > 0) {
                    warnings.add(data.name() + ": " + tail.length + " bytes of an unfinished record remain after the last compressed record");
                    tail = new byte[0];
                }
                return null;
            }
            switch (r.type()) {
                case RecordType.COMPRESSED, RecordType.COMPRESSED2 -> pendingUnpack = r;
                case RecordType.HEADER_ATTR -> {
                    if (data.isPipe()) {
                        data.onHeaderAttr(r);
                    }
                }
                case RecordType.HEADER_FEATURE -> data.onHeaderFeature(r);
                default -> {
                }
            }
            return r;
        }
    }

    private RawRecord nextInner() {
        RawRecord r = inner.next();
        if (r == null) {
            return null;
        }
        return new RawRecord(innerOffset, r.type(), r.misc(), r.bytes(), true);
    }

    private void unpack(RawRecord r) {
        Bytes b = r.bytes();
        long payloadOff = RawRecord.HEADER_SIZE;
        long payloadLen = b.size() - RawRecord.HEADER_SIZE;
        if (r.type() == RecordType.COMPRESSED2) {
            long dataSize = b.u64(RawRecord.HEADER_SIZE);
            payloadOff += 8;
            if (dataSize < 0 || dataSize > b.size() - payloadOff) {
                throw new FormatException(data.name(), "PERF_RECORD_COMPRESSED2.data_size", r.offset() + 8,
                        "data size " + dataSize + " exceeds the " + (b.size() - payloadOff) + "-byte record");
            }
            payloadLen = dataSize;
        }
        if (zstd == null) {
            zstd = new ZstdStream();
        }
        byte[] out;
        try {
            out = zstd.feed(b.bytes(payloadOff, payloadLen), bound());
        } catch (ZstdStream.TooLarge e) {
            throw new FormatException(data.name(), "PERF_RECORD_COMPRESSED", r.offset(), e.getMessage());
        } catch (RuntimeException e) {
            if (e instanceof FormatException) {
                throw e;
            }
            throw new FormatException(data.name(), "PERF_RECORD_COMPRESSED", r.offset(),
                    "zstd data is corrupt (" + e.getMessage() + ")");
        }
        byte[] all = out;
        if (tail.length > 0) {
            all = new byte[tail.length + out.length];
            System.arraycopy(tail, 0, all, 0, tail.length);
            System.arraycopy(out, 0, all, tail.length, out.length);
        }
        int complete = completePrefix(all, r);
        tail = java.util.Arrays.copyOfRange(all, complete, all.length);
        Bytes decoded = Bytes.of(MemorySegment.ofArray(all).asSlice(0, complete), data.header().order(),
                data.name(), "decompressed data", r.offset());
        inner = new MappedRecordInput(decoded);
        innerOffset = r.offset();
    }

    /** Length of the run of whole records at the start of {@code buf}. */
    private int completePrefix(byte[] buf, RawRecord from) {
        Bytes b = Bytes.of(buf, data.header().order(), data.name(), "decompressed data");
        int pos = 0;
        while (buf.length - pos >= RawRecord.HEADER_SIZE) {
            int size = b.u16(pos + 6);
            if (size < RawRecord.HEADER_SIZE) {
                throw new FormatException(data.name(), "perf_event_header in PERF_RECORD_COMPRESSED", from.offset(),
                        "decompressed record at +0x" + Integer.toHexString(pos) + " has size " + size);
            }
            if (size > buf.length - pos) {
                break;
            }
            pos += size;
        }
        return pos;
    }

    private int bound() {
        Bytes f = data.features().get(FeatureId.COMPRESSED);
        if (f != null && f.has(16, 4)) {
            long mmapLen = f.u32(16);
            return (int) Math.min(MAX_BOUND, Math.max(DEFAULT_BOUND / 4, mmapLen * 4));
        }
        return DEFAULT_BOUND;
    }

    @Override
    public List<String> warnings() {
        List<String> all = new ArrayList<>(base.warnings());
        all.addAll(warnings);
        return all;
    }
}
