package io.perfj.perfdata;

import io.perfj.io.Bytes;
import io.perfj.io.Cursor;
import io.perfj.io.FormatException;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An opened perf.data recording (linux tools/perf/Documentation/perf.data-file-format.txt).
 *
 * <p>A regular file is mapped read-only as one {@link MemorySegment} (any size, including past
 * 2 GiB); nothing is copied until a record is decoded. A file written in pipe mode is detected
 * by its 16-byte header and read as a stream over the mapping; standard input is read as a
 * stream. In pipe mode attrs and features arrive as records: {@link #evlist()} and
 * {@link #features()} fill in as {@link #records()} is consumed.
 */
public final class PerfData implements AutoCloseable {
    private final String name;
    private final PerfHeader header;
    private final Arena arena;
    private final Bytes file;
    private final InputStream stream;
    private final Evlist evlist = new Evlist();
    private final Map<Integer, Bytes> features = new LinkedHashMap<>();
    private final List<String> warnings = new ArrayList<>();
    private final long fileSize;
    private Section dataSection;
    private boolean dataSizeWasZero;

    private PerfData(String name, PerfHeader header, Arena arena, Bytes file, InputStream stream, long fileSize) {
        this.name = name;
        this.header = header;
        this.arena = arena;
        this.file = file;
        this.stream = stream;
        this.fileSize = fileSize;
    }

    /** Opens a file, or standard input when {@code path} is "-". */
    public static PerfData open(Path path) {
        if (path.toString().equals("-")) {
            return openStream(System.in, "<stdin>");
        }
        String name = path.toString();
        if (java.nio.file.Files.isDirectory(path)) {
            throw new UncheckedIOException(new IOException("failed to open " + name + ": Is a directory"));
        }
        Arena arena = Arena.ofShared();
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            long size = ch.size();
            MemorySegment seg = size == 0 ? MemorySegment.NULL.reinterpret(0)
                    : ch.map(FileChannel.MapMode.READ_ONLY, 0, size, arena);
            return of(seg, name, arena);
        } catch (IOException e) {
            arena.close();
            String why = switch (e) {
                case java.nio.file.NoSuchFileException x -> "No such file or directory";
                case java.nio.file.AccessDeniedException x -> "Permission denied";
                case java.nio.file.FileSystemException x when x.getReason() != null -> x.getReason();
                default -> e.getMessage();
            };
            throw new UncheckedIOException("failed to open " + name + ": " + why, e);
        } catch (RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    /**
     * A recording held in memory (file or pipe layout), read exactly as a mapped file is;
     * {@code name} names it in messages. The memory must stay unchanged while the recording is
     * in use.
     */
    public static PerfData of(MemorySegment bytes, String name) {
        return of(bytes, name, null);
    }

    private static PerfData of(MemorySegment seg, String name, Arena arena) {
        Bytes bytes = Bytes.of(seg, ByteOrder.LITTLE_ENDIAN, name, "perf_file_header", 0);
        PerfHeader h = readHeader(bytes);
        bytes = bytes.withOrder(h.order());
        PerfData d = new PerfData(name, h, arena, bytes, null, seg.byteSize());
        if (!h.pipe()) {
            d.readFileMode();
        }
        return d;
    }

    /** Reads a pipe-mode stream (e.g. standard input). */
    public static PerfData openStream(InputStream in, String name) {
        byte[] head = StreamRecordInput.readFully(in, PerfHeader.PIPE_HEADER_SIZE, name, "perf_pipe_file_header", 0);
        Bytes b = Bytes.of(head, ByteOrder.LITTLE_ENDIAN, name, "perf_pipe_file_header");
        PerfHeader h = readHeader(b);
        if (!h.pipe()) {
            throw new FormatException(name, "perf_pipe_file_header", 0,
                    "standard input holds a file-mode recording; pass it as a file with -i FILE");
        }
        return new PerfData(name, h, null, null, in, -1);
    }

    static PerfHeader readHeader(Bytes b) {
        if (!b.has(0, 16)) {
            throw new FormatException(b.source(), "perf_file_header", 0,
                    "file is " + b.size() + " bytes, too short for a perf.data header");
        }
        long magic = b.u64(0);
        ByteOrder order;
        int version;
        if (magic == PerfHeader.MAGIC2) {
            order = ByteOrder.LITTLE_ENDIAN;
            version = 1;
        } else if (magic == Long.reverseBytes(PerfHeader.MAGIC2)) {
            order = ByteOrder.BIG_ENDIAN;
            version = 1;
        } else if (magic == PerfHeader.MAGIC1) {
            order = ByteOrder.LITTLE_ENDIAN;
            version = 0;
        } else if (magic == Long.reverseBytes(PerfHeader.MAGIC1)) {
            order = ByteOrder.BIG_ENDIAN;
            version = 0;
        } else {
            throw new FormatException(b.source(), "perf_file_header", 0,
                    String.format("bad magic 0x%016x, not a perf.data file", magic));
        }
        b = b.withOrder(order);
        long size = b.u64(8);
        if (size == PerfHeader.PIPE_HEADER_SIZE) {
            return new PerfHeader(order, true, version, size, 0, new Section(0, 0), new Section(0, 0),
                    new Section(0, 0), new long[4]);
        }
        if (size < PerfHeader.FILE_HEADER_SIZE - 32 || size > 4096) {
            throw new FormatException(b.source(), "perf_file_header", 8, "header size " + size + " is not valid");
        }
        if (!b.has(0, PerfHeader.FILE_HEADER_SIZE)) {
            throw new FormatException(b.source(), "perf_file_header", 0,
                    "file is " + b.size() + " bytes, the header needs " + PerfHeader.FILE_HEADER_SIZE);
        }
        long[] feat = new long[4];
        if (size >= PerfHeader.FILE_HEADER_SIZE) {
            for (int i = 0; i < 4; i++) {
                feat[i] = b.u64(72 + 8L * i);
            }
        }
        return new PerfHeader(order, false, version, size, b.u64(16),
                new Section(b.u64(24), b.u64(32)), new Section(b.u64(40), b.u64(48)),
                new Section(b.u64(56), b.u64(64)), feat);
    }

    private void readFileMode() {
        long fsize = file.size();
        Section attrs = header.attrs();
        long attrSize = header.attrSize();
        if (attrSize < EventAttr.SIZE_VER0 + 16 || attrSize > 4096) {
            throw new FormatException(name, "perf_file_header.attr_size", 16, "attr entry size " + attrSize + " is not valid");
        }
        if (!inFile(attrs, fsize)) {
            throw new FormatException(name, "perf_file_header.attrs", 24,
                    "section [0x" + Long.toHexString(attrs.offset()) + ", +0x" + Long.toHexString(attrs.size())
                            + ") lies outside the " + fsize + "-byte file");
        }
        long n = attrs.size() / attrSize;
        for (long i = 0; i < n; i++) {
            long off = attrs.offset() + i * attrSize;
            Bytes entry = file.slice(off, attrSize, "perf_file_attr");
            EventAttr attr = EventAttr.read(entry);
            long idsPos = Math.min(attr.size(), attrSize - 16);
            Section ids = new Section(entry.u64(idsPos), entry.u64(idsPos + 8));
            if (!inFile(ids, fsize) || ids.size() % 8 != 0) {
                throw new FormatException(name, "perf_file_attr.ids", off + idsPos,
                        "id section [0x" + Long.toHexString(ids.offset()) + ", +0x" + Long.toHexString(ids.size())
                                + ") lies outside the file");
            }
            Bytes idb = file.slice(ids.offset(), ids.size(), "sample id array");
            long[] idv = new long[(int) (ids.size() / 8)];
            for (int k = 0; k < idv.length; k++) {
                idv[k] = idb.u64(8L * k);
            }
            evlist.add(attr, idv);
        }
        Section data = header.data();
        if (data.offset() < 0 || data.offset() > fsize) {
            throw new FormatException(name, "perf_file_header.data", 40,
                    "data offset 0x" + Long.toHexString(data.offset()) + " lies outside the " + fsize + "-byte file");
        }
        if (data.size() == 0) {
            dataSizeWasZero = true;
            warnings.add("WARNING: The " + name + " file's data size field is 0 which is unexpected.\n"
                    + "Was the 'perf record' command properly terminated?");
            dataSection = new Section(data.offset(), fsize - data.offset());
        } else if (Long.compareUnsigned(data.size(), fsize - data.offset()) > 0) {
            warnings.add(name + ": data section [0x" + Long.toHexString(data.offset()) + ", +0x"
                    + Long.toHexString(data.size()) + ") runs past the end of the " + fsize
                    + "-byte file; reading what is there");
            dataSection = new Section(data.offset(), fsize - data.offset());
        } else {
            dataSection = data;
            readFeatureTable();
        }
    }

    private void readFeatureTable() {
        List<Integer> bits = header.featureBits();
        long tableOff = dataSection.end();
        long fsize = file.size();
        for (int i = 0; i < bits.size(); i++) {
            long entryOff = tableOff + 16L * i;
            if (!file.has(entryOff, 16)) {
                warnings.add(name + ": feature section table at offset 0x" + Long.toHexString(entryOff)
                        + " is cut short; features from " + FeatureId.name(bits.get(i)) + " on are missing");
                return;
            }
            Section s = new Section(file.u64(entryOff), file.u64(entryOff + 8));
            int bit = bits.get(i);
            if (!inFile(s, fsize)) {
                warnings.add(name + ": feature " + FeatureId.name(bit) + " section at offset 0x"
                        + Long.toHexString(entryOff) + " points outside the file ([0x"
                        + Long.toHexString(s.offset()) + ", +0x" + Long.toHexString(s.size()) + ")); skipped");
                continue;
            }
            features.put(bit, file.slice(s.offset(), s.size(), "feature " + FeatureId.name(bit)));
        }
    }

    private static boolean inFile(Section s, long fsize) {
        return s.offset() >= 0 && s.size() >= 0 && s.offset() <= fsize && s.size() <= fsize - s.offset();
    }

    public String name() {
        return name;
    }

    public PerfHeader header() {
        return header;
    }

    public boolean isPipe() {
        return header.pipe();
    }

    /** Size of the file, or -1 for a stream. */
    public long fileSize() {
        return fileSize;
    }

    public Evlist evlist() {
        return evlist;
    }

    /** Raw feature payloads by feature id; in pipe mode filled as HEADER_FEATURE records are read. */
    public Map<Integer, Bytes> features() {
        return Collections.unmodifiableMap(features);
    }

    void putFeature(int id, Bytes payload) {
        features.put(id, payload);
    }

    /** Problems found while opening that did not stop reading (perf prints such warnings too). */
    public List<String> warnings() {
        return Collections.unmodifiableList(warnings);
    }

    public boolean dataSizeWasZero() {
        return dataSizeWasZero;
    }

    /** The data section actually read (for a zero data size, the rest of the file). */
    public Section dataSection() {
        return dataSection;
    }

    /** The whole mapped file, or null for a stream. */
    public Bytes fileBytes() {
        return file;
    }

    /**
     * The records in file order, COMPRESSED records unpacked in place. In pipe mode HEADER_ATTR
     * and HEADER_FEATURE records update {@link #evlist()} and {@link #features()} as they pass.
     */
    public RecordInput records() {
        RecordInput base;
        if (stream != null) {
            StreamRecordInput s = new StreamRecordInput(stream, name, PerfHeader.PIPE_HEADER_SIZE);
            s.order(header.order());
            base = s;
        } else if (header.pipe()) {
            Bytes rest = file.slice(PerfHeader.PIPE_HEADER_SIZE, file.size() - PerfHeader.PIPE_HEADER_SIZE, "data");
            base = new MappedRecordInput(rest);
        } else {
            base = new MappedRecordInput(file.slice(dataSection.offset(), dataSection.size(), "data"));
        }
        return new UnpackingRecordInput(base, this);
    }

    /**
     * The records in delivery order with samples read in place ({@link RecordScan}), or null when
     * this recording's records cannot be read in place (a stream, pipe mode, compressed records):
     * then use {@link #orderedRecords()}.
     */
    public RecordScan scan() {
        if (stream != null || header.pipe() || features.containsKey(FeatureId.COMPRESSED)
                || !RecordScan.fits(dataSection.size(), evlist.evsels().size())) {
            return null;
        }
        return new RecordScan(this, file.slice(dataSection.offset(), dataSection.size(), "data"));
    }

    /** Records in perf's delivery order: time-sorted within FINISHED_ROUND windows. */
    public RecordInput orderedRecords() {
        return new OrderedRecords(records(), evlist);
    }

    /** Called by the record input for pipe-mode HEADER_ATTR records. */
    void onHeaderAttr(RawRecord r) {
        Bytes body = r.body().named("PERF_RECORD_HEADER_ATTR");
        EventAttr attr = EventAttr.read(body);
        long rest = body.size() - attr.size();
        if (rest < 0) {
            throw body.error(0, "attr size " + attr.size() + " exceeds the record");
        }
        Cursor c = body.cursor(attr.size());
        long[] ids = new long[(int) (rest / 8)];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = c.u64();
        }
        evlist.add(attr, ids);
    }

    void onHeaderFeature(RawRecord r) {
        Bytes body = r.body().named("PERF_RECORD_HEADER_FEATURE");
        long id = body.u64(0);
        if (id < 0 || id >= 256) {
            throw body.error(0, "feature id " + id + " is out of range");
        }
        features.put((int) id, body.slice(8, body.size() - 8, "feature " + FeatureId.name((int) id)));
    }

    /**
     * Called by the record input with the blob after a pipe-mode HEADER_TRACING_DATA record (null
     * when it was cut short): it becomes the TRACING_DATA feature, unless the header has one.
     */
    /** A pipe's AUXTRACE payloads by record offset, until the decoder takes them. */
    private final java.util.concurrent.ConcurrentHashMap<Long, Bytes> auxPayloads = new java.util.concurrent.ConcurrentHashMap<>();

    void onAuxtrace(RawRecord r, Bytes payload) {
        if (payload != null && !r.compressed()) {
            auxPayloads.put(r.offset(), payload);
        }
    }

    /**
     * The trace data that follows the PERF_RECORD_AUXTRACE {@code r} ({@code size} bytes by its
     * {@code size} field): in a file, where it is (cut at the end of the file); from a stream, as
     * it was read (once: the stream's copy is handed over). Null when there is none (a record inside a
     * compressed record, or a pipe's payload already taken).
     */
    public Bytes auxtracePayload(RawRecord r, long size) {
        if (stream != null) {
            return auxPayloads.remove(r.offset());
        }
        Bytes file = fileBytes();
        long start = r.offset() + r.size();
        if (file == null || r.compressed() || size < 0 || start > file.size()) {
            return null;
        }
        return file.slice(start, Math.min(size, file.size() - start));
    }

    void onTracingData(Bytes blob) {
        if (blob != null) {
            features.putIfAbsent(FeatureId.TRACING_DATA, blob);
        }
    }

    void warn(String message) {
        warnings.add(message);
    }

    @Override
    public void close() {
        if (arena != null) {
            arena.close();
        }
    }
}
