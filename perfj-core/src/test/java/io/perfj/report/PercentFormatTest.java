package io.perfj.report;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.RoundingMode;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** perfj's percentages as C's printf("%.2f") prints them (perf's format). */
class PercentFormatTest {
    @Test
    void tiesGoToEvenAsInC() {
        assertEquals("3.12", StdioReport.fixed2(100.0 / 32)); // 3.125, printf gives 3.12
        assertEquals("9.38", StdioReport.fixed2(300.0 / 32)); // 9.375
        assertEquals("0.12", StdioReport.fixed2(0.125));
        assertEquals("0.38", StdioReport.fixed2(0.375));
        assertEquals("100.00", StdioReport.fixed2(100.0));
        assertEquals("0.00", StdioReport.fixed2(0.0));
        assertEquals("57.09", StdioReport.fixed2(157 * 100.0 / 275));
        assertEquals("32.06", StdioReport.fixed2(32065 * 100.0 / 100000)); // just below the tie in binary
    }

    @Property(tries = 500)
    void roundsTheExactBinaryValue(@ForAll @LongRange(min = 0, max = 100000) long v, @ForAll @LongRange(min = 1, max = 100000) long total) {
        double d = v * 100.0 / total;
        assertEquals(new BigDecimal(d).setScale(2, RoundingMode.HALF_EVEN).toPlainString(), StdioReport.fixed2(d));
    }
}
