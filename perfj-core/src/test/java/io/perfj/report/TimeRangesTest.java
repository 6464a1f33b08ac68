package io.perfj.report;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** perf's --time syntax: seconds with up to nine decimals, open ends, several ranges, percent slices. */
class TimeRangesTest {
    @Test
    void secondsWithOpenEndsAreInclusive() {
        TimeRanges t = TimeRanges.parse("10.5,11", 0, 0);
        assertEquals(10_500_000_000L, t.start(0));
        assertEquals(11_000_000_000L, t.end(0));
        assertTrue(t.keeps(10_500_000_000L));
        assertTrue(t.keeps(11_000_000_000L));
        assertFalse(t.keeps(11_000_000_001L));
        assertFalse(t.keeps(10_499_999_999L));
        TimeRanges open = TimeRanges.parse(",1.000000001", 0, 0);
        assertEquals(0, open.start(0));
        assertTrue(open.keeps(1));
        assertFalse(open.keeps(1_000_000_002L));
        assertTrue(TimeRanges.parse("5,", 0, 0).keeps(Long.MAX_VALUE));
    }

    @Test
    void severalRangesBySpaces() {
        TimeRanges t = TimeRanges.parse("1,2 3,", 0, 0);
        assertEquals(2, t.size());
        assertTrue(t.keeps(1_500_000_000L));
        assertFalse(t.keeps(2_500_000_000L));
        assertTrue(t.keeps(9_000_000_000L));
        // with several ranges perf keeps a sample without a timestamp
        assertTrue(t.keeps(0));
    }

    @Test
    void percentSlicesOfTheRecording() {
        // first 1000 ns, last 2000 ns: 10% is 100 ns; each slice but the last stops 1 ns short
        TimeRanges second = TimeRanges.parse("10%/2", 1000, 2000);
        assertEquals(1100, second.start(0));
        assertEquals(1199, second.end(0));
        TimeRanges two = TimeRanges.parse("0%-10%,90%-100%", 1000, 2000);
        assertEquals(1000, two.start(0));
        assertEquals(1099, two.end(0));
        assertEquals(1900, two.start(1));
        assertEquals(2000, two.end(1));
        assertEquals("0%-10%,90%-100%", two.text());
    }

    @Test
    void badTextIsRefused() {
        for (String bad : new String[] {"1.2.3,4", "x,1", "2,1", "1", "1.1234567891,2", "10%/0", "50%-10%", "10%",
            "0%-20%,10%-30%"}) {
            assertThrows(IllegalArgumentException.class, () -> TimeRanges.parse(bad, 1000, 2000), bad);
        }
        assertThrows(IllegalArgumentException.class, () -> TimeRanges.parse("10%/1", 0, 0));
    }
}
