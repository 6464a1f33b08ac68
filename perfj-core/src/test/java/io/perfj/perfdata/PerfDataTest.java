package io.perfj.perfdata;

import io.perfj.io.FormatException;
import io.perfj.testing.PerfDataBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PerfDataTest {
    enum Order {
        LITTLE(ByteOrder.LITTLE_ENDIAN), BIG(ByteOrder.BIG_ENDIAN);
        final ByteOrder order;

        Order(ByteOrder o) {
            this.order = o;
        }
    }

    @TempDir
    Path tmp;

    static final long ST = SampleFormat.IP | SampleFormat.TID | SampleFormat.TIME | SampleFormat.ID | SampleFormat.PERIOD;
    static final long FLAGS = 1L /* disabled */ | (1L << 10) /* freq */ | (1L << 18) /* sample_id_all */;

    /** Two events; samples carry ID; COMM carries a sample_id_all trailer (TID, TIME, ID). */
    static PerfDataBuilder sample(ByteOrder order) {
        PerfDataBuilder b = new PerfDataBuilder(order);
        b.addAttr(b.attr(1, 0, 999, ST, 0, FLAGS), 11, 12);
        b.addAttr(b.attr(1, 1, 999, ST, 0, FLAGS), 21, 22);
        // COMM: pid/tid as two u32 in file order, then "hot\0" padded to 8, then trailer tid, time, id.
        long pidTid = order == ByteOrder.LITTLE_ENDIAN ? (7L << 32) | 7 : (7L << 32) | 7;
        long comm = order == ByteOrder.LITTLE_ENDIAN ? 0x746f68L : 0x686f740000000000L;
        b.add(b.record(RecordType.COMM, 0, pidTid, comm, pidTid, 300, 21));
        b.add(b.record(RecordType.SAMPLE, 1, 0x401000, pidTid, 200, 11, 1000));
        b.add(b.record(RecordType.SAMPLE, 1, 0x401008, pidTid, 100, 22, 1000));
        b.add(b.record(RecordType.FINISHED_ROUND, 0));
        b.add(b.record(RecordType.SAMPLE, 1, 0x401010, pidTid, 400, 12, 1000));
        b.feature(FeatureId.HOSTNAME, b.perfString("testhost"));
        return b;
    }

    private Path write(byte[] data) throws IOException {
        Path f = Files.createTempFile(tmp, "t", ".data");
        Files.write(f, data);
        return f;
    }

    private static List<RawRecord> drain(RecordInput in) {
        List<RawRecord> out = new ArrayList<>();
        for (RawRecord r; (r = in.next()) != null; ) {
            out.add(r);
        }
        return out;
    }

    @ParameterizedTest
    @EnumSource(Order.class)
    void readsFileModeInEitherByteOrder(Order o) throws IOException {
        try (PerfData d = PerfData.open(write(sample(o.order).buildFile()))) {
            assertEquals(o.order, d.header().order());
            assertFalse(d.isPipe());
            assertEquals(2, d.evlist().evsels().size());
            EventAttr a = d.evlist().evsels().get(1).attr();
            assertEquals(1, a.config());
            assertEquals(ST, a.sampleType());
            assertTrue(a.flag(0) && a.freq() && a.sampleIdAll());
            assertFalse(a.flag(1));
            assertArrayEquals(new long[] {21, 22}, d.evlist().evsels().get(1).ids());
            assertTrue(d.header().hasFeature(FeatureId.HOSTNAME));
            assertEquals("testhost", d.features().get(FeatureId.HOSTNAME).cursor().perfString());

            List<RawRecord> recs = drain(d.records());
            assertEquals(List.of(3, 9, 9, 68, 9), recs.stream().map(RawRecord::type).toList());
            assertEquals(1, d.evlist().evselOf(recs.get(2)).index());
            assertEquals(0, d.evlist().evselOf(recs.get(4)).index());
            assertEquals(1, d.evlist().evselOf(recs.get(0)).index());
            assertEquals(300, d.evlist().timeOf(recs.get(0)));
            assertEquals(200, d.evlist().timeOf(recs.get(1)));
            assertEquals(Evlist.NO_TIME, d.evlist().timeOf(recs.get(3)));
        }
    }

    @ParameterizedTest
    @EnumSource(Order.class)
    void readsPipeModeFromAStreamAndFromAFile(Order o) throws IOException {
        byte[] pipe = sample(o.order).buildPipe();
        try (PerfData d = PerfData.openStream(new ByteArrayInputStream(pipe), "<stdin>")) {
            assertTrue(d.isPipe());
            List<RawRecord> recs = drain(d.records());
            assertEquals(2 + 1 + 5, recs.size());
            assertEquals(2, d.evlist().evsels().size());
            assertArrayEquals(new long[] {11, 12}, d.evlist().evsels().get(0).ids());
            assertEquals("testhost", d.features().get(FeatureId.HOSTNAME).cursor().perfString());
        }
        try (PerfData d = PerfData.open(write(pipe))) {
            assertTrue(d.isPipe());
            assertEquals(8, drain(d.orderedRecords()).size());
            assertEquals(2, d.evlist().evsels().size());
        }
    }

    @Test
    void deliversInPerfsOrder() throws IOException {
        try (PerfData d = PerfData.open(write(sample(ByteOrder.LITTLE_ENDIAN).buildFile()))) {
            List<RawRecord> recs = drain(d.orderedRecords());
            // The first round is held back until the end (nothing was seen before it), then all
            // queued records come out by time: 100, 200, 300, 400.
            assertEquals(List.of(68, 9, 9, 3, 9), recs.stream().map(RawRecord::type).toList());
            List<Long> times = recs.stream().filter(r -> r.type() != 68).map(d.evlist()::timeOf).toList();
            assertEquals(List.of(100L, 200L, 300L, 400L), times);
        }
    }

    @Test
    void badMagicIsAOneLineFormatError() throws IOException {
        byte[] f = sample(ByteOrder.LITTLE_ENDIAN).buildFile();
        f[0] = 'X';
        FormatException e = assertThrows(FormatException.class, () -> PerfData.open(write(f)));
        assertTrue(e.getMessage().contains("perf_file_header at offset 0x0: bad magic"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
    }

    @Test
    void truncatedHeader() throws IOException {
        byte[] f = java.util.Arrays.copyOf(sample(ByteOrder.LITTLE_ENDIAN).buildFile(), 60);
        FormatException e = assertThrows(FormatException.class, () -> PerfData.open(write(f)));
        assertEquals("perf_file_header", e.structure());
        byte[] empty = new byte[0];
        assertThrows(FormatException.class, () -> PerfData.open(write(empty)));
    }

    @Test
    void zeroDataSizeWarnsAndReadsToTheEnd() throws IOException {
        PerfDataBuilder b = sample(ByteOrder.LITTLE_ENDIAN);
        PerfDataBuilder nofeat = new PerfDataBuilder(ByteOrder.LITTLE_ENDIAN);
        nofeat.addAttr(b.attr(1, 0, 999, ST, 0, FLAGS), 11);
        nofeat.add(b.record(RecordType.SAMPLE, 1, 1, 2, 3, 11, 5));
        nofeat.add(b.record(RecordType.SAMPLE, 1, 1, 2, 4, 11, 5));
        byte[] f = nofeat.buildFile();
        b.putU64(f, 48, 0);
        try (PerfData d = PerfData.open(write(f))) {
            assertTrue(d.dataSizeWasZero());
            assertTrue(d.warnings().getFirst().contains("data size field is 0"), d.warnings().toString());
            assertEquals(2, drain(d.records()).size());
        }
    }

    @Test
    void recordPastTheEndIsAWarningAndEarlierRecordsSurvive() throws IOException {
        byte[] f = sample(ByteOrder.LITTLE_ENDIAN).buildFile();
        byte[] cut = java.util.Arrays.copyOf(f, 104 + 2 * 144 + 32 + 48 + 20);
        new PerfDataBuilder(ByteOrder.LITTLE_ENDIAN).putU64(cut, 48, 10_000);
        try (PerfData d = PerfData.open(write(cut))) {
            RecordInput in = d.records();
            List<RawRecord> recs = drain(in);
            assertEquals(1, recs.size());
            assertTrue(d.warnings().getFirst().contains("runs past the end"), d.warnings().toString());
            assertTrue(in.warnings().getFirst().contains("cut short"), in.warnings().toString());
        }
    }

    @Test
    void recordSizeZeroIsAFormatErrorNamingTheOffset() throws IOException {
        PerfDataBuilder b = sample(ByteOrder.LITTLE_ENDIAN);
        byte[] f = b.buildFile();
        int dataOff = 104 + 2 * 144 + 32;
        b.putU16(f, dataOff + 48 + 6, 0);
        try (PerfData d = PerfData.open(write(f))) {
            RecordInput in = d.records();
            assertEquals(RecordType.COMM, in.next().type());
            FormatException e = assertThrows(FormatException.class, in::next);
            assertEquals(dataOff + 48, e.offset());
            assertTrue(e.getMessage().contains("has size 0"), e.getMessage());
            assertNull(in.next());
        }
    }

    @Test
    void attrSectionOutOfRange() throws IOException {
        PerfDataBuilder b = sample(ByteOrder.LITTLE_ENDIAN);
        byte[] f = b.buildFile();
        b.putU64(f, 32, 1L << 40);
        FormatException e = assertThrows(FormatException.class, () -> PerfData.open(write(f)));
        assertEquals("perf_file_header.attrs", e.structure());
    }

    @Test
    void featureSectionOutOfRangeIsSkippedWithAWarning() throws IOException {
        PerfDataBuilder b = sample(ByteOrder.LITTLE_ENDIAN);
        byte[] f = b.buildFile();
        int table = f.length - 16 - b.perfString("testhost").length;
        b.putU64(f, table, 1L << 50);
        try (PerfData d = PerfData.open(write(f))) {
            assertFalse(d.features().containsKey(FeatureId.HOSTNAME));
            assertTrue(d.warnings().getFirst().contains("HOSTNAME"), d.warnings().toString());
        }
    }
}
