package io.perfj.perfdata;

import io.perfj.io.Bytes;

/**
 * One undecoded record: its {@code perf_event_header} fields and all its bytes (header included).
 *
 * @param offset     file offset perf reports for it (for records unpacked from a COMPRESSED
 *                   record, the compressed record's offset, as perf does)
 * @param compressed whether it came out of a COMPRESSED/COMPRESSED2 record
 */
public record RawRecord(long offset, int type, int misc, Bytes bytes, boolean compressed) {
    public static final int HEADER_SIZE = 8;

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
        return "RawRecord[" + RecordType.name(type) + " @0x" + Long.toHexString(offset) + " size " + size() + "]";
    }
}
