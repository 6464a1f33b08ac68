package io.perfj.perfdata;

import io.perfj.testing.ChildJvm;
import io.perfj.testing.CompressedFlood;
import io.perfj.testing.PerfDataBuilder;
import io.perfj.testing.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Small files whose COMPRESSED records inflate to millions of tiny records (what fuzzing found:
 * 96 KB expanding to 126M records made report grow to 2.7 GB) and whose HEADER_COMPRESSED claims
 * a 4 GiB mmap_len (the zstd bomb that made dump run out of heap). Each command runs in a child
 * JVM whose heap is far smaller than the records it reads: memory must stay with what is distinct
 * (one stack here), not grow with the records, and a bound taken from the file must not size a
 * buffer.
 */
class CompressedFloodTest {
    @TempDir
    static Path tmp;

    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final List<String> SMALL_HEAP = List.of("-Xmx64m", "-XX:+UseSerialGC");

    /** {@code copies} identical samples (ip, tid, time, period, a two-frame callchain) of one event. */
    private static Path samples(String name, long copies) throws IOException {
        PerfDataBuilder b = new PerfDataBuilder(LE);
        long st = SampleFormat.IP | SampleFormat.TID | SampleFormat.TIME | SampleFormat.PERIOD | SampleFormat.CALLCHAIN;
        b.addAttr(b.attr(1, 0, 1, st, 0, 1L << 18), 1);
        byte[] sample = b.record(RecordType.SAMPLE, 2, 0x401000L, (7L << 32) | 7, 1000, 1, 2, 0x401000L, 0x402000L);
        CompressedFlood.add(b, sample, copies, 0xffff_ffffL);
        Path f = tmp.resolve(name);
        Files.write(f, b.buildFile());
        return f;
    }

    private static void runs(String command, Path file, String expect) {
        ChildJvm.Result r = ChildJvm.run(SMALL_HEAP, Pipeline.class, 300, command, file.toString());
        assertEquals(0, r.exit(), command + ": " + r.output());
        assertTrue(r.output().contains(expect), command + ": " + r.output());
    }

    @Test
    void reportOfMillionsOfSamplesKeepsOneStack() throws IOException {
        // 256 MB of samples in a file of a few dozen kilobytes, read in a 64 MB heap
        Path f = samples("samples.data", 4_000_000);
        assertTrue(Files.size(f) < 100_000, "file is " + Files.size(f) + " bytes");
        runs("report", f, "ok 4000000");
    }

    @Test
    void scriptAndDumpStreamMillionsOfSamples() throws IOException {
        Path f = samples("samples-1m.data", 1_500_000);
        runs("script", f, "ok");
        runs("dump", f, "ok");
    }

    @Test
    void reportOfMillionsOfTinyRecords() throws IOException {
        PerfDataBuilder b = new PerfDataBuilder(LE);
        b.addAttr(b.attr(1, 0, 1, SampleFormat.IP | SampleFormat.TIME, 0, 1L << 18), 1);
        CompressedFlood.add(b, b.record(RecordType.FINISHED_ROUND, 0), 20_000_000, 0xffff_ffffL);
        Path f = tmp.resolve("rounds.data");
        Files.write(f, b.buildFile());
        runs("report", f, "ok 0");
    }
}
