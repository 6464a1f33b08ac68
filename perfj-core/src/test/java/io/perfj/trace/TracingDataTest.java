package io.perfj.trace;

import io.perfj.io.FormatException;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The tracing_data blob of the committed recordings, whole and damaged. */
class TracingDataTest {
    @Test
    void readsTheSchedRecording() {
        TracingData td = TracingData.parse(TraceFixtures.bytes(TraceFixtures.blob("tp-sched")));
        assertEquals("0.6", td.version());
        assertFalse(td.bigEndian());
        assertEquals(8, td.longSize());
        assertEquals(4096, td.pageSize());
        assertTrue(td.headerPage().contains("field: u64 timestamp;"), td.headerPage());
        assertTrue(td.headerEvent().contains("type_len"), td.headerEvent());
        assertEquals(List.of("sched"), td.eventFiles().stream().map(TracingData.EventFile::system).toList());
        assertTrue(td.eventFiles().getFirst().text().startsWith("name: sched_switch\nID: "));
        assertEquals("", td.kallsyms(), "perf writes no kallsyms");
        assertTrue(td.printk().contains(" : \""), "printk formats");
        assertTrue(td.warnings().isEmpty(), td.warnings().toString());
    }

    @Test
    void everyRecordedEventHasItsFormat() {
        TraceEvents te = TraceEvents.parse(TraceFixtures.bytes(TraceFixtures.blob("tp-irq-timer")), "tp-irq-timer.data");
        List<String> names = te.data().eventFiles().stream()
                .map(f -> EventFormat.parse(f.system(), f.text(), "x", f.offset()).fullName()).toList();
        assertTrue(names.containsAll(List.of("irq:softirq_entry", "irq:irq_handler_entry", "timer:timer_start",
                "timer:hrtimer_start")), names.toString());
        assertTrue(te.warnings().isEmpty(), te.warnings().toString());
    }

    @Test
    void aBlobCutShortKeepsWhatCameBeforeWithOneWarning() {
        byte[] whole = TraceFixtures.blob("tp-irq-timer");
        TracingData full = TracingData.parse(TraceFixtures.bytes(whole));
        TracingData.EventFile third = full.eventFiles().get(2);
        int cut = (int) third.offset() + 10;
        TracingData td = TracingData.parse(TraceFixtures.bytes(Arrays.copyOf(whole, cut)));
        assertEquals(2, td.eventFiles().size());
        assertEquals(full.eventFiles().subList(0, 2), td.eventFiles());
        assertEquals(1, td.warnings().size(), td.warnings().toString());
        String w = td.warnings().getFirst();
        assertTrue(w.startsWith("test.data: tracing_data event format of "), w);
        assertTrue(w.contains("at offset 0x" + Long.toHexString(third.offset() - 8)), w);
    }

    @Test
    void everyCutReadsOrFailsTyped() {
        byte[] whole = TraceFixtures.blob("tp-proc");
        for (int cut = 0; cut < whole.length; cut += 13) {
            byte[] part = Arrays.copyOf(whole, cut);
            try {
                TracingData td = TracingData.parse(TraceFixtures.bytes(part));
                assertTrue(cut >= 18 || !td.warnings().isEmpty(), "cut " + cut);
            } catch (FormatException e) {
                assertTrue(cut < 20, "only a cut header fails outright: " + cut + " " + e.getMessage());
            }
            assertEquals(cut == whole.length ? 0 : 1,
                    Math.min(1, TraceEvents.parse(TraceFixtures.bytes(part), "test.data").warnings().size()));
        }
    }

    @Test
    void notTracingData() {
        FormatException e = assertThrows(FormatException.class,
                () -> TracingData.parse(TraceFixtures.bytes("\u0017\u0008Dtrazing0.6".getBytes())));
        assertEquals("test.data: tracing_data at offset 0x0: not tracing data (magic is not \\x17\\x08Dtracing)",
                e.getMessage());
    }
}
