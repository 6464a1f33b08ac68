package io.perfj.jit;

import io.perfj.perfdata.PerfData;
import io.perfj.session.ResolvedSample;
import io.perfj.session.Session;
import io.perfj.session.SessionOptions;
import io.perfj.symbols.DsoKind;
import io.perfj.symbols.Location;
import io.perfj.symbols.SymbolOptions;
import io.perfj.testing.PerfDataBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A recording whose process maps its jitdump: code loads count from their timestamps, code
 * loaded later over the same addresses wins from then on, and the process's anonymous
 * executable mmaps after the dump are left out, as perf report sees the file perf inject --jit
 * writes.
 */
class JitInjectionTest {
    private static final int PID = 100;
    private static final long CODE = 0x7f00_0001_0000L;
    private static final long SAMPLE_TYPE = 1 | 2 | 4; // IP | TID | TIME
    private static final int MMAP2 = 10;
    private static final int SAMPLE = 9;

    private static byte[] mmap2(PerfDataBuilder b, long time, long start, long len, int prot, String file) {
        byte[] name = file.getBytes(StandardCharsets.UTF_8);
        int nameLen = (name.length + 8) / 8 * 8;
        ByteBuffer x = ByteBuffer.allocate(64 + nameLen + 16).order(b.order());
        x.putInt(PID).putInt(PID).putLong(start).putLong(len).putLong(0).putInt(0).putInt(0).putLong(0).putLong(0)
                .putInt(prot).putInt(2).put(name);
        x.position(64 + nameLen);
        x.putInt(PID).putInt(PID).putLong(time); // sample_id_all: TID, TIME
        return b.recordRaw(MMAP2, 2, x.array());
    }

    private static byte[] recording(boolean monotonic) {
        PerfDataBuilder b = new PerfDataBuilder(ByteOrder.LITTLE_ENDIAN);
        long flags = (1L << 18) | (monotonic ? 1L << 25 : 0); // sample_id_all, use_clockid
        byte[] attr = b.attr(1, 0, 1000, SAMPLE_TYPE, 0, flags);
        ByteBuffer.wrap(attr).order(ByteOrder.LITTLE_ENDIAN).putInt(92, monotonic ? 1 : 0); // CLOCK_MONOTONIC
        b.addAttr(attr);
        b.add(mmap2(b, 5, 0x7f00_0000_0000L, 0x1000, 5, "/run/app/jit-" + PID + ".dump"));
        // the code area: perf inject drops this once the dump has been read
        b.add(mmap2(b, 6, CODE, 0x10_0000, 7, "//anon"));
        for (long[] s : new long[][] {{50, CODE + 0x10}, {150, CODE + 0x10}, {200, CODE + 0x10}, {250, CODE + 0x10},
                {260, CODE + 0x8000}}) {
            b.add(b.record(SAMPLE, 2, s[1], ((long) PID << 32) | PID, s[0]));
        }
        return b.buildFile();
    }

    private static byte[] dump() {
        byte[] code = new byte[0x100];
        return new JitDumpBuilder(ByteOrder.LITTLE_ENDIAN, PID)
                .debug(100, CODE, CODE, 3, "app.js")
                .load(100, CODE, "JS:first", code, 1)
                .load(200, CODE, "JS:second", code, 2)
                .bytes();
    }

    private static List<ResolvedSample> run(Path dir, byte[] rec, List<String> warnings) {
        List<ResolvedSample> out = new ArrayList<>();
        SymbolOptions so = SymbolOptions.builder().perfMapDir(dir).noSystemFiles().build().withJitdumpDir(dir);
        try (PerfData d = PerfData.of(java.lang.foreign.MemorySegment.ofArray(rec), "jit.data"); Session s = Session.of(d, SessionOptions.of(so))) {
            s.forEachSample(out::add);
            warnings.addAll(s.warnings());
        }
        return out;
    }

    private static String name(Location l) {
        return l.symbol() == null ? null : l.symbol().name();
    }

    @Test
    void loadsCountFromTheirTimesAndLaterOnesWin(@TempDir Path dir) throws IOException {
        Files.write(dir.resolve("jit-" + PID + ".dump"), dump());
        List<String> warnings = new ArrayList<>();
        List<ResolvedSample> s = run(dir, recording(true), warnings);
        assertEquals(List.of(), warnings);
        assertEquals(5, s.size());
        assertNull(s.get(0).leaf().dso(), "before the first load, and the anonymous map is not in the model");
        assertEquals("JS:first", name(s.get(1).leaf()));
        assertEquals("/run/app/jitted-100-1.so", s.get(1).leaf().dso().longName());
        assertEquals(DsoKind.JIT_CODE, s.get(1).leaf().dso().kind());
        assertEquals(JitCode.TEXT_OFFSET + 0x10, s.get(1).leaf().mapIp(), "addresses as in inject's object");
        assertEquals("app.js", s.get(1).leaf().dso().jitCode().lineAt(CODE + 0x10).file());
        assertEquals("JS:second", name(s.get(2).leaf()), "a load at the sample's time counts");
        assertEquals("JS:second", name(s.get(3).leaf()));
        assertNull(s.get(4).leaf().dso(), "outside every load: no object (perf inject drops //anon)");
    }

    @Test
    void withoutMonotonicTimesEveryLoadCountsFromTheDumpsMmap(@TempDir Path dir) throws IOException {
        Files.write(dir.resolve("jit-" + PID + ".dump"), dump());
        List<String> warnings = new ArrayList<>();
        List<ResolvedSample> s = run(dir, recording(false), warnings);
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("-k 1"), warnings.get(0));
        assertEquals("JS:second", name(s.get(0).leaf()), "file order: the last load over the address wins");
    }

    @Test
    void aMissingOrDamagedDumpIsAWarning(@TempDir Path dir) throws IOException {
        List<String> warnings = new ArrayList<>();
        List<ResolvedSample> s = run(dir, recording(true), warnings);
        assertEquals(5, s.size());
        assertTrue(warnings.get(0).contains("jit-100.dump") && warnings.get(0).contains("not found"), warnings.toString());
        assertEquals(DsoKind.JIT_MAP, s.get(1).leaf().dso().kind(), "without a dump the anonymous map stays");
        byte[] d = dump();
        Files.write(dir.resolve("jit-" + PID + ".dump"), java.util.Arrays.copyOf(d, d.length - 10));
        warnings.clear();
        s = run(dir, recording(true), warnings);
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("JIT_CODE_LOAD at offset 0x") && warnings.get(0).contains("truncated"),
                warnings.get(0));
        assertEquals("JS:first", name(s.get(3).leaf()), "the loads before the cut are kept");
    }
}
