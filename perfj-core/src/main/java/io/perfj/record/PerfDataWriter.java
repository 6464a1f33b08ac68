package io.perfj.record;

import io.perfj.perfdata.EventAttr;
import io.perfj.perfdata.PerfHeader;
import io.perfj.perfdata.feature.Feature;
import io.perfj.perfdata.feature.FeatureEncoder;

import java.io.IOException;
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
 * section, then the feature table and sections. The header is written first, with the attrs and
 * a data size of 0, as perf writes it (a reader then takes the data section to the end of the
 * file). Records are appended as they come; at the end of every pass over the rings what is
 * buffered goes to the file and the header's data size is brought up to it
 * ({@link #endOfPass}), so a recorder killed at any point leaves a file that every reader, perf
 * 6.1 included (it reads no file of data size 0), reads up to its last pass. At the end the
 * header is written again,
 * first with the data size and without features ({@link #finishData}: the file can then be read
 * to find what was sampled), then with them ({@link #finish}). A failed write is an
 * {@link OutputFailed}; {@link #salvage} then leaves the file reading up to its last whole record.
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
    private FileChannel ch;
    private final ByteOrder order = ByteOrder.nativeOrder();
    private final List<Event> events;
    private final int attrSize;
    private final long attrsOffset;
    private final long dataOffset;
    private final ByteBuffer buf = ByteBuffer.allocateDirect(BUFFER).order(order);
    private final MemorySegment bufSeg = MemorySegment.ofBuffer(buf);
    private long dataSize;
    /** {@link #dataSize} at the end of the last pass written whole: records end there. */
    private long committed;

    /** A write to the file failed (a full disk, a quota, an I/O error): one line saying which and why. */
    public static final class OutputFailed extends RecordException {
        public OutputFailed(Path path, IOException cause) {
            super("cannot write " + path + ": " + reason(cause), cause);
        }

        private static String reason(IOException e) {
            if (e instanceof java.nio.file.AccessDeniedException) {
                return "permission denied";
            }
            if (e instanceof java.nio.file.NoSuchFileException) {
                return "no such directory";
            }
            if (e instanceof java.nio.file.FileSystemException f && f.getReason() != null) {
                return f.getReason();
            }
            return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        }
    }

    /**
     * Creates the file and writes its header (data size 0, no features), sample ids and attrs.
     *
     * @throws OutputFailed when the file cannot be made or written
     */
    public PerfDataWriter(Path path, List<Event> events) throws IOException {
        if (events.isEmpty()) {
            throw new IllegalArgumentException("a recording needs an event");
        }
        this.path = path;
        this.events = List.copyOf(events);
        this.attrSize = events.getFirst().attr().size();
        long ids = 0;
        for (Event e : events) {
            if (e.attr().size() != attrSize) {
                throw new IllegalArgumentException("every attr of a file has one size");
            }
            ids += 8L * e.ids().length;
        }
        attrsOffset = PerfHeader.FILE_HEADER_SIZE + ids;
        dataOffset = attrsOffset + (long) (attrSize + 16) * events.size();
        FileChannel c = null;
        try {
            c = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING);
            this.ch = c;
            writeAttrs();
            writeHeader(new long[4]);
            ch.position(dataOffset);
        } catch (IOException e) {
            if (c != null) {
                try {
                    c.close();
                } catch (IOException closing) {
                    e.addSuppressed(closing);
                }
            }
            throw new OutputFailed(path, e);
        }
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
                throw new OutputFailed(path, e);
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
            // what did not go out is dropped: the file ends at its last whole record (salvage)
            buf.clear();
            throw new OutputFailed(path, e);
        }
    }

    /**
     * Ends a pass over the rings (its FINISHED_ROUND written): what is buffered goes to the file,
     * so a recorder killed now loses nothing of it.
     */
    @Override
    public void endOfPass() {
        flush();
        committed = dataSize;
        // and the header's data size: perf 6.1 reads no file whose data size is 0, and a reader
        // of this one now stops at the end of the pass, never in a torn record
        sizeField.clear();
        sizeField.putLong(0, committed);
        try {
            writeAt(sizeField, DATA_SIZE_FIELD);
        } catch (IOException e) {
            throw new OutputFailed(path, e);
        }
    }

    /** perf_file_header.data.size's offset. */
    private static final long DATA_SIZE_FIELD = 48;
    private final ByteBuffer sizeField = ByteBuffer.allocateDirect(8).order(order);

    /**
     * After an {@link OutputFailed}: the file ends with the last whole record written (the
     * records of the failed pass that reached the file whole are kept, a torn one is cut off:
     * truncating needs no new blocks of a full disk), and the header's data size says so. If
     * even that fails, the header of the last pass stands.
     */
    public void salvage() {
        if (!ch.isOpen()) {
            return;
        }
        buf.clear();
        try {
            long end = lastWholeRecord(committed, dataSize);
            ch.truncate(dataOffset + end);
            dataSize = end;
            writeHeader(new long[4]);
        } catch (IOException e) {
            // the header written at the end of the last pass stands
        }
    }

    /** The end of the last whole record in the data written from {@code from} (a record's start) to {@code to}. */
    private long lastWholeRecord(long from, long to) throws IOException {
        ByteBuffer h = ByteBuffer.allocate(8).order(order);
        long at = from;
        while (to - at >= 8) {
            h.clear();
            while (h.hasRemaining()) {
                if (ch.read(h, dataOffset + at + h.position()) < 0) {
                    return at;
                }
            }
            int size = Short.toUnsignedInt(h.getShort(6));
            if (size < 8 || at + size > to) {
                break;
            }
            at += size;
        }
        return at;
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
