package io.perfj.print;

import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.RecordType;
import io.perfj.perfdata.SampleFormat;
import io.perfj.testing.PerfDataBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Formatting details checked on synthetic files (the fixtures cover the common records). */
class DumpPrinterTest {
    @TempDir
    Path tmp;

    @Test
    void cpuListFormatsRangesLikePerf() {
        assertEquals("0-1", DumpPrinter.cpuList(new int[] {0, 1}));
        assertEquals("0,2-4,7", DumpPrinter.cpuList(new int[] {0, 2, 3, 4, 7}));
        assertEquals("", DumpPrinter.cpuList(new int[0]));
        assertEquals("-1", DumpPrinter.cpuList(new int[] {-1}));
    }

    @Test
    void doublesPrintLikeCPrintf() {
        assertEquals("0.000001", DumpPrinter.cDouble(1e-6, 6));
        assertEquals("1.000000", DumpPrinter.cDouble(1, 6));
        assertEquals("2.500000", DumpPrinter.cDouble(2.5, 6));
        assertEquals("nan", DumpPrinter.cDouble(Double.NaN, 6));
    }

    /** A big-endian file with a group READ sample: perf's sample_read block. */
    @Test
    void bigEndianGroupReadSample() throws IOException {
        PerfDataBuilder b = new PerfDataBuilder(ByteOrder.BIG_ENDIAN);
        long st = SampleFormat.IP | SampleFormat.TID | SampleFormat.TIME | SampleFormat.ID | SampleFormat.READ;
        long rf = SampleFormat.FORMAT_GROUP | SampleFormat.FORMAT_ID | SampleFormat.FORMAT_TOTAL_TIME_ENABLED;
        b.addAttr(b.attr(1, 0, 4000, st, rf, 1L << 18), 7);
        b.addAttr(b.attr(1, 1, 4000, st, rf, 1L << 18), 8);
        long pidTid = (100L << 32) | 101; // pid 100 then tid 101 in file order
        b.add(b.record(RecordType.SAMPLE, 2, 0x400123, pidTid, 5000, 7, 2, 999, 11, 7, 22, 8));
        Path f = tmp.resolve("be.data");
        Files.write(f, b.buildFile());
        ByteArrayOutputStream w = new ByteArrayOutputStream();
        try (PerfData d = PerfData.open(f)) {
            new DumpPrinter(d, "be.data", w, HeaderLayout.PERF_6_1).print();
        }
        String out = w.toString(StandardCharsets.UTF_8);
        assertTrue(out.contains("5000 0x"), out);
        assertTrue(out.contains("PERF_RECORD_SAMPLE(IP, 0x2): 100/101: 0x400123 period: 4000 addr: 0\n"
                + "... sample_read:\n"
                + "...... time enabled 00000000000003e7\n"
                + ".... group nr 2\n"
                + "..... id 0000000000000007, value 000000000000000b\n"
                + "..... id 0000000000000008, value 0000000000000016\n"), out);
        // the group sample counts for both events; neither excludes host nor guest, so perf names them :HG
        assertTrue(out.endsWith("cpu-clock:HG stats:\n          SAMPLE events:          1\n"
                + "task-clock:HG stats:\n          SAMPLE events:          1\n"), out);
        assertTrue(out.contains(".  0000:  00 00 00 09 00 02 00 58"), out);
    }

    @Test
    void cutShortFileStillPrintsWhatWasRead() throws IOException {
        PerfDataBuilder b = new PerfDataBuilder(ByteOrder.LITTLE_ENDIAN);
        b.addAttr(b.attr(1, 0, 4000, SampleFormat.IP, 0, 0), 7);
        b.add(b.record(RecordType.SAMPLE, 2, 0x400123));
        b.add(b.record(RecordType.SAMPLE, 2, 0x400456));
        byte[] file = b.buildFile();
        // claim more data than there is: the second record is cut short
        Path f = tmp.resolve("cut.data");
        byte[] cut = java.util.Arrays.copyOf(file, file.length - 4);
        b.putU64(cut, 48, 32);
        Files.write(f, cut);
        ByteArrayOutputStream w = new ByteArrayOutputStream();
        List<String> warnings;
        try (PerfData d = PerfData.open(f)) {
            warnings = new DumpPrinter(d, "cut.data", w).print();
        }
        assertTrue(w.toString(StandardCharsets.UTF_8).contains("0x400123 period: 4000"), w.toString(StandardCharsets.UTF_8));
        assertTrue(!warnings.isEmpty(), "a warning about the cut-short record");
    }
}
