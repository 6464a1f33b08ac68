package io.perfj.top;

import io.perfj.annotate.Annotate;
import io.perfj.report.SortKey;
import io.perfj.session.Session;
import io.perfj.session.SessionOptions;
import io.perfj.symbols.SymbolOptions;
import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A live row's annotation: committed recordings replayed through {@link LiveProfile}, the
 * annotation of a symbol from the live per-address sums against {@code perfj annotate --stdio
 * SYMBOL} of the same file (and, for c-fp's compute_a, against perf annotate's own golden).
 */
class LiveAnnotateTest {
    private static final List<SortKey> KEYS = List.of(SortKey.DSO, SortKey.SYM);

    private static SessionOptions options() {
        return SessionOptions.of(SymbolOptions.builder().buildIdDir(BuildIdCacheFixture.dir()).perfMapDir(Path.of("/nonexistent-perfj-maps")).noSystemFiles().build());
    }

    /** {@code perfj annotate --stdio SYMBOL} over the recording itself. */
    private static String annotateFile(Path file, String symbol) {
        StringBuilder out = new StringBuilder();
        try (Session s = Session.open(file, options())) {
            new Annotate(s, LiveAnnotate.stdio(symbol), w -> { }).run(out::append);
        }
        return out.toString();
    }

    /** The live annotation of the first row by symbol {@code symbol} (the hottest one's when null) after the replay. */
    private static String annotateLive(Path file, String[] symbol) throws Exception {
        try (Session s = Session.open(file, options()); LiveProfile p = new LiveProfile(s).start()) {
            p.awaitEnd();
            LiveProfile.Row row = null;
            for (LiveProfile.Row r : p.snapshot(KEYS).rows()) {
                if (r.frame().sym() != null && r.frame().dso() != null
                        && (symbol[0] == null ? r.frame().dso().kind() == io.perfj.symbols.DsoKind.USER
                        : symbol[0].equals(r.frame().sym().name()))) {
                    row = r;
                    break;
                }
            }
            assertNotNull(row, "a row by symbol");
            symbol[0] = row.frame().sym().name();
            StringBuilder out = new StringBuilder();
            List<String> warnings = new ArrayList<>();
            boolean printed = LiveAnnotate.print(p, row.frame(), LiveAnnotate.stdio(symbol[0]), warnings::add,
                    out::append);
            assertTrue(printed, "annotated: " + warnings);
            assertEquals(String.join("\n", LiveAnnotate.page(p, row)) + "\n", out.toString(), "the page's lines");
            return out.toString();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"hot-20k", "c-fp"})
    void theHottestUserSymbolIsAnnotatedAsAnnotateDoes(String name) throws Exception {
        io.perfj.testing.Objdump.assume();
        Path file = Fixtures.recording(name);
        String[] symbol = {null};
        String live = annotateLive(file, symbol);
        assertTrue(live.lines().count() > 5, live);
        assertEquals(annotateFile(file, symbol[0]), live, name + " " + symbol[0]);
    }

    @Test
    void computeAIsWhatPerfAnnotatePrinted() throws Exception {
        io.perfj.testing.Objdump.assume();
        String live = annotateLive(Fixtures.recording("c-fp"), new String[] {"compute_a"});
        assertEquals(Fixtures.golden("c-fp", "annotate-stdio-compute_a"), live);
    }

    @Test
    void aRowWithoutASymbolSaysWhy() throws Exception {
        try (Session s = Session.open(Fixtures.recording("c-fp"), options()); LiveProfile p = new LiveProfile(s).start()) {
            p.awaitEnd();
            LiveProfile.Row byDso = p.snapshot(List.of(SortKey.DSO)).rows().getFirst();
            List<String> page = LiveAnnotate.page(p, byDso);
            assertEquals(1, page.size(), page.toString());
            assertTrue(page.getFirst().startsWith("no symbol"), page.toString());
            LiveProfile.Row noRow = new LiveProfile.Row("x", null, 1, 1);
            assertFalse(LiveAnnotate.page(p, noRow).getFirst().isEmpty());
        }
    }

    /** The cap on kept addresses: samples at addresses beyond it are counted as dropped, kept ones still summed. */
    @Test
    void addressesBeyondTheCapAreCountedAsDropped() {
        List<io.perfj.symbols.Location> locs = new ArrayList<>();
        try (Session s = Session.open(Fixtures.recording("c-fp"), options())) {
            s.run(new io.perfj.session.RecordHandler() {
                @Override
                public void sample(io.perfj.session.SampleRef r) {
                    io.perfj.symbols.Location l = s.resolver().resolve(r.pid(), r.tid(), r.cpumode(), r.ip());
                    if (l.symbol() != null && l.symbol().name().equals("compute_a")) {
                        locs.add(l);
                    }
                }

                @Override
                public boolean decodesSamples() {
                    return false;
                }
            });
        }
        assertTrue(locs.size() > 100, "samples in compute_a: " + locs.size());
        SymbolAddresses all = new SymbolAddresses();
        SymbolAddresses capped = new SymbolAddresses(3);
        for (io.perfj.symbols.Location l : locs) {
            all.add(l, 1);
            capped.add(l, 1);
        }
        var everything = all.of(locs.getFirst().dso(), locs.getFirst().symbol()).copy();
        var kept = capped.of(locs.getFirst().dso(), locs.getFirst().symbol()).copy();
        assertTrue(everything.offsets().length > 3, "addresses hit: " + everything.offsets().length);
        assertEquals(0, everything.dropped());
        assertEquals(3, kept.offsets().length);
        long keptSamples = java.util.Arrays.stream(kept.samples()).sum();
        assertEquals(locs.size(), keptSamples + kept.dropped());
        for (int i = 0; i < 3; i++) {
            assertEquals(everything.offsets()[i], kept.offsets()[i]);
            assertEquals(everything.samples()[i], kept.samples()[i], "a kept address is still summed");
        }
        capped.clear();
        assertEquals(null, capped.of(locs.getFirst().dso(), locs.getFirst().symbol()));
    }
}
