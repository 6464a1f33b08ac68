package io.perfj.top;

import io.perfj.profile.Frame;
import io.perfj.report.SortKey;
import io.perfj.symbols.Dso;
import io.perfj.symbols.DsoKind;
import io.perfj.symbols.Symbol;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The full-screen view's model: whatever keys and snapshots come, the cursor is on a row and
 * inside the window of rows shown, the lines fit the screen, the order is the chosen one, and
 * the zooms toggle; the terminal's byte sequences decode to the keys perf top users press.
 */
class TopViewTest {
    private static final List<SortKey> KEYS = List.of(SortKey.DSO, SortKey.SYM);
    private static final Dso[] DSOS = {new Dso("/bin/hot", DsoKind.USER, null, d -> null),
            new Dso("/usr/lib/libc.so.6", DsoKind.USER, null, d -> null),
            new Dso("[kernel.kallsyms]", DsoKind.KERNEL, null, d -> null)};

    private static LiveProfile.Snapshot snapshot(List<Integer> periods, String comm) {
        List<LiveProfile.Row> rows = new ArrayList<>();
        long total = 0;
        for (int i = 0; i < periods.size(); i++) {
            Frame f = new Frame(DSOS[i % DSOS.length], new Symbol(i * 16L, i * 16L + 16, "fn" + i, 'T'), i * 16L, '.');
            rows.add(new LiveProfile.Row(comm, f, periods.get(i), 1));
            total += periods.get(i);
        }
        rows.sort(Comparator.comparingLong(LiveProfile.Row::period).reversed());
        return new LiveProfile.Snapshot(rows.size(), total, 0, 0, rows);
    }

    @Provide
    Arbitrary<List<TopView.Key>> keys() {
        return Arbitraries.of(TopView.Key.values()).list().ofMaxSize(60);
    }

    @Property(tries = 300)
    void theCursorStaysOnARowInsideTheWindow(@ForAll @Size(max = 50) List<@IntRange(min = 1, max = 1000) Integer> periods,
                                             @ForAll("keys") List<TopView.Key> keys,
                                             @ForAll @IntRange(min = 1, max = 30) int height,
                                             @ForAll @IntRange(min = 10, max = 120) int width) {
        TopView v = new TopView(KEYS);
        v.height(height);
        v.update(snapshot(periods, "hot"));
        for (TopView.Key k : keys) {
            TopView.Effect e = v.press(k);
            if (e == TopView.Effect.ANNOTATE || e == TopView.Effect.EXPAND) {
                v.showText("page", List.of("a", "b"));
            }
            if (e == TopView.Effect.REFRESH || e == TopView.Effect.RESET) {
                v.update(snapshot(periods, "hot"));
            }
            if (v.showingText()) {
                assertEquals(-1, v.selectedLine());
                continue;
            }
            if (v.rows().isEmpty()) {
                assertEquals(0, v.cursor());
                assertNull(v.selected());
            } else {
                assertTrue(v.cursor() >= 0 && v.cursor() < v.rows().size(), v.cursor() + " of " + v.rows().size());
                assertTrue(v.cursor() >= v.first() && v.cursor() < v.first() + height,
                        "cursor " + v.cursor() + " outside the window from " + v.first());
                String shown = v.lines("cycles", width).get(v.selectedLine());
                String row = TopView.rowLines(snapshot(periods, "hot"), v.rows(), v.keys(), true).get(v.cursor() + 1);
                assertTrue(row.startsWith(shown) && !shown.isEmpty(), "the highlighted line " + shown + " is not " + row);
            }
            List<String> lines = v.lines("cycles", width);
            assertTrue(lines.size() <= TopView.HEADER_LINES + height, lines.size() + " lines");
            assertTrue(lines.stream().allMatch(l -> l.length() <= width));
        }
    }

    @Property(tries = 200)
    void rowsAreInTheChosenOrder(@ForAll @Size(max = 40) List<@IntRange(min = 1, max = 1000) Integer> periods,
                                 @ForAll @IntRange(min = 0, max = 7) int presses) {
        TopView v = new TopView(KEYS);
        v.update(snapshot(periods, "hot"));
        for (int i = 0; i < presses; i++) {
            assertEquals(TopView.Effect.REFRESH, v.press(TopView.Key.SORT));
        }
        assertEquals(TopView.Order.values()[presses % 4], v.order());
        v.update(snapshot(periods, "hot"));
        Comparator<LiveProfile.Row> c = TopView.comparator(v.order());
        for (int i = 1; i < v.rows().size(); i++) {
            assertTrue(c.compare(v.rows().get(i - 1), v.rows().get(i)) <= 0, v.rows().toString());
        }
        if (v.order() == TopView.Order.OVERHEAD) {
            for (int i = 1; i < v.rows().size(); i++) {
                assertTrue(v.rows().get(i - 1).period() >= v.rows().get(i).period());
            }
        }
    }

    @Property(tries = 100)
    void theSelectionFollowsItsRowAcrossSnapshots(@ForAll @Size(min = 2, max = 40) List<@IntRange(min = 1, max = 1000) Integer> periods,
                                                  @ForAll @IntRange(min = 0, max = 39) int down) {
        TopView v = new TopView(KEYS);
        v.update(snapshot(periods, "hot"));
        for (int i = 0; i < down; i++) {
            v.press(TopView.Key.DOWN);
        }
        LiveProfile.Row was = v.selected();
        List<Integer> reversed = new ArrayList<>(periods);
        reversed.replaceAll(p -> 1001 - p);
        v.update(snapshot(reversed, "hot"));
        assertEquals(was.symbol(), v.selected().symbol());
        assertEquals(was.dso(), v.selected().dso());
    }

    @Test
    void zoomsToggleAndTheThreadZoomFirstSeparatesCommands() {
        TopView v = new TopView(KEYS);
        v.update(snapshot(List.of(5, 4, 3), null));
        assertEquals(TopView.Effect.REFRESH, v.press(TopView.Key.ZOOM_DSO));
        assertEquals("hot", v.zoomDso());
        assertTrue(v.lines("cycles", 100).get(1).contains("object: hot"));
        assertEquals(TopView.Effect.REFRESH, v.press(TopView.Key.ZOOM_DSO));
        assertNull(v.zoomDso());
        // rows merged over commands: t first shows them apart
        assertEquals(TopView.Effect.REFRESH, v.press(TopView.Key.ZOOM_THREAD));
        assertEquals(List.of(SortKey.COMM, SortKey.DSO, SortKey.SYM), v.keys());
        assertNull(v.zoomComm());
        v.update(snapshot(List.of(5, 4, 3), "hot"));
        assertEquals(TopView.Effect.REFRESH, v.press(TopView.Key.ZOOM_THREAD));
        assertEquals("hot", v.zoomComm());
        assertEquals(TopView.Effect.REFRESH, v.press(TopView.Key.ZOOM_THREAD));
        assertNull(v.zoomComm());
        assertEquals(TopView.Effect.RESET, v.press(TopView.Key.RESET));
        assertEquals(TopView.Effect.QUIT, v.press(TopView.Key.QUIT));
    }

    @Test
    void helpIsAPageThatQAndEscapeClose() {
        TopView v = new TopView(KEYS);
        v.update(snapshot(List.of(5, 4, 3), null));
        v.press(TopView.Key.HELP);
        assertTrue(v.showingText());
        assertTrue(v.lines("cycles", 100).stream().anyMatch(l -> l.contains("zoom into the selected row's object")));
        assertEquals(TopView.Effect.DRAW, v.press(TopView.Key.QUIT));
        assertTrue(!v.showingText(), "q closes the page, not top");
        v.press(TopView.Key.HELP);
        v.press(TopView.Key.BACK);
        assertTrue(!v.showingText());
    }

    @Test
    void theTitlesAreReportsColumns() {
        TopView v = new TopView(KEYS);
        v.update(snapshot(List.of(3, 1), null));
        List<String> lines = v.lines("cpu-clock", 100);
        assertTrue(lines.get(0).startsWith("   PerfTop: 2 samples, event: cpu-clock, lost: 0"), lines.get(0));
        assertEquals("  Overhead  Shared Object  Symbol", lines.get(3));
        assertEquals("    75.00%  hot            [.] fn0", lines.get(4));
        assertEquals(4, v.selectedLine());
    }

    /** --children: the rows are ordered by their accumulated period, shown before their own as report's columns. */
    @Property(tries = 200)
    void withChildrenTheRowsAreOrderedByTheirAccumulatedPeriod(
            @ForAll @Size(min = 1, max = 40) List<@IntRange(min = 1, max = 1000) Integer> periods,
            @ForAll @Size(min = 40, max = 40) List<@IntRange(min = 0, max = 5000) Integer> extra) {
        LiveProfile.Snapshot snap = snapshot(periods, "hot");
        java.util.IdentityHashMap<LiveProfile.Row, Long> acc = new java.util.IdentityHashMap<>();
        long total = snap.period();
        for (int i = 0; i < snap.rows().size(); i++) {
            LiveProfile.Row r = snap.rows().get(i);
            // a row's children are its own period and some of the others'
            acc.put(r, Math.min(total, r.period() + extra.get(i)));
        }
        TopView v = new TopView(KEYS);
        v.height(100);
        v.update(snap, acc::get);
        for (int i = 1; i < v.rows().size(); i++) {
            assertTrue(acc.get(v.rows().get(i - 1)) >= acc.get(v.rows().get(i)), v.rows().toString());
        }
        List<String> lines = v.lines("cpu-clock", 200);
        assertTrue(lines.get(3).matches("  Children      Self  Shared Object +Symbol"), lines.get(3));
        LiveProfile.Row top = v.rows().getFirst();
        assertTrue(lines.get(4).startsWith(String.format(java.util.Locale.ROOT, "%9.2f%%%9.2f%%  ",
                100.0 * acc.get(top) / total, snap.percent(top))), lines.get(4));
    }

    /** An annotate page refreshed with new lines keeps its scroll position (within the new lines), tabs expanded. */
    @Property(tries = 200)
    void aRefreshedPageKeepsItsPlace(@ForAll @IntRange(min = 0, max = 80) int before,
                                     @ForAll @IntRange(min = 0, max = 80) int after,
                                     @ForAll @IntRange(min = 0, max = 10) int downs) {
        TopView v = new TopView(KEYS);
        v.height(10);
        List<String> a = new ArrayList<>();
        for (int i = 0; i < before; i++) {
            a.add("a\t" + i);
        }
        v.showText("annotate", a);
        for (int i = 0; i < downs; i++) {
            v.press(TopView.Key.DOWN);
        }
        int shownFirst = Math.min(downs, Math.max(0, before - 10));
        List<String> b = new ArrayList<>();
        for (int i = 0; i < after; i++) {
            b.add("b\t" + i);
        }
        v.replaceText(b);
        List<String> lines = v.lines("e", 100);
        int first = Math.min(shownFirst, Math.max(0, after - 10));
        assertEquals(Math.min(10, after), lines.size() - TopView.HEADER_LINES, lines.toString());
        if (after > 0) {
            assertEquals("b       " + first, lines.get(TopView.HEADER_LINES));
        }
        assertEquals(TopView.Effect.DRAW, v.press(TopView.Key.BACK));
        assertTrue(!v.showingText());
        v.replaceText(b);
        assertTrue(!v.showingText(), "no page comes back");
    }

    /** As perf's annotate browser: the page opens at the hottest instruction; TAB, shift-TAB and H move among the hot ones. */
    @Test
    void anAnnotationOpensAtItsHottestInstruction() {
        TopView v = new TopView(KEYS);
        v.height(5);
        List<String> page = new ArrayList<>(List.of(" Percent |\tSource code & Disassembly of hot", "---------", "         : 3    ./src/hot.c:18"));
        double[] percents = {0, 10, 0, 0, 0, 0, 0, 60, 0, 0, 0, 0, 30, 0};
        for (int i = 0; i < percents.length; i++) {
            page.add(String.format(java.util.Locale.ROOT, "%8.2f :   %x:   nop", percents[i], 0x1180 + i));
        }
        v.showText("annotate [.] f", page);
        // line 3 + 7 = 10, centred in a page of 5: lines 8..12
        assertEquals(TopView.HEADER_LINES + 2, v.selectedLine());
        assertTrue(v.lines("e", 80).get(v.selectedLine()).startsWith("   60.00 :"), v.lines("e", 80).toString());
        v.press(TopView.Key.NEXT_HOT);
        assertTrue(v.lines("e", 80).get(v.selectedLine()).startsWith("   30.00 :"));
        v.press(TopView.Key.NEXT_HOT);
        assertTrue(v.lines("e", 80).get(v.selectedLine()).startsWith("   10.00 :"));
        v.press(TopView.Key.NEXT_HOT);
        assertTrue(v.lines("e", 80).get(v.selectedLine()).startsWith("   60.00 :"), "round again");
        v.press(TopView.Key.PREV_HOT);
        assertTrue(v.lines("e", 80).get(v.selectedLine()).startsWith("   10.00 :"));
        v.press(TopView.Key.HOTTEST);
        assertTrue(v.lines("e", 80).get(v.selectedLine()).startsWith("   60.00 :"));
        // scrolled away: no highlight shown; the help page has no hot lines
        v.press(TopView.Key.HOME);
        assertEquals(-1, v.selectedLine());
        v.press(TopView.Key.BACK);
        v.press(TopView.Key.HELP);
        assertEquals(-1, v.selectedLine());
        assertEquals(TopView.Effect.DRAW, v.press(TopView.Key.NEXT_HOT));
    }

    @Test
    void terminalSequencesDecodeToKeys() {
        assertEquals(TopView.Key.UP, TopView.decode("\u001b[A"));
        assertEquals(TopView.Key.DOWN, TopView.decode("\u001bOB"));
        assertEquals(TopView.Key.PAGE_UP, TopView.decode("\u001b[5~"));
        assertEquals(TopView.Key.PAGE_DOWN, TopView.decode("\u001b[6~"));
        assertEquals(TopView.Key.HOME, TopView.decode("\u001b[H"));
        assertEquals(TopView.Key.HOME, TopView.decode("\u001b[1~"));
        assertEquals(TopView.Key.END, TopView.decode("\u001b[F"));
        assertEquals(TopView.Key.END, TopView.decode("\u001b[4~"));
        assertEquals(TopView.Key.BACK, TopView.decode("\u001b"));
        assertEquals(TopView.Key.ANNOTATE, TopView.decode("\r"));
        assertEquals(TopView.Key.EXPAND, TopView.decode("+"));
        assertEquals(TopView.Key.QUIT, TopView.decode("\u0003"));
        assertEquals(TopView.Key.PREV_HOT, TopView.decode("\u001b[Z"));
        assertEquals(TopView.Key.NEXT_HOT, TopView.decode("\t"));
        assertEquals(TopView.Key.HOTTEST, TopView.decode("H"));
        assertEquals(TopView.Key.NONE, TopView.decode("\u001b[Y"));
        assertTrue(TopView.sequenceDone("\u001b[A"));
        assertTrue(!TopView.sequenceDone("\u001b[5"));
        assertTrue(TopView.sequenceDone("\u001b[5~"));
        assertTrue(!TopView.sequenceDone("\u001b"));
    }
}
