package io.perfj.io;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Reads through {@link Bytes} equal reads of the segment itself: in both byte orders, through
 * slices of slices, and in a mapped view of more than 2 GiB, where reads and slices go through
 * 1 GiB windows (checked at and across every window boundary).
 */
class BytesTest {
    @TempDir
    Path tmp;

    private static long expect64(MemorySegment s, ByteOrder o, long off) {
        return s.get(ValueLayout.JAVA_LONG_UNALIGNED.withOrder(o), off);
    }

    private static void sameReads(Bytes b, MemorySegment s, ByteOrder o, long off) {
        assertEquals(s.get(ValueLayout.JAVA_BYTE, off) & 0xff, b.u8(off), "u8 @" + off);
        if (off + 2 <= s.byteSize()) {
            assertEquals(s.get(ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(o), off) & 0xffff, b.u16(off), "u16 @" + off);
        }
        if (off + 4 <= s.byteSize()) {
            assertEquals(s.get(ValueLayout.JAVA_INT_UNALIGNED.withOrder(o), off), b.s32(off), "s32 @" + off);
        }
        if (off + 8 <= s.byteSize()) {
            assertEquals(expect64(s, o, off), b.u64(off), "u64 @" + off);
        }
    }

    @Property(tries = 200)
    void readsAndSlicesMatchTheSegment(@ForAll long seed, @ForAll boolean big,
                                       @ForAll @IntRange(min = 1, max = 300) int size) {
        ByteOrder o = big ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
        Random r = new Random(seed);
        byte[] data = new byte[size];
        r.nextBytes(data);
        MemorySegment s = MemorySegment.ofArray(data);
        Bytes b = Bytes.of(data, o, "t", "test");
        for (int i = 0; i < 20; i++) {
            sameReads(b, s, o, r.nextInt(size));
        }
        // a slice of a slice, read in the other order too
        long off = r.nextInt(size);
        long len = r.nextInt((int) (size - off) + 1);
        Bytes sl = b.slice(off, len, "part");
        MemorySegment ss = s.asSlice(off, len);
        for (int i = 0; len > 0 && i < 10; i++) {
            long at = r.nextInt((int) len);
            sameReads(sl, ss, o, at);
            ByteOrder other = big ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
            sameReads(sl.withOrder(other), ss, other, at);
            long l2 = r.nextInt((int) (len - at) + 1);
            assertArrayEquals(ss.asSlice(at, l2).toArray(ValueLayout.JAVA_BYTE), sl.bytes(at, l2));
        }
        assertThrows(FormatException.class, () -> sl.u64(len - 7));
        assertThrows(FormatException.class, () -> sl.u8(len));
        assertThrows(FormatException.class, () -> sl.u8(-1));
    }

    @Test
    void viewsLargerThan2GiBReadThroughWindows() throws IOException {
        Path f = tmp.resolve("sparse");
        long size = (5L << 29) + 4096; // 2.5 GiB and a page: three windows
        long[] spots = {0, (1L << 30) - 9, (1L << 30) - 4, (1L << 30) - 1, 1L << 30, (2L << 30) - 3,
                (2L << 30) + 5, size - 8, size - 1};
        Random r = new Random(7);
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            for (long at : spots) {
                byte[] junk = new byte[(int) Math.min(64, size - at)];
                r.nextBytes(junk);
                ch.write(ByteBuffer.wrap(junk), at);
            }
            ch.write(ByteBuffer.wrap(new byte[]{'h', 'i', 0}), (1L << 30) - 1);
            ch.truncate(size);
            ch.write(ByteBuffer.wrap(new byte[1]), size - 1);
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment s = ch.map(FileChannel.MapMode.READ_ONLY, 0, size, arena);
                for (ByteOrder o : new ByteOrder[]{ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN}) {
                    Bytes b = Bytes.of(s, o, "sparse", "test", 0);
                    assertEquals(size, b.size());
                    for (long at : spots) {
                        for (long d = -8; d <= 8; d++) {
                            if (at + d >= 0 && at + d < size) {
                                sameReads(b, s, o, at + d);
                            }
                        }
                    }
                    assertEquals("hi", b.cstring((1L << 30) - 1, 16));
                    // slices across a boundary, small (one window) and large (windows of their own)
                    for (long len : new long[]{100, 70_000, 1L << 30}) {
                        long from = (1L << 30) - 50;
                        Bytes sl = b.slice(from, len, "part");
                        MemorySegment ss = s.asSlice(from, len);
                        for (long at = 0; at < Math.min(len, 120); at++) {
                            sameReads(sl, ss, o, at);
                        }
                        assertEquals(expect64(ss, o, len - 8), sl.u64(len - 8));
                        assertArrayEquals(ss.asSlice(40, 20).toArray(ValueLayout.JAVA_BYTE), sl.bytes(40, 20));
                        Bytes inner = sl.slice(30, 40, "inner");
                        sameReads(inner, ss.asSlice(30, 40), o, 32);
                        assertThrows(FormatException.class, () -> sl.u32(len - 3));
                    }
                    Bytes last = b.slice(size - 16, 16, "tail");
                    sameReads(last, s.asSlice(size - 16, 16), o, 8);
                    assertThrows(FormatException.class, () -> b.u16(size - 1));
                }
            }
        }
    }

    /** The skipping search finds what a plain one finds, first occurrence from any start, in slices too. */
    @Property(tries = 1000)
    void indexOfAgreesWithANaiveSearch(@ForAll @net.jqwik.api.constraints.Size(max = 200) byte[] hay,
                                       @ForAll @net.jqwik.api.constraints.Size(min = 1, max = 6) byte[] needle,
                                       @ForAll @IntRange(min = 0, max = 20) int cut, @ForAll @IntRange(min = -2, max = 210) int from) {
        // small alphabets so that matches happen
        for (int i = 0; i < hay.length; i++) {
            hay[i] = (byte) (hay[i] & 3);
        }
        for (int i = 0; i < needle.length; i++) {
            needle[i] = (byte) (needle[i] & 3);
        }
        int c = Math.min(cut, hay.length);
        Bytes view = Bytes.of(hay, ByteOrder.LITTLE_ENDIAN, "t", "test").slice(c, hay.length - c, "part");
        long naive = -1;
        for (int i = Math.max(from, 0); c + i + needle.length <= hay.length && naive < 0; i++) {
            if (java.util.Arrays.equals(hay, c + i, c + i + needle.length, needle, 0, needle.length)) {
                naive = i;
            }
        }
        assertEquals(naive, view.indexOf(needle, from));
    }
}
