package io.perfj.session;

import io.perfj.io.FormatException;
import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.RecordScan;
import io.perfj.perfdata.record.PerfRecord;
import io.perfj.perfdata.record.Sample;
import io.perfj.report.CallchainMode;
import io.perfj.report.Report;
import io.perfj.report.ScriptPrinter;
import io.perfj.report.StdioReport;
import io.perfj.symbols.SymbolOptions;
import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import io.perfj.testing.Pipeline;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The session's threads change nothing but the time: report and script print the same bytes and
 * warnings with one thread as with decoding and unwinding on a second one, in the correct and in
 * the perf-6.1 mode; errors on the second thread reach the caller as themselves, after every
 * record before them; the hand-off between the threads holds a bounded number of records.
 */
class SessionThreadsTest {
    private static SymbolOptions cacheOnly() {
        return SymbolOptions.builder().buildIdDir(BuildIdCacheFixture.dir()).perfMapDir(Path.of("/nonexistent-perfj-maps")).noSystemFiles().build();
    }

    /** What a command printed, and the session's warnings after it. */
    private record Output(String text, List<String> warnings) {
    }

    private static Output run(Path file, SessionOptions options, int threads, Function<Session, String> command) {
        try (Session s = Session.open(file, options)) {
            s.threads(threads);
            String text = command.apply(s);
            return new Output(text, s.warnings());
        }
    }

    private static String report(Session s) {
        return print(Report.build(s, Pipeline.reportOptions(true, CallchainMode.GRAPH)));
    }

    /**
     * As the command line builds it: trees only for printed entries, made in a second pass
     * over the rows split between the threads by entry ({@code Hists.addChains}).
     */
    private static String reportPrinted(Session s) {
        return print(Report.build(s, Pipeline.reportOptions(true, CallchainMode.GRAPH), true));
    }

    private static String print(Report r) {
        java.io.StringWriter w = new java.io.StringWriter();
        PrintWriter out = new PrintWriter(w);
        new StdioReport(r, out).print();
        out.flush();
        return w.toString() + "\nwarnings " + r.warnings();
    }

    private static String script(Session s) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        List<String> warnings = new ScriptPrinter(s, out, null, Session.DEFAULT_MAX_STACK).print();
        return out.toString(StandardCharsets.UTF_8) + "\nwarnings " + warnings;
    }

    private static void sameWithOneAndTwoThreads(String recording, SymbolOptions symbols) {
        Path file = Fixtures.recording(recording);
        for (Compat compat : List.of(Compat.NONE, Compat.PERF_6_1)) {
            SessionOptions opts = new SessionOptions(symbols, io.perfj.compat.Perf61Quirks.of(compat));
            for (Function<Session, String> command : List.<Function<Session, String>>of(
                    SessionThreadsTest::report, SessionThreadsTest::reportPrinted, SessionThreadsTest::script)) {
                Output one = run(file, opts, 1, command);
                Output two = run(file, opts, 2, command);
                assertTrue(one.text().lines().count() > 20, recording + ": nothing printed");
                assertEquals(one.text(), two.text(), recording + " " + compat + ": output depends on the threads");
                assertEquals(one.warnings(), two.warnings(), recording + " " + compat + ": warnings depend on the threads");
            }
        }
    }

    @Test
    void dwarfRecordingPrintsTheSameWithOneThread() {
        sameWithOneAndTwoThreads("bpf-dwarf", cacheOnly());
    }

    @Test
    void callchainRecordingPrintsTheSameWithOneThread() {
        sameWithOneAndTwoThreads("c-fp", Pipeline.noSystemFiles());
        sameWithOneAndTwoThreads("two-events", Pipeline.noSystemFiles());
    }

    @Test
    void dwarfStacksAreUnwoundAheadOnTheDecodeThread() {
        // the same frames as the consumer's own unwinding, computed on the other thread
        Path file = Fixtures.recording("bpf-dwarf");
        SessionOptions opts = SessionOptions.of(cacheOnly());
        List<long[]> ahead = new ArrayList<>();
        List<long[]> own = new ArrayList<>();
        AtomicInteger unwoundAhead = new AtomicInteger();
        try (Session s = Session.open(file, opts)) {
            s.threads(2).run(new RecordHandler() {
                @Override
                public void sample(SampleRef ref) {
                    Sample smp = ref.sample();
                    long[] frames = s.resolver().unwindUser(smp);
                    if (frames != null && frames.length > 1) {
                        unwoundAhead.incrementAndGet();
                    }
                    ahead.add(frames);
                }
            });
        }
        try (Session s = Session.open(file, opts)) {
            s.threads(1).run(ref -> own.add(s.resolver().unwindUser(ref.sample())));
        }
        assertEquals(own.size(), ahead.size());
        assertTrue(unwoundAhead.get() > 100, "few stacks unwound: " + unwoundAhead.get());
        for (int i = 0; i < own.size(); i++) {
            assertArrayEquals(own.get(i), ahead.get(i), "sample " + i);
        }
    }

    @Test
    void aSampleTheStageLeftUnwoundIsUnwoundByTheConsumer() {
        // a stage that stopped (or never saw the record) hands over NONE: the consumer unwinds
        // the sample itself, with the same frames (this was a ClassCastException)
        Path file = Fixtures.recording("bpf-dwarf");
        SessionOptions opts = SessionOptions.of(cacheOnly());
        List<long[]> left = new ArrayList<>();
        List<long[]> own = new ArrayList<>();
        try (Session s = Session.open(file, opts)) {
            s.threads(1).run(ref -> {
                Sample smp = ref.sample();
                s.resolver().unwoundAhead(smp, DecodedRecords.NONE);
                left.add(s.resolver().unwindUser(smp));
                s.resolver().unwoundAhead(null, null);
            });
        }
        try (Session s = Session.open(file, opts)) {
            s.threads(1).run(ref -> own.add(s.resolver().unwindUser(ref.sample())));
        }
        assertEquals(own.size(), left.size());
        assertTrue(own.stream().filter(f -> f != null && f.length > 1).count() > 100, "few stacks to compare");
        for (int i = 0; i < own.size(); i++) {
            assertArrayEquals(own.get(i), left.get(i), "sample " + i);
        }
    }

    /** c-fp.data with the header of its {@code nth} record damaged (a size below a header's). */
    private static Path damaged(int nth) throws IOException {
        Path src = Fixtures.recording("c-fp");
        long at = -1;
        try (PerfData d = PerfData.open(src); RecordScan scan = d.scan()) {
            for (int i = 0; i <= nth && scan.next(); i++) {
                at = scan.record().offset();
            }
        }
        byte[] bytes = Files.readAllBytes(src);
        bytes[(int) at + 6] = 4;
        bytes[(int) at + 7] = 0;
        Path out = Files.createTempFile("perfj-damaged", ".data");
        Files.write(out, bytes);
        return out;
    }

    @Test
    void aFormatErrorOnTheDecodeThreadComesAfterTheRecordsBeforeIt() throws IOException {
        Path file = damaged(400);
        try {
            List<String> messages = new ArrayList<>();
            List<Integer> counts = new ArrayList<>();
            for (int threads : new int[] {1, 2}) {
                AtomicInteger samples = new AtomicInteger();
                AtomicInteger others = new AtomicInteger();
                try (Session s = Session.open(file, SessionOptions.of(Pipeline.noSystemFiles()))) {
                    FormatException e = assertThrows(FormatException.class, () -> s.threads(threads).run(new RecordHandler() {
                        @Override
                        public void sample(SampleRef ref) {
                            ref.sample();
                            samples.incrementAndGet();
                        }

                        @Override
                        public void record(PerfRecord r) {
                            others.incrementAndGet();
                        }
                    }));
                    messages.add(e.getMessage());
                }
                counts.add(samples.get() + others.get());
            }
            assertEquals(messages.get(0), messages.get(1));
            assertEquals(counts.get(0), counts.get(1));
            // the ones before the damaged record's round (the round itself is never complete)
            assertTrue(counts.get(0) > 0, "records before the damage not delivered: " + counts);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /** A stage that fails on the {@code nth} sample with {@code error}, and gives the others their index. */
    private static SampleStage failingAt(int nth, Throwable error) {
        return new SampleStage() {
            int n;

            @Override
            public void record(PerfRecord r) {
            }

            @Override
            public Object sample(Sample s) {
                if (n == nth) {
                    if (error instanceof Error e) {
                        throw e;
                    }
                    throw (RuntimeException) error;
                }
                return n++;
            }
        };
    }

    @Test
    void whatTheStageThrowsForASampleIsThrownWhereThatSampleIsUsed() {
        for (Throwable error : List.of(new FormatException("stage", "test", 0, "broken"),
                new NoClassDefFoundError("com/example/Missing"))) {
            try (PerfData d = PerfData.open(Fixtures.recording("c-fp"));
                 DecodedRecords in = DecodedRecords.threaded(d, failingAt(50, error), DecodedRecords.Bounds.DEFAULT)) {
                int samples = 0;
                Throwable thrown = null;
                for (PerfRecord r; (r = in.next()) != null; ) {
                    if (r instanceof Sample) {
                        try {
                            assertEquals(samples, DecodedRecords.result(in.ahead()));
                        } catch (RuntimeException | Error e) {
                            thrown = e;
                            break;
                        }
                        samples++;
                    } else {
                        assertSame(DecodedRecords.NONE, in.ahead());
                    }
                }
                assertSame(error, thrown);
                assertEquals(50, samples);
            }
        }
    }

    @Test
    void anErrorOfTheDecodeThreadReachesTheConsumerAsItself() {
        NoClassDefFoundError missing = new NoClassDefFoundError("com/github/luben/zstd/Zstd");
        SampleStage stage = new SampleStage() {
            @Override
            public void record(PerfRecord r) {
                throw missing; // not caught per sample: ends the stream like a decoder failure
            }

            @Override
            public Object sample(Sample s) {
                return null;
            }
        };
        try (PerfData d = PerfData.open(Fixtures.recording("c-fp"));
             DecodedRecords in = DecodedRecords.threaded(d, stage, DecodedRecords.Bounds.DEFAULT)) {
            Error e = assertThrows(Error.class, () -> {
                while (in.next() != null) {
                    // records before the failure, if any
                }
            });
            assertSame(missing, e);
        }
    }

    /** Waits until the producer has stopped decoding (it is blocked on the full queue). */
    private static long settled(DecodedRecords in) throws InterruptedException {
        long last = -1;
        for (int i = 0; i < 200; i++) {
            Thread.sleep(20);
            long now = in.produced();
            if (now == last && now > 0) {
                return now;
            }
            last = now;
        }
        return in.produced();
    }

    @Test
    void theHandOffHoldsABoundedNumberOfRecords() throws InterruptedException {
        try (PerfData d = PerfData.open(Fixtures.recording("c-fp"))) {
            long records;
            try (RecordScan scan = d.scan()) {
                records = 0;
                while (scan.next()) {
                    records++;
                }
            }
            assertTrue(records > 100, "too small a recording for the test: " + records);
            // by count: 3 queued batches of 4 and the one the producer waits to put
            try (DecodedRecords in = DecodedRecords.threaded(d, null, new DecodedRecords.Bounds(4, 1L << 30, 3))) {
                long ahead = settled(in);
                assertTrue(ahead <= 4 * 4, "decoded " + ahead + " records ahead of a consumer that read none");
                assertNotNull(in.next());
                long more = settled(in);
                assertTrue(more <= 4 * 4 + 4, "decoded " + more + " records after one batch was taken");
            }
            // by bytes: every record fills a batch of its own
            try (DecodedRecords in = DecodedRecords.threaded(d, null, new DecodedRecords.Bounds(1000, 1, 2))) {
                long ahead = settled(in);
                assertTrue(ahead <= 3, "decoded " + ahead + " records ahead with a one-byte batch bound");
            }
        }
    }

    @Test
    void inlineAndThreadedDeliverTheSameRecords() {
        try (PerfData d = PerfData.open(Fixtures.recording("two-events"))) {
            List<String> one = new ArrayList<>();
            List<String> two = new ArrayList<>();
            try (DecodedRecords in = DecodedRecords.inline(d, null)) {
                for (PerfRecord r; (r = in.next()) != null; ) {
                    one.add(r.type() + "@" + r.offset() + "/" + r.size());
                }
            }
            try (DecodedRecords in = DecodedRecords.threaded(d, null, new DecodedRecords.Bounds(7, 1000, 2))) {
                for (PerfRecord r; (r = in.next()) != null; ) {
                    two.add(r.type() + "@" + r.offset() + "/" + r.size());
                }
            }
            assertTrue(one.size() > 10);
            assertEquals(one, two);
        }
    }
}
