package io.perfj.cli;

import io.perfj.perfdata.FeatureId;
import io.perfj.perfdata.PerfData;
import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Tracepoint recordings (fixtures/make-tracepoints.sh) against perf 6.1's script, report and
 * header -I, byte for byte. The kernel symbols (report's symbols, %ps) come from
 * archive/tracepoints.buildid-cache.tar.xz alone.
 */
class TracepointGoldenTest {
    private static String[] withCache(String command, String name, String... more) {
        String[] base = {command, "-i", Fixtures.recording(name).toString(), "--buildid-dir",
                BuildIdCacheFixture.unpacked("tracepoints.buildid-cache").toString(), "--no-system-files"};
        String[] all = java.util.Arrays.copyOf(base, base.length + more.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return all;
    }

    @ParameterizedTest
    @ValueSource(strings = {"tp-sched", "tp-proc", "tp-syscalls", "tp-irq-timer", "tp-uprobe", "tp-tcp", "tp-pipe", "tp-chain",
            "tp-tree", "tp-btrfs"})
    void scriptPrintsTheFieldsAsPerf(String name) {
        CliFixtures.Run r = CliFixtures.runPerf(withCache("script", name));
        assertEquals(0, r.rc(), r.err());
        ScriptGoldenTest.assertSameLines(Fixtures.golden(name, "script"), r.out());
        assertEquals("", r.err());
    }

    /**
     * -a recordings (a dummy event besides) sort by comm,dso,sym; the others by trace text, with
     * the call graph under each row when the events have callchains (tp-chain, tp-tree).
     */
    @ParameterizedTest
    @ValueSource(strings = {"tp-sched", "tp-proc", "tp-syscalls", "tp-irq-timer", "tp-uprobe", "tp-tcp", "tp-pipe", "tp-chain",
            "tp-tree", "tp-btrfs"})
    void reportAsPerf(String name) {
        CliFixtures.Run r = CliFixtures.runPerf(withCache("report", name, "--stdio"));
        assertEquals(0, r.rc(), r.err());
        assertEquals(String.join("\n", ReportGoldenTest.withoutTip(Fixtures.golden(name, "report"))),
                String.join("\n", ReportGoldenTest.withoutTip(r.out())));
    }

    @ParameterizedTest
    @ValueSource(strings = {"tp-sched", "tp-proc", "tp-syscalls", "tp-irq-timer", "tp-uprobe", "tp-tcp", "tp-pipe", "tp-chain",
            "tp-tree", "tp-btrfs"})
    void headerAsPerf(String name) {
        CliFixtures.Run r = CliFixtures.runPerf("header", "-I", "-i", Fixtures.recording(name).toString());
        assertEquals(0, r.rc(), r.err());
        assertEquals(dropCaptured(Fixtures.golden(name, "header-I")), dropCaptured(r.out()));
    }

    /**
     * {@code -s trace} and {@code -s trace_fields} asked for (also under -a, where a dummy event
     * has no samples; tp-chain: a column per field with the call graph under each row).
     */
    @ParameterizedTest
    @ValueSource(strings = {"tp-sched:trace", "tp-syscalls:trace", "tp-sched:trace_fields", "tp-syscalls:trace_fields",
            "tp-chain:trace_fields", "tp-btrfs:trace_fields"})
    void reportSortedByTraceAsPerf(String nameAndKey) {
        String name = nameAndKey.substring(0, nameAndKey.indexOf(':'));
        String key = nameAndKey.substring(name.length() + 1);
        CliFixtures.Run r = CliFixtures.runPerf(withCache("report", name, "--stdio", "-s", key));
        assertEquals(0, r.rc(), r.err());
        assertEquals(String.join("\n", ReportGoldenTest.withoutTip(Fixtures.golden(name, "report-" + key))),
                String.join("\n", ReportGoldenTest.withoutTip(r.out())));
    }

    /**
     * Call graphs under trace rows (make-tracepoints.sh's tp-tree goldens): one text reached by
     * two call paths, the trace key beside a symbol key (the Children rows of the callers), the
     * limits; the single sample of sys_enter_close is cut to the header's width without
     * --children, where perf never compares (and so formats) it before sizing the column.
     */
    @ParameterizedTest
    @ValueSource(strings = {"no-children:--no-children", "callee:-g callee", "G:-G", "trace-sym:-s trace,sym",
            "trace-sym-no-children:-s trace,sym --no-children", "percent-limit:--percent-limit 30",
            "folded:--no-children -g folded", "trace_fields:-s trace_fields",
            "trace_fields-no-children:-s trace_fields --no-children", "trace_fields-sym:-s trace_fields,sym",
            "symbols:--symbols nap", "comms-trace-comm:--comms tptree -s trace,comm"})
    void callGraphsUnderTraceRowsAsPerf(String variant) {
        String name = variant.substring(0, variant.indexOf(':'));
        String[] args = variant.substring(name.length() + 1).split(" ");
        String[] all = java.util.Arrays.copyOf(new String[]{"--stdio"}, 1 + args.length);
        System.arraycopy(args, 0, all, 1, args.length);
        CliFixtures.Run r = CliFixtures.runPerf(withCache("report", "tp-tree", all));
        assertEquals(0, r.rc(), r.err());
        assertEquals(String.join("\n", ReportGoldenTest.withoutTip(Fixtures.golden("tp-tree", "report-" + name))),
                String.join("\n", ReportGoldenTest.withoutTip(r.out())));
        assertEquals("", r.err());
    }

    /**
     * The same rows in the default mode (exact keys and a total order, not perf's tree replays) as
     * perf 7.2's, with the function inlined at frame-pointer addresses ({@code sys3}) that both add:
     * its frames inlined into {@code run} and into {@code _start}, neighbouring functions, make one
     * {@code sys3 (inlined)} row as perf's symbol comparison makes them one entry.
     */
    @ParameterizedTest
    @ValueSource(strings = {"report", "report-trace-sym", "report-no-children"})
    void traceRowsInTheDefaultModeAsPerf72(String golden) {
        String[] args = switch (golden) {
            case "report-trace-sym" -> new String[]{"--stdio", "-s", "trace,sym"};
            case "report-no-children" -> new String[]{"--stdio", "--no-children"};
            default -> new String[]{"--stdio"};
        };
        CliFixtures.Run r = CliFixtures.run(withCache("report", "tp-tree", args));
        assertEquals(0, r.rc(), r.err());
        assertEquals(String.join("\n", ReportGoldenTest.withoutTip(Fixtures.golden("tp-tree", golden + ".perf72"))),
                String.join("\n", ReportGoldenTest.withoutTip(r.out())));
        if (golden.equals("report-trace-sym")) {
            // one row per trace text (four texts), not one per function sys3 is inlined into
            assertEquals(4, r.out().lines().filter(l -> l.endsWith("[.] sys3 (inlined)")).count(), r.out());
        }
    }

    /** perf's field text is the formatted trace cut at spaces: a comm with a space shows its first word. */
    @Test
    void traceFieldsCutTheTextAtSpacesAsPerf() {
        assertTrue(Fixtures.golden("tp-sched", "report-trace_fields").contains(" VM        9303 "));
        assertEquals("VM", io.perfj.report.TraceFieldsColumns.fromText("prev_comm=VM Thread prev_pid=9303", "prev_comm"));
        assertEquals("", io.perfj.report.TraceFieldsColumns.fromText("fd: 0x1, buf: 0x2", "fd"));
        assertEquals(null, io.perfj.report.TraceFieldsColumns.fromText("a=1 b=2", "c"));
    }

    /** The trace keys in JSON: the text, and each field's column text by the field's name. */
    @Test
    void traceKeysInJson() {
        CliFixtures.Run r = CliFixtures.run(withCache("report", "tp-tree", "--json", "-s", "trace,trace_fields"));
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.out().contains("\"trace\":\"fd: 0xffffffffffffffff\",\"trace_fields\":{\"__syscall_nr\":"), r.out());
    }

    /** The pipe read from a stream (standard input), not a file: the same script as perf's. */
    @Test
    void pipeFromAStream() throws Exception {
        byte[] all = Files.readAllBytes(Fixtures.recording("tp-pipe"));
        try (PerfData pd = PerfData.openStream(new java.io.ByteArrayInputStream(all), "<stdin>")) {
            var in = pd.records();
            while (in.next() != null) {
                // the HEADER_TRACING_DATA record hands its blob over as it passes
            }
            assertTrue(in.warnings().isEmpty(), in.warnings().toString());
            var events = io.perfj.trace.TraceEvents.of(pd).orElseThrow();
            assertTrue(events.warnings().isEmpty(), events.warnings().toString());
            assertEquals("sched:sched_switch", events.byId(pd.evlist().evsels().getFirst().attr().config()).fullName());
        }
    }

    private static String dropCaptured(String s) {
        return s.replaceFirst("# captured on    : [^\n]*\n", "");
    }

    /**
     * A format file whose size runs past the tracing data: one warning naming the file, the
     * structure and the offset; the events read before it still print their fields.
     */
    @Test
    void damagedTracingDataWarnsOnceAndPrintsTheRest(@TempDir Path tmp) throws Exception {
        Path src = Fixtures.recording("tp-irq-timer");
        byte[] all = Files.readAllBytes(src);
        long at;
        String lost;
        try (PerfData pd = PerfData.open(src)) {
            var b = pd.features().get(FeatureId.TRACING_DATA);
            var files = io.perfj.trace.TraceEvents.parse(b, "x").data().eventFiles();
            // the 8-byte size in front of the last event format file
            var last = files.getLast();
            at = last.offset() - 8;
            lost = last.system() + ":" + last.text().lines().findFirst().orElseThrow().substring("name: ".length()) + ":";
        }
        ByteBuffer.wrap(all).order(ByteOrder.LITTLE_ENDIAN).putLong((int) at, 1L << 40);
        Path bad = tmp.resolve("bad.data");
        Files.write(bad, all);
        CliFixtures.Run r = CliFixtures.runPerf("script", "-i", bad.toString(), "--buildid-dir",
                BuildIdCacheFixture.unpacked("tracepoints.buildid-cache").toString(), "--no-system-files");
        assertEquals(0, r.rc(), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().startsWith(bad + ": tracing_data event format of "), r.err());
        assertTrue(r.err().contains("at offset 0x" + Long.toHexString(at)), r.err());
        String golden = Fixtures.golden("tp-irq-timer", "script");
        assertEquals(golden.lines().count(), r.out().lines().count());
        // every other event still prints its fields
        java.util.Set<String> printed = new java.util.HashSet<>(r.out().lines().toList());
        long kept = golden.lines().filter(l -> !l.contains(lost)).peek(l -> assertTrue(printed.contains(l), l)).count();
        assertTrue(kept > 100, "lines of the events before the damage: " + kept);
    }
}
