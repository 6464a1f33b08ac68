package io.perfj.btf.wire;

import io.perfj.io.FormatException;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A section built record by record reads back the same in both byte orders; damage is a typed error. */
class TypeSectionTest {
    private static TypeSection sample() {
        TypeSection t = new TypeSection(1, 1, 1);
        int id = t.add(4);
        int[] w = t.words();
        int p = t.start(id);
        w[p] = 1;
        w[p + 1] = Kinds.info(Kinds.INT, 0, false);
        w[p + 2] = 4;
        w[p + 3] = 1 << 24 | 32;
        id = t.add(3 + 3 * 2);
        w = t.words();
        p = t.start(id);
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
        p = t.start(id);
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
        int typeLen = 4 * t.wordCount() + tailBytes;
        ByteBuffer b = Header.allocate(typeLen, str.length, order);
        for (int i = 0; i < t.wordCount(); i++) {
            b.putInt(t.words()[i]);
        }
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
            assertArrayEquals(java.util.Arrays.copyOf(t.words(), t.wordCount()), r.words());
            assertEquals(Kinds.STRUCT, r.kind(2));
            assertEquals(2, r.info(2) & 0xffff);
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
}
