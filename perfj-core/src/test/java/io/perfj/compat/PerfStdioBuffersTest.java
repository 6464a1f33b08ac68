package io.perfj.compat;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

class PerfStdioBuffersTest {
    @Test
    void textsUpTo1023BytesPrintWhole() {
        String s = "x".repeat(1023);
        assertSame(s, PerfStdioBuffers.fit(s));
        assertEquals("abc", PerfStdioBuffers.fit("abc"));
    }

    @Test
    void longerTextsKeepTheirFirst1023Bytes() {
        assertEquals("y".repeat(1023), PerfStdioBuffers.fit("y".repeat(1024)));
        assertEquals("z".repeat(1023), PerfStdioBuffers.fit("z".repeat(5000)));
    }

    @Test
    void aCharacterTheCutWouldSplitIsLeftOut() {
        String s = "a".repeat(1022) + "\u00e9" + "b";
        String cut = PerfStdioBuffers.fit(s);
        assertEquals("a".repeat(1022), cut);
        assertEquals(1022, cut.getBytes(StandardCharsets.UTF_8).length);
    }
}
