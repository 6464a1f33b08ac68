package io.perfj.report;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The sample counts of report's title lines, as perf's convert_unit prints them. */
class StdioReportUnitsTest {
    @Test
    void aCountIsDividedOnlyWhenAboveOneThousand() {
        assertEquals("999 ", StdioReport.unitNumber(999));
        assertEquals("1000 ", StdioReport.unitNumber(1000));
        assertEquals("1K", StdioReport.unitNumber(1001));
        assertEquals("2K", StdioReport.unitNumber(2999));
        assertEquals("1000K", StdioReport.unitNumber(1_000_000));
        assertEquals("1000M", StdioReport.unitNumber(1_000_001_000L));
        assertEquals("2M", StdioReport.unitNumber(2_000_001L));
    }
}
