package io.perfj.annotate;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The --stdio2 padding of perf 7.2's and perf 6.1's layouts (lines as in the nonpie goldens). */
class AnnotateLayoutTest {
    @Test
    void perf72PadsEachLineWithAsManyBlanksAsItHasCharacters() {
        // 8 percent, 1 blank, 4 address, 2 arrow, then the text: "  32.42        shr    $0xb,%rax"
        String line = "  32.42 " + " " + "    " + "  " + AnnotateLayout.CURRENT.instruction("shr    $0xb,%rax", 8, 4);
        assertEquals(31, line.stripTrailing().length());
        assertEquals(62, line.length());
        assertEquals("Percent" + " ".repeat(11), "Percent " + " " + AnnotateLayout.CURRENT.emptyLine(8));
        assertEquals("churn()" + " ".repeat(6), AnnotateLayout.CURRENT.textLine("churn()", 8, 4));
    }

    @Test
    void perf61PadsTheTextToItsColumn() {
        assertEquals("shr    $0xb,%rax", AnnotateLayout.PERF_6_1.instruction("shr    $0xb,%rax", 7, 4).stripTrailing());
        assertEquals(7 + 3 + 4, AnnotateLayout.PERF_6_1.instruction("nop", 7, 4).length());
        assertEquals("churn():  ", AnnotateLayout.PERF_6_1.textLine("churn():", 7, 4));
    }

    @Test
    void onlyPerf72HidesStdio2sTextLines() {
        assertTrue(AnnotateLayout.CURRENT.hidesSource(false));
        assertFalse(AnnotateLayout.CURRENT.hidesSource(true));
        assertFalse(AnnotateLayout.PERF_6_1.hidesSource(false));
        assertFalse(AnnotateLayout.CURRENT.lineMarkers());
        assertTrue(AnnotateLayout.PERF_6_1.lineMarkers());
    }
}
