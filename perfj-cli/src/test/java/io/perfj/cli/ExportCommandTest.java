package io.perfj.cli;

import io.perfj.export.pprof.ProfileProto;
import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** perfj export from the command line: formats, output file, event choice, errors. */
class ExportCommandTest {
    @TempDir
    Path tmp;

    private static String[] args(String... more) {
        String[] base = {"export", "--buildid-dir", BuildIdCacheFixture.dir().toString(), "--no-system-files",
                "--perf-map-dir", Fixtures.file("perf-maps").toString()};
        String[] a = new String[base.length + more.length];
        System.arraycopy(base, 0, a, 0, base.length);
        System.arraycopy(more, 0, a, base.length, more.length);
        return a;
    }

    /**
     * A recording damaged part-way: the export holds the samples before the damage (the same
     * stacks as the recording cut just before it gives) and the command still ends with the
     * one-line error naming the offset.
     */
    @Test
    void damagedPartWayExportsWhatCameBeforeAndFails() throws java.io.IOException {
        byte[] pipe = Files.readAllBytes(Fixtures.recording("pipe"));
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(pipe).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        // the pipe header (magic, size), then records; the size of one past the middle set to 0
        int at = (int) b.getLong(8);
        int damaged = -1;
        while (at + 8 <= pipe.length) {
            int size = b.getShort(at + 6) & 0xffff;
            if (at > pipe.length / 2 && b.getInt(at) == 9) { // a SAMPLE
                damaged = at;
                break;
            }
            at += size;
        }
        assertTrue(damaged > 0, "a sample past the middle of pipe.data");
        byte[] bad = pipe.clone();
        java.nio.ByteBuffer.wrap(bad).order(java.nio.ByteOrder.LITTLE_ENDIAN).putShort(damaged + 6, (short) 0);
        Path broken = tmp.resolve("broken.data");
        Files.write(broken, bad);
        Path cut = tmp.resolve("cut.data");
        Files.write(cut, java.util.Arrays.copyOf(pipe, damaged));
        Path got = tmp.resolve("got.folded");
        CliFixtures.Run r = CliFixtures.run(args("--format", "folded", "-i", broken.toString(), "-o", got.toString()));
        assertEquals(2, r.rc(), r.err());
        assertTrue(r.err().contains("0x" + Integer.toHexString(damaged)), r.err());
        assertEquals(1, r.err().lines().filter(l -> l.startsWith("perfj: ")).count(), r.err());
        CliFixtures.Run whole = CliFixtures.run(args("--format", "folded", "-i", cut.toString()));
        assertEquals(0, whole.rc(), whole.err());
        assertFalse(whole.out().isEmpty());
        assertEquals(whole.out(), Files.readString(got));
        // the flame graph too: drawn from the same samples, then the error
        Path svg = tmp.resolve("got.svg");
        CliFixtures.Run f = CliFixtures.run("flamegraph", "--no-system-files", "-i", broken.toString(), "-o", svg.toString());
        assertEquals(2, f.rc(), f.err());
        assertTrue(Files.size(svg) > 0);
    }

    /** Folded stacks as stackcollapse-perf.pl makes them from perf script (perf 6.1's mode). */
    @Test
    void foldedMatchesStackcollapse() {
        CliFixtures.Run r = CliFixtures.runPerf(args("--format", "folded", "-i", Fixtures.recording("two-events").toString()));
        assertEquals(0, r.rc(), r.err());
        assertEquals(Fixtures.golden("two-events", "folded"), r.out());
        assertTrue(r.err().contains("folded the samples of cpu-clock only"), r.err());
        CliFixtures.Run task = CliFixtures.run(args("--format", "folded", "--event", "task-clock",
                "-i", Fixtures.recording("two-events").toString()));
        assertEquals(0, task.rc(), task.err());
        assertTrue(task.out().contains("hot;__libc_start_call_main;main;compute_a "), task.out());
        assertTrue(task.err().contains("folded the samples of task-clock only"), task.err());
        CliFixtures.Run none = CliFixtures.run(args("--format", "folded", "--event", "cycles",
                "-i", Fixtures.recording("two-events").toString()));
        assertEquals(0, none.rc());
        assertEquals("", none.out());
        assertTrue(none.err().contains("no samples of event 'cycles'"), none.err());
    }

    @Test
    void pprofToAFileWithFilters() throws Exception {
        Path out = tmp.resolve("p.pb.gz");
        CliFixtures.Run r = CliFixtures.run(args("--format", "pprof", "-o", out.toString(), "--symbols", "compute_a",
                "-i", Fixtures.recording("c-fp").toString()));
        assertEquals(0, r.rc(), r.err());
        assertEquals("", r.out());
        ProfileProto.Profile p;
        try (InputStream in = new GZIPInputStream(Files.newInputStream(out))) {
            p = ProfileProto.Profile.parseFrom(in);
        }
        long samples = p.getSampleList().stream().mapToLong(s -> s.getValue(0)).sum();
        assertTrue(samples > 0);
        for (ProfileProto.Sample s : p.getSampleList()) {
            ProfileProto.Location leaf = p.getLocation((int) s.getLocationId(0) - 1);
            long fn = leaf.getLine(leaf.getLineCount() - 1).getFunctionId();
            assertEquals("compute_a", p.getStringTable((int) p.getFunction((int) fn - 1).getName()));
        }
    }

    @Test
    void speedscopeToStandardOutput() {
        CliFixtures.Run r = CliFixtures.run(args("--format", "speedscope", "-i", Fixtures.recording("c-fp").toString()));
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.out().startsWith("{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\""), r.out());
    }

    /** Gzipped because the name ends in .gz; report's filters apply to the samples exported. */
    @Test
    void firefoxGzippedWithFilters() throws Exception {
        Path out = tmp.resolve("p.json.gz");
        CliFixtures.Run r = CliFixtures.run(args("--format", "firefox", "-o", out.toString(), "--symbols", "compute_a",
                "-i", Fixtures.recording("c-fp").toString()));
        assertEquals(0, r.rc(), r.err());
        assertEquals("", r.out());
        String json;
        try (InputStream in = new GZIPInputStream(Files.newInputStream(out))) {
            json = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        assertTrue(json.startsWith("{\"meta\":{\"version\":24,\"preprocessedProfileVersion\":70,"), "version");
        assertTrue(json.contains("\"product\":\"perfj\""), "product");
        // the filter keeps compute_a's samples, whose stacks do not pass through compute_b
        assertTrue(json.contains("\"compute_a\"") && json.contains("\"main\""), "compute_a and its callers");
        assertFalse(json.contains("\"compute_b\""), "no compute_b");
        assertFalse(json.contains("\"startTime\":0.0"), "from the recording's time");
    }

    @Test
    void firefoxToStandardOutputIsPlainJson() {
        CliFixtures.Run r = CliFixtures.run(args("--format", "firefox", "-i", Fixtures.recording("c-fp").toString()));
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.out().startsWith("{\"meta\":{"), "plain JSON");
    }

    @Test
    void unknownFormatIsAUsageError() {
        CliFixtures.Run r = CliFixtures.run(args("--format", "svg", "-i", Fixtures.recording("c-fp").toString()));
        assertEquals(2, r.rc());
        assertTrue(r.err().contains("'svg' is not a format (folded, pprof, speedscope, firefox)"), r.err());
    }
}
