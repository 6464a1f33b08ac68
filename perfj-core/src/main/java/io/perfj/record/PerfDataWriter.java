package io.perfj.record;

import io.perfj.perfdata.EventAttr;
import io.perfj.perfdata.PerfHeader;
import io.perfj.perfdata.feature.Feature;
import io.perfj.perfdata.feature.FeatureEncoder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.List;

/**
 * Writes a perf.data file in perf's layout ({@code perf_session__write_header}): the 104-byte
 * header, every event's sample ids, the attr table (attr plus the ids' section), the data
 * section, then the feature table and sections. Records are appended as they come; the header
 * is written last, first without features ({@link #finishData}: the file can then be read to
 * find what was sampled) and again with them ({@link #finish}).
 */
public final class PerfDataWriter implements AutoCloseable, RecordSink {
    /** One event of the file: its attr (the size field says how many bytes are stored), ids and name. */
    public record Event(EventAttr attr, long[] ids, String name) {
    }

    /**
     * Small records (the side-band, FINISHED_ROUND) are gathered here; a ring's run of records
     * at least {@link #DIRECT} long goes from the ring straight to the file. Copying it through
     * a buffer too would touch as many pages of the buffer as of the ring, and in a process that
     * sleeps between wakeups every page touched costs again.
     */
    private static final int BUFFER = 256 << 10;
    private static final long DIRECT = 32 << 10;

    private final Path path;
    private final FileChannel ch;
    private final ByteOrder order = ByteOrder.nativeOrder();
    private final List<Event> events;
    private final int attrSize;
    private final long attrsOffset;
    private final long dataOffset;
    private final ByteBuffer buf = ByteBuffer.allocateDirect(BUFFER).order(order);
    private final MemorySegment bufSeg = MemorySegment.ofBuffer(buf);
    private long dataSize;

    public PerfDataWriter(Path path, List<Event> events) throws IOException {
        if (events.isEmpty()) {
            throw new IllegalArgumentException("a recording needs an event");
        }
        this.path = path;
        this.events = List.copyOf(events);
        this.attrSize = events.getFirst().attr().size();
        this.ch = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
        long ids = 0;
        for (Event e : events) {
            if (e.attr().size() != attrSize) {
                throw new IllegalArgumentException("every attr of a file has one size");
            }
            ids += 8L * e.ids().length;
        }
        attrsOffset = PerfHeader.FILE_HEADER_SIZE + ids;
        dataOffset = attrsOffset + (long) (attrSize + 16) * events.size();
        writeAttrs();
        ch.position(dataOffset);
    }

    public Path path() {
        return path;
    }

    public ByteOrder order() {
        return order;
    }

    public List<Event> events() {
        return events;
    }

    /** Bytes of records written so far. */
    public long dataSize() {
        return dataSize + buf.position();
    }

    private void writeAttrs() throws IOException {
        ByteBuffer b = ByteBuffer.allocate((int) (dataOffset - PerfHeader.FILE_HEADER_SIZE)).order(order);
        for (Event e : events) {
            for (long id : e.ids()) {
                b.putLong(id);
            }
        }
        long idPos = PerfHeader.FILE_HEADER_SIZE;
        for (Event e : events) {
            b.put(e.attr().encode(order, attrSize));
            b.putLong(idPos).putLong(8L * e.ids().length);
            idPos += 8L * e.ids().length;
        }
        writeAt(b.flip(), PerfHeader.FILE_HEADER_SIZE);
    }

    /** Appends whole records (or a piece of a run of them) held in native memory. */
    public void write(MemorySegment src, long offset, long len) {
        if (len >= DIRECT && src.isNative()) {
            flush();
            ByteBuffer b = src.asSlice(offset, len).asByteBuffer();
            try {
                while (b.hasRemaining()) {
                    dataSize += ch.write(b);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write " + path + ": " + e.getMessage(), e);
            }
            return;
        }
        long done = 0;
        while (done < len) {
            if (!buf.hasRemaining()) {
                flush();
            }
            int n = (int) Math.min(len - done, buf.remaining());
            MemorySegment.copy(src, offset + done, bufSeg, buf.position(), n);
            buf.position(buf.position() + n);
            done += n;
        }
    }

    /** Appends one record. */
    public void write(byte[] record) {
        write(MemorySegment.ofArray(record), 0, record.length);
    }

    private void flush() {
        try {
            buf.flip();
            while (buf.hasRemaining()) {
                dataSize += ch.write(buf);
            }
            buf.clear();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + path + ": " + e.getMessage(), e);
        }
    }

    private void writeAt(ByteBuffer b, long pos) throws IOException {
        while (b.hasRemaining()) {
            pos += ch.write(b, pos);
        }
    }

    /** Ends the data section and writes a header without features: the file is readable now. */
    public void finishData() throws IOException {
        flush();
        writeHeader(new long[4]);
        ch.force(false);
    }

    /**
     * Writes {@code features} after the data section (table in id order, then the sections)
     * and the final header. The file is complete and closed afterwards.
     */
    public void finish(List<Feature> features) throws IOException {
        flush();
        List<Feature> sorted = features.stream().sorted(Comparator.comparingInt(Feature::id)).toList();
        long[] bits = new long[4];
        long tablePos = dataOffset + dataSize;
        long pos = tablePos + 16L * sorted.size();
        ByteBuffer table = ByteBuffer.allocate(16 * sorted.size()).order(order);
        ch.position(pos);
        for (Feature f : sorted) {
            if ((bits[f.id() >>> 6] & (1L << (f.id() & 63))) != 0) {
                throw new IllegalArgumentException("feature " + f.name() + " given twice");
            }
            bits[f.id() >>> 6] |= 1L << (f.id() & 63);
            byte[] payload = FeatureEncoder.encode(f, order);
            table.putLong(pos).putLong(payload.length);
            writeAt(ByteBuffer.wrap(payload), pos);
            pos += payload.length;
        }
        writeAt(table.flip(), tablePos);
        ch.truncate(pos);
        writeHeader(bits);
        ch.close();
    }

    private void writeHeader(long[] features) throws IOException {
        ByteBuffer h = ByteBuffer.allocate(PerfHeader.FILE_HEADER_SIZE).order(order);
        h.putLong(PerfHeader.MAGIC2).putLong(PerfHeader.FILE_HEADER_SIZE).putLong(attrSize + 16L);
        h.putLong(attrsOffset).putLong((long) (attrSize + 16) * events.size());
        h.putLong(dataOffset).putLong(dataSize);
        h.putLong(0).putLong(0);
        for (long w : features) {
            h.putLong(w);
        }
        writeAt(h.flip(), 0);
    }

    /** Closes the file (complete only after {@link #finish}). */
    @Override
    public void close() throws IOException {
        if (ch.isOpen()) {
            ch.close();
        }
    }
}
