package io.perfj.io;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
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
    private final long size;
    private final ByteOrder order;
    private final String source;
    private final String structure;
    private final long base;
    /**
     * Reads go through a byte buffer over the same memory when one can reach the whole view
     * ({@code bb}, this view starting at {@code bbOff}): a buffer read is a few instructions even
     * in the JIT's first tier, where a segment read through a non-constant layout costs several
     * calls. A view of more than 2 GiB (a buffer's limit) has instead {@code windows}: buffers
     * over its 1 GiB steps, each reaching {@link #OVERLAP} bytes into the next, so that any read
     * and any slice of up to {@code OVERLAP} bytes lies inside the window where it starts.
     */
    private final ByteBuffer bb;
    private final int bbOff;
    private final ByteBuffer[] windows;
    /** This view's offset in the memory {@code windows} cover. */
    private final long winOff;
    private static final int WINDOW_SHIFT = 30;
    private static final long WINDOW = 1L << WINDOW_SHIFT;
    private static final int OVERLAP = (1 << 16) + 64;

    private Bytes(MemorySegment seg, ByteOrder order, String source, String structure, long base,
                  ByteBuffer bb, int bbOff, ByteBuffer[] windows, long winOff) {
        this.seg = seg;
        this.size = seg.byteSize();
        this.order = order;
        this.source = source;
        this.structure = structure;
        this.base = base;
        this.bb = bb;
        this.bbOff = bbOff;
        this.windows = windows;
        this.winOff = winOff;
    }

    /** A view of a whole segment, with the buffers its reads go through. */
    private static Bytes root(MemorySegment seg, ByteOrder order, String source, String structure, long base) {
        long n = seg.byteSize();
        if (n <= Integer.MAX_VALUE) {
            return new Bytes(seg, order, source, structure, base, seg.asByteBuffer().order(order), 0, null, 0);
        }
        ByteBuffer[] w = new ByteBuffer[(int) ((n + WINDOW - 1) >>> WINDOW_SHIFT)];
        for (int k = 0; k < w.length; k++) {
            long from = (long) k << WINDOW_SHIFT;
            w[k] = seg.asSlice(from, Math.min(n - from, WINDOW + OVERLAP)).asByteBuffer().order(order);
        }
        return new Bytes(seg, order, source, structure, base, null, 0, w, 0);
    }

    public static Bytes of(MemorySegment seg, ByteOrder order, String source, String structure, long base) {
        return root(seg, order, source, structure, base);
    }

    public static Bytes of(byte[] data, ByteOrder order, String source, String structure) {
        return root(MemorySegment.ofArray(data), order, source, structure, 0);
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
        return size;
    }

    /** Same bytes, other byte order. */
    public Bytes withOrder(ByteOrder newOrder) {
        if (newOrder == order) {
            return this;
        }
        ByteBuffer[] w = null;
        if (windows != null) {
            w = new ByteBuffer[windows.length];
            for (int k = 0; k < w.length; k++) {
                w[k] = windows[k].duplicate().order(newOrder);
            }
        }
        return new Bytes(seg, newOrder, source, structure, base, bb == null ? null : bb.duplicate().order(newOrder),
                bbOff, w, winOff);
    }

    /** Same bytes, named as another structure in error messages. */
    public Bytes named(String newStructure) {
        return new Bytes(seg, order, source, newStructure, base, bb, bbOff, windows, winOff);
    }

    public Bytes slice(long off, long len, String newStructure) {
        check(off, len);
        MemorySegment s = seg.asSlice(off, len);
        if (bb != null) {
            return new Bytes(s, order, source, newStructure, base + off, bb, bbOff + (int) off, null, 0);
        }
        long at = winOff + off;
        if (len <= OVERLAP) {
            int k = (int) (at >>> WINDOW_SHIFT);
            return new Bytes(s, order, source, newStructure, base + off, windows[k],
                    (int) (at - ((long) k << WINDOW_SHIFT)), null, 0);
        }
        return new Bytes(s, order, source, newStructure, base + off, null, 0, windows, at);
    }

    public Bytes slice(long off, long len) {
        return slice(off, len, structure);
    }

    /** Whether {@code len} bytes starting at {@code off} lie inside the view. */
    public boolean has(long off, long len) {
        return off >= 0 && len >= 0 && off <= size - len;
    }

    public void check(long off, long len) {
        if (!has(off, len)) {
            throw outOfBounds(off, len);
        }
    }

    public FormatException outOfBounds(long off, long len) {
        return new FormatException(source, structure, base + Math.max(0, off),
                "needs " + len + " bytes at +0x" + Long.toHexString(off) + " but only "
                        + size + " bytes are available");
    }

    public FormatException error(long off, String detail) {
        return new FormatException(source, structure, base + off, detail);
    }

    public int u8(long off) {
        check(off, 1);
        return byteAt(off) & 0xff;
    }

    public int u16(long off) {
        check(off, 2);
        ByteBuffer b = bb;
        return (b != null ? b.getShort(bbOff + (int) off) : window(off).getShort(windowIndex(off))) & 0xffff;
    }

    public int s32(long off) {
        check(off, 4);
        ByteBuffer b = bb;
        return b != null ? b.getInt(bbOff + (int) off) : window(off).getInt(windowIndex(off));
    }

    public long u32(long off) {
        return s32(off) & 0xffff_ffffL;
    }

    public long u64(long off) {
        check(off, 8);
        ByteBuffer b = bb;
        return b != null ? b.getLong(bbOff + (int) off) : window(off).getLong(windowIndex(off));
    }

    public byte[] bytes(long off, long len) {
        check(off, len);
        if (len > Integer.MAX_VALUE - 16) {
            throw error(off, "block of " + len + " bytes is too large");
        }
        if (bb != null) {
            byte[] out = new byte[(int) len];
            bb.get(bbOff + (int) off, out);
            return out;
        }
        return seg.asSlice(off, len).toArray(ValueLayout.JAVA_BYTE);
    }

    private byte byteAt(long off) {
        ByteBuffer b = bb;
        return b != null ? b.get(bbOff + (int) off) : window(off).get(windowIndex(off));
    }

    /** The window a read at {@code off} (inside this view, of at most 8 bytes) goes through. */
    private ByteBuffer window(long off) {
        return windows[(int) ((winOff + off) >>> WINDOW_SHIFT)];
    }

    private int windowIndex(long off) {
        return (int) ((winOff + off) & (WINDOW - 1));
    }

    /**
     * A NUL-terminated string within {@code [off, off+max)}; without a NUL the whole range is
     * taken (perf pads strings with NULs, but a missing terminator is not worth failing over).
     */
    public String cstring(long off, long max) {
        return new String(cstringBytes(off, max), StandardCharsets.UTF_8);
    }

    /** The bytes of {@link #cstring}, as they are (a name that is no UTF-8 printed as perf prints it). */
    public byte[] cstringBytes(long off, long max) {
        check(off, max);
        long end = off;
        long limit = off + max;
        while (end < limit && byteAt(end) != 0) {
            end++;
        }
        return bytes(off, end - off);
    }

    /**
     * The first offset at or after {@code from} where {@code needle} occurs in this view, or -1
     * (Boyer-Moore-Horspool: it skips ahead by up to the needle's length).
     */
    public long indexOf(byte[] needle, long from) {
        int m = needle.length;
        if (m == 0) {
            return from <= size ? Math.max(from, 0) : -1;
        }
        int[] shift = new int[256];
        java.util.Arrays.fill(shift, m);
        for (int i = 0; i < m - 1; i++) {
            shift[needle[i] & 0xff] = m - 1 - i;
        }
        byte lastByte = needle[m - 1];
        ByteBuffer b = bb;
        int o = bbOff;
        for (long i = Math.max(from, 0) + m - 1; i < size; ) {
            byte c = b != null ? b.get(o + (int) i) : byteAt(i);
            if (c == lastByte) {
                int j = m - 2;
                long k = i - 1;
                while (j >= 0 && (b != null ? b.get(o + (int) k) : byteAt(k)) == needle[j]) {
                    j--;
                    k--;
                }
                if (j < 0) {
                    return k + 1;
                }
            }
            i += shift[c & 0xff];
        }
        return -1;
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
        return structure + "[" + source + " @0x" + Long.toHexString(base) + ", " + size + " bytes]";
    }
}
