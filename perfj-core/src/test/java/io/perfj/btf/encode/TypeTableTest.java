package io.perfj.btf.encode;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The chunked type table: growing never copies words, and every type reads back what was written. */
class TypeTableTest {

    @Test
    void growsByChunksWithoutMovingWords() {
        TypeTable t = TypeTable.growing(16, 4, 6); // 64-word chunks
        int[] first = null;
        for (int i = 1; i <= 1000; i++) {
            int n = 3 + i % 20;
            int id = t.add(n);
            assertEquals(i, id);
            int[] w = t.words(id);
            int p = t.pos(id);
            assertTrue(p + n <= w.length, "a type does not straddle two chunks");
            for (int k = 0; k < n; k++) {
                w[p + k] = id * 100 + k;
            }
            if (id == 1) {
                first = w;
            }
        }
        assertSame(first, t.words(1), "the first chunk was not copied");
        assertTrue(t.chunks().length > 100);
        long words = 0;
        for (int id = 1; id <= t.count; id++) {
            int n = 3 + id % 20;
            words += n;
            for (int k = 0; k < n; k++) {
                assertEquals(id * 100 + k, t.words(id)[t.pos(id) + k]);
            }
        }
        assertEquals(words, t.nw);
        // a word addressed for a later patch
        int at = t.address(500, t.pos(500) + 2);
        t.set(at, -7);
        assertEquals(-7, t.words(500)[t.pos(500) + 2]);
    }

    @Test
    void anExactTableIsOneArray() {
        TypeTable t = TypeTable.exact(20, 2);
        int a = t.add(4);
        int b = t.add(16);
        assertSame(t.w, t.words(a));
        assertSame(t.w, t.words(b));
        assertEquals(4, t.start[b]);
        assertThrows(IllegalStateException.class, () -> t.add(1));
    }
}
