package io.perfj.perfdata;

import io.perfj.io.Bytes;
import io.perfj.io.FormatException;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Passes records through, unpacking COMPRESSED (81) and COMPRESSED2 (83) records in place and
 * feeding pipe-mode HEADER_ATTR / HEADER_FEATURE records to the {@link PerfData}. A compressed
 * record itself is returned first, then the records it held; a record may be split across two
 * compressed records, so the unfinished tail is carried over. Decompression streams in steps of
 * {@link ZstdStream#STEP} bytes: memory stays the same however far a record inflates.
 *
 * <p>A run of FINISHED_ROUND headers (as perf writes them: misc 0, size 8) is returned as one
 * record whose {@link RawRecord#count()} is the run's length, counted by comparing the
 * decompressed bytes with a block of such headers: a compressed record that inflates to
 * gigabytes of empty rounds costs its decompression and one pass of that comparison, no object
 * per round.
 */
final class UnpackingRecordInput implements RecordInput {
    /**
     * The largest mmap_len perf record writes to HEADER_COMPRESSED (a u32): a ring buffer is a
     * power of two of data pages plus the control page; with 4 KiB pages Linux 6.1's rb_alloc
     * gives at most 2^19 data pages (its page array must stay under an order-11 allocation), and
     * a 64 KiB-page ring past 2^15 pages no longer fits the field: 2 GiB plus one page.
     */
    static final long PERF_MAX_MMAP_LEN = (1L << 31) + (64 << 10);

    private final RecordInput base;
    private final PerfData data;
    private final List<String> warnings = new ArrayList<>();
    private ZstdStream zstd;
    /** Decompressed bytes not yet handed out are buf[head, end): whole records, then a tail. */
    private byte[] buf;
    private ByteBuffer view;
    private int head;
    private int end;
    /** The compressed record being unpacked (null when its output is all read) and its output so far. */
    private RawRecord packed;
    private long packedOut;
    private RawRecord pendingUnpack;
    /** What unpacking met after a run of rounds it had counted: thrown once the run is returned. */
    private RuntimeException pendingError;
    /** FINISHED_ROUND headers (misc 0, size 8) end to end, in the file's byte order. */
    private byte[] rounds;

    private static final int MAX_RECORD = 1 << 16;
    private static final int ROUNDS_BLOCK = 4 << 10;

    UnpackingRecordInput(RecordInput base, PerfData data) {
        this.base = base;
        this.data = data;
    }

    @Override
    public RawRecord next() {
        if (pendingError != null) {
            RuntimeException e = pendingError;
            pendingError = null;
            throw e;
        }
        while (true) {
            if (pendingUnpack != null) {
                RawRecord c = pendingUnpack;
                pendingUnpack = null;
                start(c);
            }
            RawRecord u = nextUnpacked();
            if (u != null) {
                return u;
            }
            RawRecord r = base.next();
            if (r == null) {
                if (end > head) {
                    warnings.add(data.name() + ": " + (end - head) + " bytes of an unfinished record remain after the last compressed record");
                    head = end = 0;
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
                case RecordType.HEADER_TRACING_DATA -> data.onTracingData(base.trailing());
                case RecordType.AUXTRACE -> {
                    if (base instanceof StreamRecordInput) {
                        data.onAuxtrace(r, base.trailing());
                    }
                }
                default -> {
                }
            }
            return r;
        }
    }

    /** Feeds a compressed record's payload to the stream; its records come out of {@link #nextUnpacked}. */
    private void start(RawRecord r) {
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
            zstd = ZstdStream.open(data.name());
            buf = new byte[ZstdStream.STEP + MAX_RECORD];
            view = ByteBuffer.wrap(buf).order(data.header().order());
            ByteBuffer fr = ByteBuffer.allocate(ROUNDS_BLOCK).order(data.header().order());
            while (fr.hasRemaining()) {
                fr.putInt(RecordType.FINISHED_ROUND).putShort((short) 0).putShort((short) RawRecord.HEADER_SIZE);
            }
            rounds = fr.array();
        }
        zstd.feed(b.slice(payloadOff, payloadLen));
        packed = r;
        packedOut = 0;
    }

    /**
     * The next whole record of the decompressed data, copied into its own array (so that a record
     * kept by a consumer holds on to nothing else), or null when the current compressed record
     * has no more.
     */
    private RawRecord nextUnpacked() {
        while (true) {
            int avail = end - head;
            if (avail >= RawRecord.HEADER_SIZE) {
                int size = view.getShort(head + 6) & 0xffff;
                if (size < RawRecord.HEADER_SIZE) {
                    long at = packed == null ? -1 : packed.offset();
                    packed = null;
                    throw new FormatException(data.name(), "perf_event_header in PERF_RECORD_COMPRESSED", at,
                            "decompressed record at +0x" + Long.toHexString(Math.max(0, packedOut - avail)) + " has size " + size);
                }
                if (size <= avail) {
                    if (size == RawRecord.HEADER_SIZE && Arrays.mismatch(buf, head, head + size, rounds, 0, size) < 0) {
                        return roundRun();
                    }
                    return take(size);
                }
            }
            if (packed == null || !refill()) {
                return null;
            }
        }
    }

    /**
     * The run of FINISHED_ROUND headers at {@code head} as one record: counted through the
     * current compressed record's output, refilling as it goes, until another record starts. What
     * a refill throws comes after the run (the rounds before it were read, as perf reads them).
     */
    private RawRecord roundRun() {
        RawRecord first = take(RawRecord.HEADER_SIZE);
        long n = 1;
        while (true) {
            int whole = (end - head) & -RawRecord.HEADER_SIZE;
            int same = sameAsRounds(head, whole);
            head += same;
            n += same / RawRecord.HEADER_SIZE;
            if (same < whole || n > Integer.MAX_VALUE - ZstdStream.STEP) {
                break;
            }
            try {
                if (packed == null || !refill()) {
                    break;
                }
            } catch (RuntimeException e) {
                pendingError = e;
                break;
            }
        }
        return first.times((int) n);
    }

    /** How many bytes of buf[from, from + len) (len a multiple of 8) are FINISHED_ROUND headers, in whole headers. */
    private int sameAsRounds(int from, int len) {
        int done = 0;
        while (done < len) {
            int n = Math.min(len - done, rounds.length);
            int at = Arrays.mismatch(buf, from + done, from + done + n, rounds, 0, n);
            if (at >= 0) {
                return done + (at & -RawRecord.HEADER_SIZE);
            }
            done += n;
        }
        return done;
    }

    private RawRecord take(int size) {
        int type = view.getInt(head);
        int misc = view.getShort(head + 4) & 0xffff;
        byte[] one = Arrays.copyOfRange(buf, head, head + size);
        head += size;
        long off = packed.offset();
        Bytes b = Bytes.of(MemorySegment.ofArray(one), data.header().order(), data.name(),
                RecordType.structure(type), off);
        return new RawRecord(off, type, misc, b, true);
    }

    /** Reads more of the current compressed record's output; false when it has no more. */
    private boolean refill() {
        if (head > 0) {
            System.arraycopy(buf, head, buf, 0, end - head);
            end -= head;
            head = 0;
        }
        int n;
        try {
            n = zstd.read(buf, end, buf.length - end);
        } catch (RuntimeException e) {
            RawRecord r = packed;
            packed = null;
            if (e instanceof FormatException) {
                throw e;
            }
            throw new FormatException(data.name(), "PERF_RECORD_COMPRESSED", r.offset(),
                    "zstd data is corrupt (" + e.getMessage() + ")");
        }
        if (n == 0) {
            packed = null;
            return false;
        }
        end += n;
        packedOut += n;
        if (packedOut > bound()) {
            RawRecord r = packed;
            packed = null;
            throw new FormatException(data.name(), "PERF_RECORD_COMPRESSED", r.offset(),
                    "decompressed data exceeds the bound of " + bound() + " bytes (perf's decompression buffer, "
                            + "the mmap_len of HEADER_COMPRESSED up to the largest perf record can write)");
        }
        return true;
    }

    /**
     * How far one compressed record may inflate: perf decompresses each into a buffer of
     * HEADER_COMPRESSED's mmap_len bytes (perf_session__process_compressed_event), since perf
     * record compresses at most one ring buffer's worth into it. The file's value counts only up
     * to what perf record can write; without it, that largest value.
     */
    long bound() {
        Bytes f = data.features().get(FeatureId.COMPRESSED);
        long mmapLen = f != null && f.has(16, 4) ? f.u32(16) : 0;
        return mmapLen == 0 ? PERF_MAX_MMAP_LEN : Math.min(mmapLen, PERF_MAX_MMAP_LEN);
    }

    @Override
    public List<String> warnings() {
        List<String> all = new ArrayList<>(base.warnings());
        all.addAll(warnings);
        return all;
    }
}
