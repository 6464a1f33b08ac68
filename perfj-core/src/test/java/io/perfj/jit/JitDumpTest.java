package io.perfj.jit;

import io.perfj.io.FormatException;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JitDumpTest {
    private static final byte[] CODE_A = {0x55, 0x48, (byte) 0x89, (byte) 0xe5, 0x5d, (byte) 0xc3};
    private static final byte[] CODE_B = {(byte) 0x90, (byte) 0xc3, (byte) 0xcc};

    private static byte[] sample(ByteOrder order) {
        return new JitDumpBuilder(order, 4242)
                .debug(100, 0x1000, 0x1000L, 10, "a.js", 0x1003L, 11, null, 0x9999L, 99, "elsewhere.js")
                .load(100, 0x1000, "JS:*a", CODE_A, 7)
                .unwinding(150, 24, 8, 0x40)
                .load(200, 0x2000, "JS:~b", CODE_B, 8)
                .move(300, 0x2000, 0x3000, CODE_B.length, 8)
                .raw(99, 24, 350)
                .close(400)
                .bytes();
    }

    @ParameterizedTest
    @ValueSource(strings = {"little", "big"})
    void readsEveryRecordInEitherByteOrder(String which) {
        ByteOrder order = which.equals("big") ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
        JitDump d = JitDump.parse(sample(order), "jit-4242.dump");
        assertEquals(order, d.header().order());
        assertEquals(4242, d.header().pid());
        assertEquals(62, d.header().elfMach());
        assertEquals(1, d.header().version());
        assertEquals(List.of(), d.warnings());
        assertNull(d.damage());
        List<JitRecord> r = d.records();
        assertEquals(7, r.size());
        assertInstanceOf(JitRecord.DebugInfo.class, r.get(0));
        JitRecord.CodeLoad a = assertInstanceOf(JitRecord.CodeLoad.class, r.get(1));
        assertEquals("JS:*a", a.name());
        assertEquals(0x1000, a.codeAddr());
        assertEquals(7, a.codeIndex());
        assertEquals(4243, a.tid());
        assertEquals(100, a.timestamp());
        JitRecord.CodeMove mv = assertInstanceOf(JitRecord.CodeMove.class, r.get(4));
        assertEquals(0x3000, mv.newCodeAddr());
        assertEquals(8, mv.codeIndex());
        JitRecord.Unknown u = assertInstanceOf(JitRecord.Unknown.class, r.get(5));
        assertEquals(99, u.id());
        assertInstanceOf(JitRecord.Close.class, r.get(6));
        assertArrayEquals(CODE_A, d.code(a));
    }

    @Test
    void codesTakeTheDebugAndUnwindingRecordsBeforeThem() {
        JitDump d = JitDump.parse(sample(ByteOrder.LITTLE_ENDIAN), "jit-4242.dump");
        List<JitCode> codes = d.codes();
        assertEquals(2, codes.size());
        JitCode a = codes.get(0);
        assertEquals(3, a.lines().size());
        // the 0xff marker repeats the file before it
        assertEquals("a.js", a.lines().get(1).file());
        assertEquals(10, a.lineAt(0x1000).line());
        assertEquals(10, a.lineAt(0x1002).line());
        assertEquals(11, a.lineAt(0x1005).line());
        assertNull(a.lineAt(0x1006), "past the code");
        assertEquals(CODE_A.length, a.mapLength(), "no unwinding information: the code alone");
        JitCode b = codes.get(1);
        assertEquals(List.of(), b.lines(), "a debug-info record belongs to the next load only");
        assertEquals(8 + 0x40, b.mapLength(), "code rounded to 8 plus the unwinding data's mapped size");
        assertArrayEquals(CODE_B, b.code());
        assertEquals("/tmp/x/jitted-4242-8.so", JitCode.fileName("/tmp/x/jit-4242.dump", 4242, 8));
        assertEquals("./jitted-1-18446744073709551615.so", JitCode.fileName("jit-1.dump", 1, -1));
    }

    @Test
    void unwindingSizeWithoutFrameHeaderStaysForLaterLoads() {
        // perf inject keeps an unwinding record's mapped size until one with a .eh_frame_hdr is used
        byte[] b = new JitDumpBuilder(ByteOrder.LITTLE_ENDIAN, 1)
                .unwinding(1, 8, 0, 0x20).load(2, 0x100, "f", CODE_A, 1).load(3, 0x200, "g", CODE_A, 2).bytes();
        List<JitCode> c = JitDump.parse(b, "jit-1.dump").codes();
        assertEquals(8 + 0x20, c.get(0).mapLength());
        assertEquals(8 + 0x20, c.get(1).mapLength());
    }

    @Test
    void aFileCutInsideARecordKeepsTheRecordsBeforeItWithOneWarning() {
        byte[] whole = sample(ByteOrder.LITTLE_ENDIAN);
        JitDump full = JitDump.parse(whole, "x");
        long loadB = full.records().get(3).offset();
        JitDump d = JitDump.parse(Arrays.copyOf(whole, (int) loadB + 30), "jit-4242.dump");
        assertEquals(3, d.records().size());
        assertEquals(1, d.warnings().size());
        String w = d.warnings().get(0);
        assertTrue(w.startsWith("jit-4242.dump: JIT_CODE_LOAD at offset 0x" + Long.toHexString(loadB)), w);
        assertTrue(w.contains("truncated"), w);
        assertNull(d.damage(), "truncation is no damage");
        assertEquals(1, d.codes().size());
        d.requireIntact();
        // cut inside the 16-byte prefix
        JitDump p = JitDump.parse(Arrays.copyOf(whole, (int) loadB + 5), "jit-4242.dump");
        assertEquals(3, p.records().size());
        assertTrue(p.warnings().get(0).contains("jitdump record prefix at offset 0x" + Long.toHexString(loadB)),
                p.warnings().toString());
    }

    @Test
    void aDamagedRecordIsAFormatExceptionNamingFileRecordAndOffset() {
        byte[] b = sample(ByteOrder.LITTLE_ENDIAN);
        JitDump full = JitDump.parse(b, "x");
        long loadB = full.records().get(3).offset();
        // code_size larger than the record
        java.nio.ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putLong((int) loadB + 40, 1L << 40);
        JitDump d = JitDump.parse(b, "jit-4242.dump");
        assertEquals(3, d.records().size(), "the records before it are kept");
        FormatException e = d.damage();
        assertEquals("jit-4242.dump", e.source());
        assertEquals("JIT_CODE_LOAD", e.structure());
        assertEquals(loadB + 40, e.offset());
        assertEquals(1, d.warnings().size());
        assertThrows(FormatException.class, d::requireIntact);
        // a record size below the prefix
        byte[] c = sample(ByteOrder.BIG_ENDIAN);
        java.nio.ByteBuffer.wrap(c).order(ByteOrder.BIG_ENDIAN).putInt((int) loadB + 4, 3);
        FormatException small = JitDump.parse(c, "y").damage();
        assertEquals(loadB, small.offset());
        assertTrue(small.getMessage().contains("smaller than the record prefix"), small.getMessage());
    }

    @Test
    void debugInfoEntriesMustFitTheirRecord() {
        byte[] b = new JitDumpBuilder(ByteOrder.LITTLE_ENDIAN, 1).debug(1, 0x10, 0x10L, 1, "f.js").bytes();
        java.nio.ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putLong(40 + 24, Long.MAX_VALUE);
        FormatException e = JitDump.parse(b, "d").damage();
        assertEquals("JIT_CODE_DEBUG_INFO", e.structure());
        assertTrue(e.getMessage().contains("nr_entry"), e.getMessage());
        // a file name without its NUL inside the record
        byte[] n = new JitDumpBuilder(ByteOrder.LITTLE_ENDIAN, 1).debug(1, 0x10, 0x10L, 1, "f.js").bytes();
        n[n.length - 1] = 'x';
        assertTrue(JitDump.parse(n, "d").damage().getMessage().contains("file name runs past"));
    }

    @Test
    void badHeadersAreRefused() {
        byte[] ok = sample(ByteOrder.LITTLE_ENDIAN);
        assertThrows(FormatException.class, () -> JitDump.parse(new byte[0], "e"));
        assertThrows(FormatException.class, () -> JitDump.parse(Arrays.copyOf(ok, 20), "short"));
        byte[] magic = ok.clone();
        magic[0] = 'X';
        FormatException m = assertThrows(FormatException.class, () -> JitDump.parse(magic, "m"));
        assertEquals("jitdump header", m.structure());
        assertEquals(0, m.offset());
        byte[] size = ok.clone();
        java.nio.ByteBuffer.wrap(size).order(ByteOrder.LITTLE_ENDIAN).putInt(8, 12);
        assertEquals(8, assertThrows(FormatException.class, () -> JitDump.parse(size, "s")).offset());
        byte[] flags = new JitDumpBuilder(ByteOrder.LITTLE_ENDIAN, 1, 4).bytes();
        assertTrue(assertThrows(FormatException.class, () -> JitDump.parse(flags, "f")).getMessage()
                .contains("unsupported flags 0x4"));
        assertTrue(JitDump.parse(new JitDumpBuilder(ByteOrder.LITTLE_ENDIAN, 1, 1).bytes(), "t").header().archTimestamp());
    }

    @Test
    void nodesDump() throws IOException {
        Path file;
        try (var s = Files.list(Fixtures.file("jitdump"))) {
            file = s.filter(p -> p.getFileName().toString().matches("jit-\\d+\\.dump")).findFirst().orElseThrow();
        }
        JitDump d = JitDump.read(file);
        assertEquals(List.of(), d.warnings());
        assertEquals(62, d.header().elfMach());
        assertEquals(ByteOrder.LITTLE_ENDIAN, d.header().order());
        assertEquals(file.getFileName().toString(), "jit-" + d.header().pid() + ".dump");
        List<JitCode> codes = d.codes();
        assertTrue(codes.size() > 2000, codes.size() + " loads");
        JitCode run = codes.stream().filter(c -> c.name().startsWith("JS:*run ")).findFirst().orElseThrow();
        assertTrue(run.lines().size() > 10, "TurboFan code comes with source positions");
        assertEquals(6, run.lineAt(run.codeAddr() + 0x60).line(), "run() is on line 6 of hot.js");
        long prev = 0;
        for (JitCode c : codes) {
            assertTrue(Long.compareUnsigned(c.timestamp(), prev) >= 0, "node writes its loads in time order");
            prev = c.timestamp();
            assertEquals(c.codeSize(), c.code().length);
        }
    }
}
