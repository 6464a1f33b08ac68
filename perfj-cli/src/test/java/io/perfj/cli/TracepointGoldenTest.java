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
    @ValueSource(strings = {"tp-sched", "tp-proc", "tp-syscalls", "tp-irq-timer", "tp-uprobe", "tp-tcp"})
    void scriptPrintsTheFieldsAsPerf(String name) {
        CliFixtures.Run r = CliFixtures.runPerf(withCache("script", name));
        assertEquals(0, r.rc(), r.err());
        ScriptGoldenTest.assertSameLines(Fixtures.golden(name, "script"), r.out());
        assertEquals("", r.err());
    }

    /** -a recordings (a dummy event besides) sort by comm,dso,sym; the others by trace text. */
    @ParameterizedTest
    @ValueSource(strings = {"tp-sched", "tp-proc", "tp-syscalls", "tp-irq-timer", "tp-uprobe", "tp-tcp"})
    void reportAsPerf(String name) {
        CliFixtures.Run r = CliFixtures.runPerf(withCache("report", name, "--stdio"));
        assertEquals(0, r.rc(), r.err());
        assertEquals(String.join("\n", ReportGoldenTest.withoutTip(Fixtures.golden(name, "report"))),
                String.join("\n", ReportGoldenTest.withoutTip(r.out())));
    }

    @ParameterizedTest
    @ValueSource(strings = {"tp-sched", "tp-proc", "tp-syscalls", "tp-irq-timer", "tp-uprobe", "tp-tcp"})
    void headerAsPerf(String name) {
        CliFixtures.Run r = CliFixtures.run("header", "-I", "-i", Fixtures.recording(name).toString());
        assertEquals(0, r.rc(), r.err());
        assertEquals(dropCaptured(Fixtures.golden(name, "header-I")), dropCaptured(r.out()));
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
