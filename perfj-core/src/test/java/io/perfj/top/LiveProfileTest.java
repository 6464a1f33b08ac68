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
        return SessionOptions.of(SymbolOptions.builder().buildIdDir(BuildIdCacheFixture.dir()).perfMapDir(Path.of("/nonexistent-perfj-maps")).noSystemFiles().build());
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
        assertLiveReportIsReports(Fixtures.recording(name), name, children);
        assertEquals(0, chainMapsChangedLater(Fixtures.recording(name))[0], name + ": no map changes under a chain");
    }

    private static void assertLiveReportIsReports(Path file, String name, boolean children) throws Exception {
        // top names the functions inlined at callchain addresses as report does by default
        ReportOptions o = new ReportOptions(KEYS, false, children, CallchainMode.GRAPH, children, 0.5, 0, 127,
                null, null, null, null, null, null, io.perfj.report.SampleSelection.ALL,
                new io.perfj.report.ReportView(false, false, false, false, false, false,
                        io.perfj.perfdata.feature.EventGroups.Mode.RECORDED));
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

    /**
     * A recording where maps change under the chains: pipe.data with, after its last round, an
     * MMAP2 copied from the one of the program's text naming another file (the same range, so
     * it replaces that map). Looking the chains' maps up after the records, not at each sample,
     * finds other maps for many chain addresses (checked here, so the equality can fail), and
     * the live report must still be report's.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aMapReplacedAfterTheSamplesDoesNotMoveTheirChains(boolean children, @org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        byte[] b = java.nio.file.Files.readAllBytes(Fixtures.recording("pipe"));
        java.nio.ByteBuffer bb = java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        // pipe mode: a 16-byte header, then the records; the first MMAP2 is the program's text
        int at = 16;
        while (bb.getInt(at) != 10) {
            at += Short.toUnsignedInt(bb.getShort(at + 6));
        }
        int size = Short.toUnsignedInt(bb.getShort(at + 6));
        byte[] mmap = java.util.Arrays.copyOfRange(b, at, at + size);
        int nul = 72;
        while (mmap[nul] != 0) {
            nul++;
        }
        mmap[nul - 1] = 'X';
        byte[] round = {68, 0, 0, 0, 0, 0, 8, 0};
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        out.write(b);
        out.write(round);
        out.write(round);
        out.write(mmap);
        Path file = dir.resolve("replaced.data");
        java.nio.file.Files.write(file, out.toByteArray());
        long[] changed = chainMapsChangedLater(file);
        assertTrue(changed[0] > changed[1] / 4, changed[0] + " of " + changed[1] + " chain addresses in a map replaced later");
        assertLiveReportIsReports(file, "pipe.data with a replaced map", children);
    }

    /** {chain addresses whose map after the last record is not the one at their sample, chain addresses}. */
    private static long[] chainMapsChangedLater(Path file) throws Exception {
        List<long[]> addresses = new java.util.ArrayList<>();
        List<io.perfj.symbols.Map> then = new java.util.ArrayList<>();
        long changed = 0;
        try (Session s = Session.open(file, options())) {
            io.perfj.session.ChainWalk walk = io.perfj.session.ChainWalk.of(s);
            s.run(new RecordHandler() {
                @Override
                public void sample(SampleRef r) {
                    if (walk.walk(r.sample(), null, Session.DEFAULT_MAX_STACK)) {
                        for (int i = 0; i < walk.size(); i++) {
                            addresses.add(new long[] {r.pid(), r.tid(), walk.mode(i), walk.ip(i)});
                            then.add(s.resolver().findMap(r.pid(), r.tid(), walk.mode(i), walk.ip(i)));
                        }
                    }
                }
            });
            for (int i = 0; i < addresses.size(); i++) {
                long[] a = addresses.get(i);
                if (s.resolver().findMap((int) a[0], (int) a[1], (int) a[2], a[3]) != then.get(i)) {
                    changed++;
                }
            }
        }
        return new long[] {changed, addresses.size()};
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
