package io.perfj.report;

import io.perfj.annotate.SourceLocator;
import io.perfj.compat.PerfSrclines;
import io.perfj.symbols.Dso;
import io.perfj.symbols.DsoKind;
import io.perfj.symbols.Location;
import io.perfj.symbols.Symbol;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** perf's srcline and srcfile texts ({@link SourceLines}) and perf 6.1's differences ({@link PerfSrclines}). */
class SourceLinesTest {
    private static final Dso LIBC = new Dso("/usr/lib/x86_64-linux-gnu/libc.so.6", DsoKind.USER, null, d -> null);
    private static final Symbol MEMSET = new Symbol(0x1000, 0x1100, "memset", 'T');

    @Test
    void aLineIsItsFileWithoutDirectoriesAndItsLine() {
        SourceLines.Text t = SourceLines.found(new SourceLocator.Place("./src/srcline/mix.h", 6, 3, "dwarf"));
        assertEquals(new SourceLines.Text("mix.h:6", "mix.h"), t);
    }

    @Test
    void withoutALineTableTheSymbolAndDecimalOffsetOrTheObjectAndHexAddress() {
        assertEquals(new SourceLines.Text("memset+25", ""), SourceLines.fallback(LIBC, MEMSET, 0x1019));
        assertEquals(new SourceLines.Text("libc.so.6[166f00]", ""), SourceLines.fallback(LIBC, null, 0x166f00));
    }

    @Test
    void perf61sChainEntriesUseTheRawAddress() {
        Location loc = new Location(null, LIBC, MEMSET, 0x7f0000001019L, 0x1019, '.');
        assertEquals("memset+" + (0x7f0000001019L - 0x1000), PerfSrclines.chainValue(loc).line());
        Dso kernel = new Dso("[kernel.kallsyms]", DsoKind.KERNEL, null, d -> null);
        assertNull(PerfSrclines.chainValue(new Location(null, kernel, null, -1L, -1L, 'k')));
    }

    @Test
    void perf61sScriptLeavesOutUnknownLines() {
        assertFalse(PerfSrclines.scriptPrints("??:0"));
        assertTrue(PerfSrclines.scriptPrints("mix.h:6"));
        assertTrue(PerfSrclines.scriptPrints("[kernel.kallsyms][ffffffff81bacf18]"));
    }

    @Test
    void sortKeysParse() {
        assertEquals(java.util.List.of(SortKey.SYM, SortKey.SRCLINE, SortKey.SRCFILE), SortKey.parse("sym,srcline,srcfile"));
        assertTrue(SortKey.SRCLINE.source() && SortKey.SRCFILE.source() && !SortKey.SYM.source());
        assertEquals("Source:Line", SortKey.SRCLINE.header());
        assertEquals("Source File", SortKey.SRCFILE.header());
    }
}
