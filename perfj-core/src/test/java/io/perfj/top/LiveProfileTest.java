package io.perfj.top;

import io.perfj.report.CallchainMode;
import io.perfj.report.Report;
import io.perfj.report.ReportOptions;
import io.perfj.report.SortKey;
import io.perfj.report.StdioReport;
import io.perfj.session.RecordHandler;
import io.perfj.session.SampleRef;
import io.perfj.session.Session;
import io.perfj.session.SessionOptions;
import io.perfj.symbols.SymbolOptions;
import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * top's two threads over committed recordings replayed at full speed: no sample's map lookup
 * fails where the sequential session finds one, and the snapshot's rows are report's rows
 * ({@code --no-children -g none --sort comm,dso,sym}) over the same samples.
 */
class LiveProfileTest {
    private static final List<SortKey> KEYS = List.of(SortKey.COMM, SortKey.DSO, SortKey.SYM);

    private static SessionOptions options() {
        return SessionOptions.of(new SymbolOptions(null, BuildIdCacheFixture.dir(), null,
                Path.of("/nonexistent-perfj-maps"), false));
    }

    @ParameterizedTest
    @ValueSource(strings = {"hot-20k", "bpf-sys", "c-fp", "sideband"})
    void replayedAtFullSpeedMatchesTheSequentialSession(String name) throws Exception {
        Path file = Fixtures.recording(name);
        // the sequential answers: which samples are in no map, and report's rows
        long[] sequentialUnmapped = sequentialSamples(file);
        Set<String> reportRows = new TreeSet<>();
        try (Session s = Session.open(file, options())) {
            ReportOptions o = new ReportOptions(KEYS, false, false, CallchainMode.NONE, false, 0.5, 0, 127,
                    null, null, null, null, null, null);
            StringWriter w = new StringWriter();
            PrintWriter out = new PrintWriter(w);
            new StdioReport(Report.build(s, o), out).print();
            out.flush();
            for (String line : w.toString().split("\n")) {
                if (!line.startsWith("#") && !line.isBlank()) {
                    String[] f = line.strip().split("\\s{2,}");
                    reportRows.add(String.join(" | ", f));
                }
            }
        }
        LiveProfile.Snapshot snap;
        try (Session s = Session.open(file, options()); LiveProfile p = new LiveProfile(s).start()) {
            p.awaitEnd();
            snap = p.snapshot(KEYS);
        }
        long failed = snap.unmapped() - sequentialUnmapped[1];
        assertEquals(0, failed, name + ": samples in no map on the live path that the sequential session mapped");
        assertEquals(sequentialUnmapped[0], snap.samples(), name + ": samples");
        Set<String> liveRows = new TreeSet<>();
        for (LiveProfile.Row r : snap.rows()) {
            liveRows.add(String.format(Locale.ROOT, "%.2f%%", snap.percent(r)) + " | " + r.comm() + " | " + r.dso()
                    + " | " + r.symbol());
        }
        assertTrue(reportRows.size() >= 3, name + ": report rows " + reportRows);
        assertEquals(reportRows, liveRows, name);
    }

    /**
     * top -g over recordings made with frame-pointer callchains: the live profile's report is
     * report's, with --children (perf top -g's default: caller order) and with --no-children -g
     * (callee order), every line of the rows and their callchain trees.
     */
    @ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource({"c-fp,true", "c-fp,false", "hot-20k,true", "hot-20k,false",
            "bpf-sys,true", "bpf-sys,false", "sideband,true"})
    void withCallchainsTheSnapshotIsReportsChildrenReport(String name, boolean children) throws Exception {
        Path file = Fixtures.recording(name);
        ReportOptions o = new ReportOptions(KEYS, false, children, CallchainMode.GRAPH, children, 0.5, 0, 127,
                null, null, null, null, null, null);
        List<String> expected;
        String event;
        try (Session s = Session.open(file, options())) {
            expected = rows(Report.build(s, o));
            event = s.eventNames().get(0);
        }
        List<String> live;
        long unmapped;
        try (Session s = Session.open(file, options()); LiveProfile p = new LiveProfile(s, true).start()) {
            p.awaitEnd();
            live = rows(p.report(o, event));
            unmapped = p.snapshot(KEYS).unmapped();
        }
        assertTrue(expected.size() >= 10, name + ": report lines " + expected);
        assertTrue(expected.stream().anyMatch(l -> l.contains("--")), name + ": callchain trees in " + expected);
        assertEquals(String.join("\n", expected), String.join("\n", live), name);
        assertTrue(unmapped <= sequentialSamples(file)[1], name + ": failed lookups");
    }

    /** The report's lines but its comments (the header, which names the recording's own counts). */
    private static List<String> rows(Report r) {
        StringWriter w = new StringWriter();
        PrintWriter out = new PrintWriter(w);
        new StdioReport(r, out).print();
        out.flush();
        return java.util.Arrays.stream(w.toString().split("\n")).filter(l -> !l.startsWith("#")).toList();
    }

    /** The recording's samples as the sequential session reads them: {samples, samples in no map}. */
    private static long[] sequentialSamples(Path file) throws Exception {
        long[] n = new long[2];
        try (Session s = Session.open(file, options())) {
            s.run(new RecordHandler() {
                @Override
                public void sample(SampleRef r) {
                    n[0]++;
                    if (s.resolver().findMap(r.pid(), r.tid(), r.cpumode(), r.ip()) == null) {
                        n[1]++;
                    }
                }

                @Override
                public boolean decodesSamples() {
                    return false;
                }
            });
        }
        return n;
    }

    /** A record the reader cannot read stops both threads, and the reader's typed error reaches the caller. */
    @org.junit.jupiter.api.Test
    void aDamagedRecordingEndsWithItsFormatError(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        byte[] bytes = java.nio.file.Files.readAllBytes(Fixtures.recording("c-fp"));
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(bytes).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        long dataOffset = b.getLong(40);
        long dataSize = b.getLong(48);
        // walk to the middle of the data section and give that record an impossible size
        long at = dataOffset;
        while (at < dataOffset + dataSize / 2) {
            at += Short.toUnsignedInt(b.getShort((int) at + 6));
        }
        b.putShort((int) at + 6, (short) 4);
        Path damaged = dir.resolve("damaged.data");
        java.nio.file.Files.write(damaged, bytes);
        try (Session s = Session.open(damaged, options()); LiveProfile p = new LiveProfile(s).start()) {
            io.perfj.io.FormatException e = org.junit.jupiter.api.Assertions.assertThrows(io.perfj.io.FormatException.class,
                    p::awaitEnd);
            assertTrue(e.getMessage().contains("damaged.data") && e.getMessage().contains("0x" + Long.toHexString(at)),
                    e.getMessage());
            assertTrue(p.snapshot(KEYS).samples() > 0, "the samples before the damage are summed");
        }
    }
}
