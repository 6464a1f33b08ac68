package io.perfj.perfdata;

import io.perfj.io.FormatException;
import io.perfj.perfdata.record.RecordDecoder;
import io.perfj.testing.PerfDataBuilder;
import io.perfj.testing.Pipeline;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A sample when no event is defined: an attr section shorter than one attr, or a pipe-mode SAMPLE
 * before any HEADER_ATTR. perf's evlist__parse_sample finds no evsel and stops there; every reader
 * here must fail the same way, with a FormatException naming the sample's offset (it was a
 * NullPointerException in report, script and annotate).
 */
class SampleWithoutEventTest {
    @TempDir
    Path tmp;

    private final PerfDataBuilder b = new PerfDataBuilder(ByteOrder.LITTLE_ENDIAN);
    private final byte[] comm = b.record(RecordType.COMM, 0, (5L << 32) | 5, 0x6f6f66L);
    private final byte[] sample = b.record(RecordType.SAMPLE, 2, 0x401000L, (5L << 32) | 5, 1000);

    /** A file whose attr section (one attr of 144 bytes) is said to be 100 bytes long. */
    private Path shortAttrSection() throws IOException {
        b.addAttr(b.attr(1, 0, 1, SampleFormat.IP | SampleFormat.TID | SampleFormat.TIME, 0, 1L << 18), 1);
        b.add(comm).add(sample);
        byte[] f = b.buildFile();
        b.putU64(f, 32, 100);
        Path p = tmp.resolve("short-attrs.data");
        Files.write(p, f);
        return p;
    }

    private static void failsAtTheSample(long offset, Executable e) {
        FormatException x = assertThrows(FormatException.class, e);
        assertEquals("PERF_RECORD_SAMPLE", x.structure(), x.getMessage());
        assertEquals(offset, x.offset(), x.getMessage());
        assertTrue(x.getMessage().contains("no event defined"), x.getMessage());
    }

    private void everyReaderFails(Path file, long sampleOffset) {
        for (Consumer<PerfData> reader : java.util.List.<Consumer<PerfData>>of(
                d -> Pipeline.report(d, true), d -> Pipeline.report(d, false), Pipeline::script,
                Pipeline::samples, Pipeline::dump)) {
            try (PerfData d = PerfData.open(file)) {
                assertTrue(d.evlist().isEmpty());
                failsAtTheSample(sampleOffset, () -> reader.accept(d));
            }
        }
    }

    @Test
    void attrSectionShorterThanOneAttr() throws IOException {
        Path f = shortAttrSection();
        long dataOff = 104 + 144 + 8;
        long sampleOff = dataOff + comm.length;
        everyReaderFails(f, sampleOff);
        try (PerfData d = PerfData.open(f)) {
            RecordInput in = d.records();
            in.next();
            RawRecord s = in.next();
            failsAtTheSample(sampleOff, () -> RecordDecoder.decode(s, d.evlist()));
        }
        // the in-place scan that report and annotate use for uncompressed files
        try (PerfData d = PerfData.open(f); RecordScan scan = d.scan()) {
            assertTrue(scan.next());
            assertEquals(RecordType.COMM, scan.record().type());
            failsAtTheSample(sampleOff, scan::next);
        }
    }

    @Test
    void pipeSampleBeforeAnyHeaderAttr() throws IOException {
        b.add(comm).add(sample);
        byte[] pipe = b.buildPipe();
        Path f = tmp.resolve("pipe.data");
        Files.write(f, pipe);
        everyReaderFails(f, 16 + comm.length);
        try (PerfData d = PerfData.openStream(new ByteArrayInputStream(pipe), "stdin")) {
            failsAtTheSample(16 + comm.length, () -> Pipeline.report(d, false));
        }
    }
}
