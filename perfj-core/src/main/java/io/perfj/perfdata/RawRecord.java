package io.perfj.perfdata;

import io.perfj.io.Bytes;

/**
 * One undecoded record: its {@code perf_event_header} fields and all its bytes (header included).
 *
 * @param offset     file offset perf reports for it (for records unpacked from a COMPRESSED
 *                   record, the compressed record's offset, as perf does)
 * @param compressed whether it came out of a COMPRESSED/COMPRESSED2 record
 * @param count      how many records of the stream this one stands for: 1, or for a run of
 *                   identical FINISHED_ROUND records unpacked from one COMPRESSED record, the
 *                   run's length (a reader that delivers records one by one would deliver that
 *                   many copies of this one; a round right after a round releases nothing, so a
 *                   run costs no more than two rounds). Readers of {@link RecordInput}s that
 *                   count or print records take it into account.
 */
public record RawRecord(long offset, int type, int misc, Bytes bytes, boolean compressed, int count) {
    public static final int HEADER_SIZE = 8;

    public RawRecord {
        if (count < 1) {
            throw new IllegalArgumentException("a record stands for at least itself: count " + count);
        }
    }

    /** A record that stands for itself alone. */
    public RawRecord(long offset, int type, int misc, Bytes bytes, boolean compressed) {
        this(offset, type, misc, bytes, compressed, 1);
    }

    /** This record standing for {@code n} copies of itself. */
    public RawRecord times(int n) {
        return n == count ? this : new RawRecord(offset, type, misc, bytes, compressed, n);
    }

    public int size() {
        return (int) bytes.size();
    }

    public boolean isUser() {
        return type >= RecordType.USER_TYPE_START;
    }

    /** The bytes after the 8-byte header. */
    public Bytes body() {
        return bytes.slice(HEADER_SIZE, bytes.size() - HEADER_SIZE);
    }

    @Override
    public String toString() {
        return "RawRecord[" + RecordType.name(type) + " @0x" + Long.toHexString(offset) + " size " + size()
                + (count == 1 ? "" : " x" + count) + "]";
    }
}
