package io.perfj.perfdata;

import io.perfj.perfdata.record.RecordDecoder;
import io.perfj.perfdata.record.Sample;
import io.perfj.testing.Fixtures;
import io.perfj.testing.PerfDataBuilder;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The in-place scan gives the ordinary reader's order and sample fields. */
class RecordScanTest {

    /** One line per record in delivery order: offset, type and, for samples, the fixed fields. */
    static List<String> viaDecoder(PerfData d) {
        List<String> out = new ArrayList<>();
        RecordInput in = d.orderedRecords();
        for (RawRecord r; (r = in.next()) != null; ) {
            out.add(decodedLine(r, d));
        }
        out.addAll(in.warnings());
        return out;
    }

    static List<String> viaScan(PerfData d) {
        List<String> out = new ArrayList<>();
        try (RecordScan scan = d.scan()) {
            assertNotNull(scan);
            while (scan.next()) {
                if (scan.isSample()) {
                    out.add(sampleLine(scan.record().offset(), scan.evsel().index(), scan.ip(), scan.pid(), scan.tid(),
                            scan.time(), scan.cpu(), scan.period(), scan.cpumode()));
                } else {
                    out.add(decodedLine(scan.record(), d));
                }
            }
            out.addAll(scan.warnings());
        }
        return out;
    }

    private static String decodedLine(RawRecord r, PerfData d) {
        if (RecordDecoder.decode(r, d.evlist()) instanceof Sample s) {
            return sampleLine(r.offset(), s.evsel().index(), s.ip(), s.pid(), s.tid(), s.time(), s.cpu(),
                    s.period(), s.cpumode());
        }
        return r.offset() + " " + RecordType.name(r.type());
    }

    private static String sampleLine(long off, int ev, long ip, int pid, int tid, long time, int cpu, long period,
                                     int cpumode) {
        return off + " SAMPLE ev=" + ev + " ip=" + Long.toHexString(ip) + " " + pid + "/" + tid + " t=" + time
                + " cpu=" + cpu + " period=" + period + " mode=" + cpumode;
    }

    @TestFactory
    Stream<DynamicTest> everyFileModeFixtureGivesTheOrderedReadersAnswer() {
        return Fixtures.recordings().stream().map(p -> DynamicTest.dynamicTest(p.getFileName().toString(), () -> {
            try (PerfData d = PerfData.open(p)) {
                if (d.scan() == null) {
                    return; // pipe mode or compressed: checked below
                }
                assertEquals(String.join("\n", viaDecoder(d)), String.join("\n", viaScan(d)));
            }
        }));
    }

    @Test
    void pipeModeAndCompressedRecordingsAreNotScannedInPlace() {
        try (PerfData pipe = PerfData.open(Fixtures.recording("pipe")); PerfData zstd = PerfData.open(Fixtures.recording("zstd"))) {
            assertNull(pipe.scan());
            assertNull(zstd.scan());
        }
    }

    static final long FLAGS = 1L | (1L << 18); // disabled, sample_id_all

    @Provide
    Arbitrary<List<Integer>> script() {
        // 0..999: a sample at that time offset; -1: FINISHED_ROUND; -2: COMM; -3 a sample too short
        return Arbitraries.oneOf(Arbitraries.integers().between(0, 999), Arbitraries.of(-1, -1, -2, -3))
                .list().ofMaxSize(60);
    }

    /**
     * Random recordings with two events (samples told apart by IDENTIFIER), rounds, side-band
     * records with a sample_id_all trailer and samples too short for their fields, in both byte
     * orders and cut at a random point: the scan gives the ordered reader's records, fields and
     * warnings, or the same error.
     */
    @Property(tries = 200)
    void randomRecordingsMatchTheOrderedReader(@ForAll("script") List<Integer> script, @ForAll boolean big,
                                               @ForAll("cuts") int cut) throws IOException {
        ByteOrder order = big ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
        PerfDataBuilder b = new PerfDataBuilder(order);
        long st = SampleFormat.IDENTIFIER | SampleFormat.IP | SampleFormat.TID | SampleFormat.TIME | SampleFormat.CPU
                | SampleFormat.PERIOD | SampleFormat.CALLCHAIN;
        b.addAttr(b.attr(1, 0, 4000, st, 0, FLAGS), 11, 12);
        b.addAttr(b.attr(1, 1, 777, st & ~SampleFormat.PERIOD, 0, FLAGS), 21);
        long base = 1_000_000;
        int i = 0;
        for (int op : script) {
            i++;
            long pid = 100 + i % 3;
            long tid = 200 + i % 5;
            // u32 pid then u32 tid, as one u64 word in the file's byte order
            long pidTid = order == ByteOrder.LITTLE_ENDIAN ? (tid << 32) | pid : (pid << 32) | tid;
            long id = i % 3 == 0 ? 21 : (i % 2 == 0 ? 11 : 12);
            if (op >= 0) {
                if (id == 21) {
                    b.add(b.record(RecordType.SAMPLE, 1 + i % 2, id, 0x400000 + i, pidTid, base + op, i % 2, 0));
                } else {
                    b.add(b.record(RecordType.SAMPLE, 1 + i % 2, id, 0x400000 + i, pidTid, base + op, i % 2, 1000 + i, 0));
                }
            } else if (op == -1) {
                b.add(b.record(RecordType.FINISHED_ROUND, 0));
            } else if (op == -2) {
                long comm = order == ByteOrder.LITTLE_ENDIAN ? 0x746f68L : 0x686f740000000000L;
                b.add(b.record(RecordType.COMM, 0, pidTid, comm, pidTid, base + (i * 37L) % 1000, 0, id));
            } else {
                b.add(b.record(RecordType.SAMPLE, 1, id, 0x400000 + i));
            }
        }
        byte[] file = b.buildFile();
        Path f = Files.createTempFile("scan", ".data");
        try {
            if (cut > 0 && cut < file.length) {
                byte[] shorter = java.util.Arrays.copyOf(file, file.length - cut);
                file = shorter;
            }
            Files.write(f, file);
            String expected;
            try (PerfData d = PerfData.open(f)) {
                expected = outcome(() -> viaDecoder(d));
            } catch (io.perfj.io.FormatException e) {
                return; // the header itself is cut: nothing to scan
            }
            try (PerfData d = PerfData.open(f)) {
                assertEquals(expected, outcome(() -> viaScan(d)));
            }
        } finally {
            Files.deleteIfExists(f);
        }
    }

    @Provide
    Arbitrary<Integer> cuts() {
        return Arbitraries.oneOf(Arbitraries.just(0), Arbitraries.integers().between(1, 300));
    }

    private static String outcome(java.util.function.Supplier<List<String>> run) {
        try {
            return String.join("\n", run.get());
        } catch (io.perfj.io.FormatException e) {
            return "error: " + e.getMessage();
        }
    }
}
