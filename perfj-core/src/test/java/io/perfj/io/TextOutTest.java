package io.perfj.io;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** TextOut's number formatting against the JDK's, at every digit count and the edges. */
class TextOutTest {
    private static String written(java.util.function.Consumer<TextOut> w) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        TextOut t = new TextOut(b, 64);
        w.accept(t);
        t.flush();
        return b.toString(StandardCharsets.US_ASCII);
    }

    @Test
    void decimalsAreTheJdksAtEveryLength() {
        long[] edges = {0, 1, 9, 10, 99, 100, 999_999_999, 1_000_000_000, Integer.MAX_VALUE, Integer.MAX_VALUE + 1L,
                0xffff_ffffL, Long.MAX_VALUE, -1, -10, Integer.MIN_VALUE, Long.MIN_VALUE};
        for (long v : edges) {
            assertEquals(Long.toString(v), written(t -> t.dec(v)), "dec " + v);
            assertEquals(Long.toUnsignedString(v), written(t -> t.udec(v)), "udec " + v);
            assertEquals(Integer.toUnsignedString((int) v), written(t -> t.u32((int) v)), "u32 " + (int) v);
        }
        Random r = new Random(7);
        for (int i = 0; i < 100_000; i++) {
            long v = r.nextLong() >>> r.nextInt(64);
            assertEquals(Long.toUnsignedString(v), written(t -> t.udec(v)), "udec " + v);
            int w = (int) v;
            assertEquals(Integer.toString(w), written(t -> t.dec(w)), "dec " + w);
            assertEquals(Integer.toUnsignedString(w), written(t -> t.u32(w)), "u32 " + w);
        }
    }
}
