package io.perfj.report;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** perf report's -F lists: the columns, the rows' order and their keys. */
class ReportFieldsTest {
    private static final List<SortKey> DEFAULT = List.of(SortKey.COMM, SortKey.DSO, SortKey.SYM);

    private static List<String> headers(ReportFields f) {
        return f.columns().stream().map(ReportFields.Field::header).toList();
    }

    @Test
    void aListIsTheColumnsAndTheOrderAndKeysRowsBy() {
        ReportFields f = ReportFields.parse("overhead,sample,sym", null, DEFAULT, true, false, false);
        assertEquals(List.of("Overhead", "Samples", "Symbol"), headers(f));
        assertEquals(List.of(SortKey.SYM), f.keys());
        assertEquals(f.columns(), f.order());
    }

    @Test
    void sortKeysComeFirstInTheOrderAndLastAmongTheColumns() {
        ReportFields f = ReportFields.parse("overhead,sym", List.of(SortKey.DSO), DEFAULT, false, false, false);
        assertEquals(List.of("Overhead", "Symbol", "Shared Object"), headers(f));
        assertEquals(List.of(SortKey.DSO, SortKey.SYM), f.keys());
        assertEquals(List.of("Shared Object", "Overhead", "Symbol"),
                f.order().stream().map(ReportFields.Field::header).toList());
    }

    @Test
    void aPlusListAddsToTheDefaultColumnsAndKeepsTheDefaultOrder() {
        ReportFields f = ReportFields.parse("+period,overhead", null, DEFAULT, true, true, false);
        assertEquals(List.of("Children", "Self", "Samples", "Period", "Command", "Shared Object", "Symbol"), headers(f));
        assertEquals(DEFAULT, f.keys());
        assertNull(f.order());
    }

    @Test
    void unknownFieldsAndEmptyListsAreRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> ReportFields.parse("overhead,bogus", null, DEFAULT, false, false, false));
        assertThrows(IllegalArgumentException.class, () -> ReportFields.parse(" , ", null, DEFAULT, false, false, false));
    }
}
