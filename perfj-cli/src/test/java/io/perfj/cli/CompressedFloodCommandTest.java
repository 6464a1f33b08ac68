package io.perfj.cli;

import io.perfj.testing.CompressedFlood;
import io.perfj.testing.PerfDataBuilder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What fuzzing found: a small zstd-compressed recording whose records inflate to millions of
 * records (report grew to 2.7 GB), with a HEADER_COMPRESSED mmap_len of 4 GiB (dump ran out of
 * heap). Each command runs as the launcher starts it (its checked-in JVM options) in a
 * {@value #HEAP} heap, what the inflated records take: memory must stay with
 * what is distinct (one stack here), not grow with the samples.
 */
class CompressedFloodCommandTest {
    static final String HEAP = "-Xmx64m";
    static final long SAMPLES = 1_000_000;

    @TempDir
    static Path tmp;
    static Path flood;

    @BeforeAll
    static void makeRecording() throws IOException {
        PerfDataBuilder b = new PerfDataBuilder(ByteOrder.LITTLE_ENDIAN);
        long st = 1 | 2 | 4 | 256 | 32; // IP, TID, TIME, PERIOD, CALLCHAIN
        b.addAttr(b.attr(1, 0, 1, st, 0, 1L << 18), 1);
        byte[] sample = b.record(9, 2, 0x401000L, (7L << 32) | 7, 1000, 1, 2, 0x401000L, 0x402000L);
        CompressedFlood.add(b, sample, SAMPLES, 0xffff_ffffL);
        flood = tmp.resolve("flood.data");
        Files.write(flood, b.buildFile());
        assertTrue(Files.size(flood) < 64 << 10, Files.size(flood) + " bytes");
    }

    private static ChildJvm.Result fits(String optionFile, boolean keepOut, String... args) throws Exception {
        ChildJvm.Result r = ChildJvm.run(optionFile, List.of(HEAP), keepOut, Main.class.getName(), args);
        assertFalse(r.err().contains("OutOfMemoryError") || r.err().contains("out of memory"), r.err());
        assertEquals(0, r.rc(), r.err());
        return r;
    }

    @Test
    void report() throws Exception {
        ChildJvm.Result r = fits("report", true, "report", "--stdio", "--no-system-files", "-i", flood.toString());
        // perf's convert_unit divides only above 1000: a million samples are 1000K
        assertTrue(r.out().contains("# Samples: 1000K of event"), r.out());
    }

    @Test
    void script() throws Exception {
        fits("script", false, "script", "--no-system-files", "-i", flood.toString());
    }

    @Test
    void dump() throws Exception {
        fits("dump", false, "dump", "--no-system-files", "-i", flood.toString());
    }
}
