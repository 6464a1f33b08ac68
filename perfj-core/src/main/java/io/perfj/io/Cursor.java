package io.perfj.io;

/** A moving position over a {@link Bytes} view; all reads are bounds-checked by the view. */
public final class Cursor {
    private final Bytes bytes;
    private long pos;

    Cursor(Bytes bytes, long pos) {
        this.bytes = bytes;
        this.pos = pos;
    }

    public Bytes bytes() {
        return bytes;
    }

    public long position() {
        return pos;
    }

    public Cursor position(long newPos) {
        this.pos = newPos;
        return this;
    }

    public long remaining() {
        return bytes.size() - pos;
    }

    public boolean hasRemaining() {
        return pos < bytes.size();
    }

    public Cursor skip(long n) {
        bytes.check(pos, n);
        pos += n;
        return this;
    }

    public int u8() {
        int v = bytes.u8(pos);
        pos += 1;
        return v;
    }

    public int u16() {
        int v = bytes.u16(pos);
        pos += 2;
        return v;
    }

    public int s32() {
        int v = bytes.s32(pos);
        pos += 4;
        return v;
    }

    public long u32() {
        long v = bytes.u32(pos);
        pos += 4;
        return v;
    }

    public long u64() {
        long v = bytes.u64(pos);
        pos += 8;
        return v;
    }

    /**
     * A count that is about to size an allocation: rejected unless {@code count * minElementSize}
     * bytes could still follow in this view, so corrupt counts never cause huge allocations.
     */
    public int count(long count, long minElementSize, String what) {
        if (count < 0 || count > Integer.MAX_VALUE - 16
                || (minElementSize > 0 && count > remaining() / minElementSize)) {
            throw bytes.error(pos, what + " count " + Long.toUnsignedString(count)
                    + " does not fit in the " + remaining() + " remaining bytes");
        }
        return (int) count;
    }

    public byte[] bytes(long n) {
        byte[] b = bytes.bytes(pos, n);
        pos += n;
        return b;
    }

    public Bytes slice(long n, String structure) {
        Bytes b = bytes.slice(pos, n, structure);
        pos += n;
        return b;
    }

    /** A fixed-size NUL-padded string field. */
    public String cstring(long max) {
        String s = bytes.cstring(pos, max);
        pos += max;
        return s;
    }

    /**
     * perf's header string: u32 length (including NUL and padding), then the bytes.
     */
    public String perfString() {
        long len = u32();
        if (len > remaining()) {
            throw bytes.error(pos - 4, "string length " + len + " exceeds the " + remaining() + " remaining bytes");
        }
        return cstring(len);
    }

    public FormatException error(String detail) {
        return bytes.error(pos, detail);
    }
}
