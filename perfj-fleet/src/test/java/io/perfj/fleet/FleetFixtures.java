package io.perfj.fleet;

import io.perfj.report.CallchainMode;
import io.perfj.report.HistEntry;
import io.perfj.report.Hists;
import io.perfj.report.Report;
import io.perfj.report.ReportOptions;
import io.perfj.report.SortKey;
import io.perfj.session.Session;
import io.perfj.session.SessionOptions;
import io.perfj.symbols.SymbolOptions;
import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A fleet directory made of the committed recordings, copied into host directories, and what
 * the single-file path says about each of them.
 */
public final class FleetFixtures {
    private FleetFixtures() {
    }

    /** Which recordings each host has (c-fp twice: one program on two hosts). */
    static final Map<String, List<String>> HOSTS = Map.of(
            "host1", List.of("c-fp", "sample-cpu"),
            "host2", List.of("c-fp", "zstd", "two-events"),
            "host3", List.of("hot-20k"));

    static Path fleet(Path under) {
        try {
            for (var e : HOSTS.entrySet()) {
                Path d = Files.createDirectories(under.resolve(e.getKey()));
                for (String r : e.getValue()) {
                    Files.copy(Fixtures.recording(r), d.resolve(r + ".data"),
                            java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return under;
    }

    /** The data source's options: the fixtures' symbol sources only. */
    public static Map<String, String> sourceOptions() {
        return Map.of("buildid-dir", BuildIdCacheFixture.dir().toString(),
                "perf-map-dir", Fixtures.file("perf-maps").toString(), "no-system-files", "true");
    }

    static SessionOptions sessionOptions() {
        return SessionOptions.of(SymbolOptions.builder().buildIdDir(BuildIdCacheFixture.dir()).perfMapDir(Fixtures.file("perf-maps")).noSystemFiles().build());
    }

    static ReportOptions options(List<SortKey> keys) {
        return new ReportOptions(keys, false, false, CallchainMode.NONE, false, 0.5, 0, 127,
                null, null, null, null, null, null);
    }

    /** --children (or not) and callchains in {@code mode}, caller or callee order. */
    static ReportOptions chains(List<SortKey> keys, boolean children, CallchainMode mode, boolean caller) {
        return new ReportOptions(keys, false, children, mode, caller, 0.5, 0, 127,
                null, null, null, null, null, null);
    }

    /** One report's rows: (event, sort-key columns) to {period, samples, accumulated period and samples}. */
    static Map<List<String>, long[]> rows(Report r, Map<List<String>, long[]> into) {
        for (Hists h : r.hists()) {
            for (HistEntry e : h.entries()) {
                List<String> key = new java.util.ArrayList<>();
                key.add(h.name());
                for (SortKey k : r.options().sortKeys()) {
                    key.add(h.column(e, k));
                }
                long[] v = into.computeIfAbsent(key, k -> new long[4]);
                v[0] += e.selfPeriod();
                v[1] += e.selfSamples();
                v[2] += e.accPeriod();
                v[3] += e.accSamples();
            }
            long[] t = into.computeIfAbsent(List.of(h.name(), "(total)"), k -> new long[4]);
            t[0] += h.totalPeriod();
            t[1] += h.totalSamples();
        }
        return into;
    }

    /** The rows of one report per recording of the fleet, summed. */
    static Map<List<String>, long[]> perFileRows(List<SortKey> keys) {
        return perFileRows(options(keys));
    }

    /** The rows of one report per recording of the fleet with these options, summed. */
    static Map<List<String>, long[]> perFileRows(ReportOptions options) {
        Map<List<String>, long[]> all = new TreeMap<>(FleetFixtures::compare);
        for (var e : HOSTS.entrySet()) {
            for (String name : e.getValue()) {
                try (Session s = Session.open(Fixtures.recording(name), sessionOptions())) {
                    rows(Report.build(s, options), all);
                }
            }
        }
        all.values().removeIf(v -> v[0] == 0 && v[1] == 0 && v[2] == 0);
        return all;
    }

    static int compare(List<String> a, List<String> b) {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            int c = a.get(i).compareTo(b.get(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a.size(), b.size());
    }

    /** The rows as text, one per line, for a readable assertion failure. */
    static String text(Map<List<String>, long[]> rows) {
        StringBuilder b = new StringBuilder();
        rows.forEach((k, v) -> b.append(k).append(' ').append(v[0]).append(' ').append(v[1])
                .append(' ').append(v[2]).append(' ').append(v[3]).append('\n'));
        return b.toString();
    }
}
