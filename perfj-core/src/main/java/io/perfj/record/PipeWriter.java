package io.perfj.record;

import io.perfj.perfdata.RecordType;
import io.perfj.perfdata.feature.Feature;
import io.perfj.perfdata.feature.FeatureEncoder;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

/**
 * perf's pipe mode ({@code perf record -o -}): the 16-byte header (magic, size 16), one
 * HEADER_ATTR record per event (its attr and ids), one HEADER_FEATURE record per feature known
 * at the start, then the records as they come. The stream is
 * flushed after each FINISHED_ROUND, so a reader sees every pass over the buffers at once.
 */
final class PipeWriter implements RecordSink {
    private static final long MAGIC = 0x32454c4946524550L; // "PERFILE2"
    private final OutputStream out;
    private final byte[] copy = new byte[64 * 1024];

    PipeWriter(OutputStream out, List<PerfDataWriter.Event> events) {
        this(out, events, List.of());
    }

    /** With the {@code features} perf's pipe mode sends after the attrs, one HEADER_FEATURE record each. */
    PipeWriter(OutputStream out, List<PerfDataWriter.Event> events, List<Feature> features) {
        this.out = new BufferedOutputStream(out, 256 * 1024);
        ByteBuffer h = ByteBuffer.allocate(16).order(ByteOrder.nativeOrder());
        h.putLong(MAGIC).putLong(16);
        put(h.array(), 0, 16);
        for (PerfDataWriter.Event e : events) {
            byte[] attr = e.attr().encode(ByteOrder.nativeOrder(), e.attr().size());
            int size = 8 + attr.length + 8 * e.ids().length;
            ByteBuffer r = ByteBuffer.allocate(size).order(ByteOrder.nativeOrder());
            r.putInt(RecordType.HEADER_ATTR).putShort((short) 0).putShort((short) size).put(attr);
            for (long id : e.ids()) {
                r.putLong(id);
            }
            put(r.array(), 0, size);
        }
        for (Feature f : features) {
            // struct perf_record_header_feature: the header, the feature's id, its section's bytes
            byte[] payload = FeatureEncoder.encode(f, ByteOrder.nativeOrder());
            int size = 16 + payload.length;
            if (size > 0xffff) {
                continue; // too large for one record (perf leaves such a section out of the stream too)
            }
            ByteBuffer r = ByteBuffer.allocate(size).order(ByteOrder.nativeOrder());
            r.putInt(RecordType.HEADER_FEATURE).putShort((short) 0).putShort((short) size).putLong(f.id()).put(payload);
            put(r.array(), 0, size);
        }
        flush();
    }

    @Override
    public void write(MemorySegment src, long offset, long len) {
        long done = 0;
        while (done < len) {
            int n = (int) Math.min(copy.length, len - done);
            MemorySegment.copy(src, ValueLayout.JAVA_BYTE, offset + done, copy, 0, n);
            put(copy, 0, n);
            done += n;
        }
    }

    @Override
    public void write(byte[] record) {
        put(record, 0, record.length);
        if (record.length >= 8 && ByteBuffer.wrap(record).order(ByteOrder.nativeOrder()).getInt(0) == RecordType.FINISHED_ROUND) {
            flush();
        }
    }

    private void put(byte[] b, int off, int len) {
        try {
            out.write(b, off, len);
        } catch (IOException e) {
            throw new UncheckedIOException("the live stream was closed by its reader: " + e.getMessage(), e);
        }
    }

    void flush() {
        try {
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("the live stream was closed by its reader: " + e.getMessage(), e);
        }
    }
}
