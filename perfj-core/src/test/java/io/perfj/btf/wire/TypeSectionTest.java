package io.perfj.btf.wire;

import io.perfj.io.FormatException;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A section built record by record reads back the same in both byte orders; damage is a typed
 * error; a chunked section grows without moving words and reads as a flat one.
 */
class TypeSectionTest {
    private static TypeSection sample() {
        TypeSection t = TypeSection.flat(1, 1, 1);
        int id = t.add(4);
        int[] w = t.words();
        int p = t.pos(id);
        w[p] = 1;
        w[p + 1] = Kinds.info(Kinds.INT, 0, false);
        w[p + 2] = 4;
        w[p + 3] = 1 << 24 | 32;
        id = t.add(3 + 3 * 2);
        w = t.words();
        p = t.pos(id);
        w[p] = 5;
        w[p + 1] = Kinds.info(Kinds.STRUCT, 2, false);
        w[p + 2] = 8;
        w[p + 3] = 7;
        w[p + 4] = 1;
        w[p + 5] = 0;
        w[p + 6] = 9;
        w[p + 7] = 1;
        w[p + 8] = 32;
        id = t.add(3);
        p = t.pos(id);
        t.words()[p + 1] = Kinds.info(Kinds.PTR, 0, false);
        t.words()[p + 2] = 2;
        return t;
    }

    private static byte[] blob(TypeSection t, ByteOrder order, int tailBytes) {
        StringSectionBuilder s = new StringSectionBuilder(0, 16);
        s.append("int");
        s.append("s");
        s.append("a");
        s.append("b");
        byte[] str = s.toByteArray();
        ByteBuffer b = Header.allocate(t.byteLength() + tailBytes, str.length, order);
        t.write(b, null);
        b.position(b.position() + tailBytes);
        b.put(str);
        return b.array();
    }

    @Test
    void roundTripsInBothByteOrders() {
        TypeSection t = sample();
        for (ByteOrder o : new ByteOrder[] {ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN}) {
            ByteBuffer b = ByteBuffer.wrap(blob(t, o, 0));
            Header h = Header.read(b, "test", 0, false, 0);
            assertEquals(o, h.order());
            TypeSection r = TypeSection.read(b, h, "test", 0, 1, null);
            assertEquals(4, r.end());
            assertArrayEquals(Arrays.copyOf(t.words(), (int) t.wordCount()), r.words());
            assertEquals(Kinds.STRUCT, r.kind(2));
            assertEquals(2, Kinds.vlen(r.info(2)));
            assertEquals(9, r.extra(2, 3));
            assertEquals(2, r.sizeOrType(3));
        }
    }

    @Test
    void splitSectionsContinueTheirBase() {
        ByteBuffer b = ByteBuffer.wrap(blob(sample(), ByteOrder.LITTLE_ENDIAN, 0));
        Header h = Header.read(b, "test", 0, false, 0);
        TypeSection base = TypeSection.read(b, h, "base", 0, 1, null);
        TypeSection split = TypeSection.read(b, h, "split", 0, base.end(), base);
        assertEquals(1, split.first());
        assertEquals(7, split.end());
        assertEquals(Kinds.STRUCT, split.kind(5));
        assertEquals(split.wordCount(), 2 * base.wordCount());
    }

    @Test
    void damageIsAFormatError() {
        FormatException e = assertThrows(FormatException.class, () -> {
            ByteBuffer b = ByteBuffer.wrap(blob(sample(), ByteOrder.LITTLE_ENDIAN, 2));
            TypeSection.read(b, Header.read(b, "t", 0, false, 0), "t", 0, 1, null);
        });
        assertTrue(e.getMessage().contains("truncated type record: 2 bytes left"), e.getMessage());
        byte[] bad = blob(sample(), ByteOrder.LITTLE_ENDIAN, 0);
        bad[24 + 7] = 0x1e; // kind 30 in the first record's info word
        e = assertThrows(FormatException.class, () -> {
            ByteBuffer b = ByteBuffer.wrap(bad);
            TypeSection.read(b, Header.read(b, "t", 0, false, 0), "t", 0, 1, null);
        });
        assertTrue(e.getMessage().contains("unknown BTF kind 30"), e.getMessage());
        byte[] noMagic = blob(sample(), ByteOrder.LITTLE_ENDIAN, 0);
        noMagic[0] = 0;
        assertThrows(FormatException.class, () -> Header.read(ByteBuffer.wrap(noMagic), "t", 0, false, 0));
    }

    @Test
    void chunkedSectionsGrowWithoutMovingWords() {
        TypeSection t = TypeSection.chunked(1, 16, 4, 6); // 64-word chunks
        int[] first = null;
        for (int i = 1; i <= 1000; i++) {
            int n = 3 + i % 20;
            int id = t.add(n);
            assertEquals(i, id);
            int[] w = t.words(id);
            int p = t.pos(id);
            assertTrue(p + n <= w.length, "a record does not straddle two chunks");
            for (int k = 0; k < n; k++) {
                w[p + k] = id * 100 + k;
            }
            if (id == 1) {
                first = w;
            }
        }
        assertSame(first, t.words(1), "the first chunk was not copied");
        assertTrue(t.chunks().length > 100);
        assertThrows(IllegalStateException.class, t::words);
        long words = 0;
        for (int id = 1; id < t.end(); id++) {
            int n = 3 + id % 20;
            words += n;
            for (int k = 0; k < n; k++) {
                assertEquals(id * 100 + k, t.words(id)[t.pos(id) + k]);
            }
        }
        assertEquals(words, t.wordCount());
        assertEquals(1000, t.size());
        // a word addressed for a later patch
        int at = t.address(500, t.pos(500) + 2);
        t.set(at, -7);
        assertEquals(-7, t.words(500)[t.pos(500) + 2]);
        assertThrows(IllegalArgumentException.class, () -> t.add(65));
    }

    @Test
    void aChunkedSectionWritesTheBytesOfAFlatOne() {
        TypeSection s = sample();
        TypeSection flat = TypeSection.flat(1, 1, 1); // too small: adding copies it to grow
        TypeSection chunked = TypeSection.chunked(1, 4, 1, 4); // 16-word chunks
        for (int id : new int[] {1, 2, 3, 1, 2}) { // 29 words
            for (TypeSection t : new TypeSection[] {flat, chunked}) {
                int n = Kinds.words(s.info(id));
                int c = t.add(n);
                System.arraycopy(s.words(id), s.pos(id), t.words(c), t.pos(c), n);
            }
        }
        assertTrue(chunked.chunks()[1] != null, "several chunks");
        assertEquals(29, flat.wordCount());
        assertEquals(flat.wordCount(), chunked.wordCount());
        assertArrayEquals(blob(flat, ByteOrder.BIG_ENDIAN, 0), blob(chunked, ByteOrder.BIG_ENDIAN, 0));
        assertEquals(9, chunked.extra(2, 3));
        assertEquals(Kinds.PTR, chunked.kind(3));
        // names through a table: offsets 1 and 5 become 10 and 50
        int[] names = new int[16];
        names[1] = 10;
        names[5] = 50;
        names[7] = 70;
        names[9] = 90;
        ByteBuffer b = ByteBuffer.allocate((int) chunked.byteLength());
        chunked.write(b, names);
        assertEquals(10, b.getInt(0));
        assertEquals(50, b.getInt(16));
        assertEquals(70, b.getInt(28));
        assertEquals(1, b.getInt(32), "a member's type is no name");
        assertEquals(90, b.getInt(40));
    }

    @Test
    void aFlatSectionSizedExactlyIsOneArray() {
        TypeSection t = TypeSection.flat(1, 20, 2);
        int[] w = t.words();
        int a = t.add(4);
        int b = t.add(16);
        assertSame(w, t.words(a));
        assertSame(w, t.words(b));
        assertSame(w, t.words());
        assertEquals(4, t.starts()[b]);
        assertEquals(4, t.pos(b));
    }
}
