package io.perfj.record;

import io.perfj.perfdata.EventAttr;
import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.RawRecord;
import io.perfj.perfdata.RecordInput;
import io.perfj.perfdata.RecordType;
import io.perfj.perfdata.SampleFormat;
import io.perfj.perfdata.record.PerfRecord;
import io.perfj.perfdata.record.RecordDecoder;
import io.perfj.perfdata.record.Sample;
import io.perfj.io.FormatException;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The live stream: pipe mode as perfj's stream reader (and perf's) reads it. */
class PipeWriterTest {
    private static byte[] sample(long identifier, long ip, int pid, int tid, long time, long period) {
        // -a's layout: identifier, ip, pid/tid, time, cpu, period
        ByteBuffer b = ByteBuffer.allocate(56).order(ByteOrder.nativeOrder());
        b.putInt(RecordType.SAMPLE).putShort((short) 2).putShort((short) 56);
        b.putLong(identifier).putLong(ip).putInt(pid).putInt(tid).putLong(time).putInt(1).putInt(0).putLong(period);
        return b.array();
    }

    private static byte[] stream(List<PerfDataWriter.Event> events) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PipeWriter w = new PipeWriter(out, events);
        w.write(sample(8, 0x401000, 42, 43, 1000, 250000));
        // records copied out of a ring buffer arrive as runs of bytes in native memory
        byte[] two = new byte[112];
        System.arraycopy(sample(9, 0x401100, 42, 42, 2000, 1), 0, two, 0, 56);
        System.arraycopy(sample(7, 0x401200, 42, 42, 3000, 2), 0, two, 56, 56);
        w.write(MemorySegment.ofArray(two), 0, two.length);
        w.write(Synthesizer.finishedRound());
        w.flush();
        return out.toByteArray();
    }

    private static List<PerfDataWriter.Event> events() {
        RecordOptions o = new RecordOptions(List.of(), true, -1, 4000, 0, RecordOptions.CallGraph.NONE, 8192, 128,
                Path.of("-"), List.of(), List.of("perfj", "top"));
        EventAttr clock = Recorder.attr(EventSpec.parse("cpu-clock"), o, true, true, false);
        EventAttr faults = Recorder.attr(EventSpec.parse("page-faults"), o, false, true, false);
        assertEquals(SampleFormat.IDENTIFIER, clock.sampleType() & SampleFormat.IDENTIFIER);
        return List.of(new PerfDataWriter.Event(clock, new long[] {7, 8}, "cpu-clock"),
                new PerfDataWriter.Event(faults, new long[] {9}, "page-faults"));
    }

    @Test
    void streamReadsBackWithItsEventsAndRecords() {
        List<PerfDataWriter.Event> events = events();
        byte[] bytes = stream(events);
        try (PerfData d = PerfData.openStream(new ByteArrayInputStream(bytes), "live")) {
            RecordInput in = d.orderedRecords();
            List<PerfRecord> records = new ArrayList<>();
            for (RawRecord r = in.next(); r != null; r = in.next()) {
                records.add(RecordDecoder.decode(r, d.evlist()));
            }
            assertEquals(2, d.evlist().evsels().size());
            assertEquals(events.get(0).attr(), d.evlist().evsels().get(0).attr());
            assertArrayEquals(new long[] {9}, d.evlist().evsels().get(1).ids());
            List<Sample> samples = records.stream().filter(Sample.class::isInstance).map(Sample.class::cast).toList();
            assertEquals(List.of(0x401000L, 0x401100L, 0x401200L), samples.stream().map(Sample::ip).toList());
            assertEquals(List.of(0, 1, 0), samples.stream().map(s -> s.evsel().index()).toList());
        }
    }

    @Test
    void aStreamCutShortIsAFormatErrorOrAWarningNamingTheCut() {
        byte[] bytes = stream(events());
        byte[] header = Arrays.copyOf(bytes, 8);
        assertThrows(FormatException.class, () -> PerfData.openStream(new ByteArrayInputStream(header), "live").close());
        for (int cut : new int[] {16 + 8 + 40, bytes.length - 4}) {
            byte[] part = Arrays.copyOf(bytes, cut);
            try (PerfData d = PerfData.openStream(new ByteArrayInputStream(part), "live")) {
                RecordInput in = d.orderedRecords();
                while (in.next() != null) {
                    // read to the end
                }
                assertEquals(1, in.warnings().size(), "cut at " + cut + ": " + in.warnings());
                assertTrue(in.warnings().getFirst().startsWith("live: "), in.warnings().getFirst());
            }
        }
    }

    /** {@code perfj record -o -}: the features known at the start follow the attrs as HEADER_FEATURE records. */
    @Test
    void featuresTravelAsHeaderFeatureRecords() {
        List<PerfDataWriter.Event> events = events();
        List<io.perfj.perfdata.feature.Feature> features = List.of(
                new io.perfj.perfdata.feature.Feature.Text(io.perfj.perfdata.FeatureId.HOSTNAME, "box"),
                new io.perfj.perfdata.feature.Feature.Cmdline(List.of("perfj", "record", "-o", "-")),
                new io.perfj.perfdata.feature.Feature.ClockId(1));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PipeWriter w = new PipeWriter(out, events, features);
        w.write(sample(8, 0x401000, 42, 43, 1000, 250000));
        w.write(Synthesizer.finishedRound());
        try (PerfData d = PerfData.openStream(new ByteArrayInputStream(out.toByteArray()), "live")) {
            RecordInput in = d.orderedRecords();
            int samples = 0;
            for (RawRecord r = in.next(); r != null; r = in.next()) {
                samples += r.type() == RecordType.SAMPLE ? 1 : 0;
            }
            assertEquals(1, samples);
            java.util.Map<Integer, io.perfj.perfdata.feature.Feature> f = io.perfj.perfdata.feature.Features.decodeAll(d);
            assertEquals(features, List.copyOf(f.values()));
        }
    }
}
