package io.perfj.export;

import io.perfj.perfdata.PerfData;
import io.perfj.profile.Profile;
import io.perfj.perfdata.RecordType;
import io.perfj.perfdata.SampleFormat;
import io.perfj.session.Session;
import io.perfj.session.SessionOptions;
import io.perfj.symbols.SymbolOptions;
import io.perfj.testing.PerfDataBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Folded stacks of recordings the script would misread, and the choice of event. */
class FoldedStacksTest {
    @TempDir
    Path tmp;

    private static byte[] comm(PerfDataBuilder b, int pid, int tid, String name) {
        byte[] s = name.getBytes(StandardCharsets.UTF_8);
        ByteBuffer body = ByteBuffer.allocate(8 + (s.length + 8) / 8 * 8).order(ByteOrder.LITTLE_ENDIAN);
        body.putInt(pid).putInt(tid).put(s);
        return b.recordRaw(RecordType.COMM, 0, body.array());
    }

    private String fold(byte[] file, String event, FoldedStacks[] kept) throws Exception {
        Path f = tmp.resolve("r.data");
        Files.write(f, file);
        try (PerfData d = PerfData.open(f)) {
            Session s = Session.of(d, SessionOptions.of(SymbolOptions.builder().buildIdDir(tmp).perfMapDir(tmp).noSystemFiles().build()));
            FoldedStacks folded = new FoldedStacks(Profile.read(s, Session.DEFAULT_MAX_STACK), event);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            folded.write(out);
            kept[0] = folded;
            return out.toString(StandardCharsets.UTF_8);
        }
    }

    /**
     * Without callchains each sample is its sampled frame (the script folds such a recording to
     * nothing); one-character and spaced command names stay whole; without a recorded period
     * each sample weighs 1.
     */
    @Test
    void samplesWithoutCallchainsAndOddCommandNames() throws Exception {
        PerfDataBuilder b = new PerfDataBuilder(ByteOrder.LITTLE_ENDIAN);
        b.addAttr(b.attr(1, 0, 1000, SampleFormat.IP | SampleFormat.TID | SampleFormat.PERIOD, 0, 0), 1);
        b.addAttr(b.attr(1, 1, 1000, SampleFormat.IP | SampleFormat.TID, 0, 0), 2);
        b.add(comm(b, 7, 7, "a"));
        b.add(comm(b, 8, 8, "w 12 x"));
        long u = 2; // PERF_RECORD_MISC_USER
        b.add(b.record(RecordType.SAMPLE, (int) u, 0x1000, (7L << 32) | 7, 250));
        b.add(b.record(RecordType.SAMPLE, (int) u, 0x1000, (7L << 32) | 7, 250));
        b.add(b.record(RecordType.SAMPLE, (int) u, 0x2000, (8L << 32) | 8, 100));
        FoldedStacks[] f = new FoldedStacks[1];
        String out = fold(b.buildFile(), null, f);
        assertEquals("a;[unknown] 500\nw_12_x;[unknown] 100\n", out);
        assertEquals("cpu-clock:HG", f[0].event()); // no exclude flags: perf names it :HG
        assertFalse(f[0].otherEvents());
    }

    /** Only one event is folded: the first one sampled, or the one asked for. */
    @Test
    void oneEventAtATime() throws Exception {
        PerfDataBuilder b = new PerfDataBuilder(ByteOrder.LITTLE_ENDIAN);
        long st = SampleFormat.IP | SampleFormat.TID | SampleFormat.ID | SampleFormat.PERIOD;
        b.addAttr(b.attr(1, 0, 1000, st, 0, 0), 1);
        b.addAttr(b.attr(1, 1, 1000, st, 0, 0), 2);
        b.add(comm(b, 7, 7, "hot"));
        b.add(b.record(RecordType.SAMPLE, 2, 0x1000, (7L << 32) | 7, 2, 30));
        b.add(b.record(RecordType.SAMPLE, 2, 0x1000, (7L << 32) | 7, 1, 10));
        FoldedStacks[] f = new FoldedStacks[1];
        assertEquals("hot;[unknown] 30\n", fold(b.buildFile(), null, f));
        assertEquals("task-clock:HG", f[0].event());
        assertTrue(f[0].otherEvents());
        assertEquals("hot;[unknown] 10\n", fold(b.buildFile(), "cpu-clock:HG", f));
        assertEquals("", fold(b.buildFile(), "cycles", f));
        assertEquals(null, f[0].event());
    }
}
