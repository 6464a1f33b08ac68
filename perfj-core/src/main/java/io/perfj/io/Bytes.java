package io.perfj.io;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * A bounds-checked, byte-order-aware view over a {@link MemorySegment}. Every read outside the
 * view fails with a {@link FormatException} naming the source, the structure this view stands for
 * and the absolute offset, so parsers never see an {@code IndexOutOfBoundsException}.
 *
 * <p>Views are cheap: {@link #slice} shares the memory. {@code base} is the absolute position of
 * the view's first byte in the source, used only for error messages and record offsets.
 */
public final class Bytes {
    private final MemorySegment seg;
    private final ByteOrder order;
    private final String source;
    private final String structure;
    private final long base;
    private final ValueLayout.OfShort i16;
    private final ValueLayout.OfInt i32;
    private final ValueLayout.OfLong i64;

    // Shared layout instances: a layout caches its var handle, so creating layouts per view would
    // make every read look its handle up again (a hash-map lookup per field read).
    private static final ValueLayout.OfShort I16_LE = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfShort I16_BE = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfInt I32_LE = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt I32_BE = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfLong I64_LE = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong I64_BE = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private Bytes(MemorySegment seg, ByteOrder order, String source, String structure, long base) {
        this.seg = seg;
        this.order = order;
        this.source = source;
        this.structure = structure;
        this.base = base;
        boolean le = order == ByteOrder.LITTLE_ENDIAN;
        this.i16 = le ? I16_LE : I16_BE;
        this.i32 = le ? I32_LE : I32_BE;
        this.i64 = le ? I64_LE : I64_BE;
    }

    public static Bytes of(MemorySegment seg, ByteOrder order, String source, String structure, long base) {
        return new Bytes(seg, order, source, structure, base);
    }

    public static Bytes of(byte[] data, ByteOrder order, String source, String structure) {
        return new Bytes(MemorySegment.ofArray(data), order, source, structure, 0);
    }

    public MemorySegment segment() {
        return seg;
    }

    public ByteOrder order() {
        return order;
    }

    public String source() {
        return source;
    }

    public String structure() {
        return structure;
    }

    /** Absolute offset of this view's first byte in its source. */
    public long base() {
        return base;
    }

    public long size() {
        return seg.byteSize();
    }

    /** Same bytes, other byte order. */
    public Bytes withOrder(ByteOrder newOrder) {
        return newOrder == order ? this : new Bytes(seg, newOrder, source, structure, base);
    }

    /** Same bytes, named as another structure in error messages. */
    public Bytes named(String newStructure) {
        return new Bytes(seg, order, source, newStructure, base);
    }

    public Bytes slice(long off, long len, String newStructure) {
        check(off, len);
        return new Bytes(seg.asSlice(off, len), order, source, newStructure, base + off);
    }

    public Bytes slice(long off, long len) {
        return slice(off, len, structure);
    }

    /** Whether {@code len} bytes starting at {@code off} lie inside the view. */
    public boolean has(long off, long len) {
        return off >= 0 && len >= 0 && off <= seg.byteSize() - len;
    }

    public void check(long off, long len) {
        if (!has(off, len)) {
            throw outOfBounds(off, len);
        }
    }

    public FormatException outOfBounds(long off, long len) {
        return new FormatException(source, structure, base + Math.max(0, off),
                "needs " + len + " bytes at +0x" + Long.toHexString(off) + " but only "
                        + seg.byteSize() + " bytes are available");
    }

    public FormatException error(long off, String detail) {
        return new FormatException(source, structure, base + off, detail);
    }

    public int u8(long off) {
        check(off, 1);
        return seg.get(ValueLayout.JAVA_BYTE, off) & 0xff;
    }

    public int u16(long off) {
        check(off, 2);
        return seg.get(i16, off) & 0xffff;
    }

    public int s32(long off) {
        check(off, 4);
        return seg.get(i32, off);
    }

    public long u32(long off) {
        return s32(off) & 0xffff_ffffL;
    }

    public long u64(long off) {
        check(off, 8);
        return seg.get(i64, off);
    }

    public byte[] bytes(long off, long len) {
        check(off, len);
        if (len > Integer.MAX_VALUE - 16) {
            throw error(off, "block of " + len + " bytes is too large");
        }
        return seg.asSlice(off, len).toArray(ValueLayout.JAVA_BYTE);
    }

    /**
     * A NUL-terminated string within {@code [off, off+max)}; without a NUL the whole range is
     * taken (perf pads strings with NULs, but a missing terminator is not worth failing over).
     */
    public String cstring(long off, long max) {
        check(off, max);
        long end = off;
        long limit = off + max;
        while (end < limit && seg.get(ValueLayout.JAVA_BYTE, end) != 0) {
            end++;
        }
        return new String(seg.asSlice(off, end - off).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8);
    }

    /** A cursor reading this view from {@code off}. */
    public Cursor cursor(long off) {
        return new Cursor(this, off);
    }

    public Cursor cursor() {
        return new Cursor(this, 0);
    }

    @Override
    public String toString() {
        return structure + "[" + source + " @0x" + Long.toHexString(base) + ", " + seg.byteSize() + " bytes]";
    }
}
