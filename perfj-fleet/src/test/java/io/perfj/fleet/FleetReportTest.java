package io.perfj.fleet;

import io.perfj.report.CallchainMode;
import io.perfj.report.Report;
import io.perfj.report.ReportOptions;
import io.perfj.report.SortKey;
import io.perfj.report.StdioReport;
import io.perfj.session.Session;
import io.perfj.testing.Fixtures;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The fleet report against one report per recording, in local mode. */
class FleetReportTest {
    private static SparkSession spark;
    private static Path dir;

    @BeforeAll
    static void start() throws Exception {
        dir = FleetFixtures.fleet(Files.createDirectories(Path.of("target", "fleet-test", "local")));
        spark = FleetSpark.start("local[2]", null);
    }

    @AfterAll
    static void stop() {
        if (spark != null) {
            spark.stop();
        }
    }

    private static Dataset<Row> samples(Map<String, String> extra) {
        Map<String, String> o = new HashMap<>(FleetFixtures.sourceOptions());
        o.putAll(extra);
        return FleetReport.samples(spark, dir.toString(), o);
    }

    static Map<List<String>, long[]> fleetRows(Dataset<Row> samples, List<SortKey> keys, String where) {
        return fleetRows(samples, FleetFixtures.options(keys), where);
    }

    static Map<List<String>, long[]> fleetRows(Dataset<Row> samples, ReportOptions o, String where) {
        Report r = FleetReport.report(samples, o, where);
        Map<List<String>, long[]> rows = FleetFixtures.rows(r, new TreeMap<>(FleetFixtures::compare));
        rows.values().removeIf(v -> v[0] == 0 && v[1] == 0 && v[2] == 0);
        return rows;
    }

    @Test
    void aGroupByOfPlainColumnsIsSummedByTheReaderAsSparkSumsTheRows() {
        samples(Map.of()).createOrReplaceTempView("pushed_samples");
        String q = "SELECT host, event, comm, frame_key, chain_key, flame_stack, sum(period), count(*), "
                + "min(event_index), max(time), min(tid), count(comm) FROM pushed_samples %s "
                + "GROUP BY host, event, comm, frame_key, chain_key, flame_stack";
        Dataset<Row> pushed = spark.sql(q.formatted(""));
        // a WHERE Spark evaluates on the rows: no push-down
        Dataset<Row> rows = spark.sql(q.formatted("WHERE period >= 0"));
        String plan = pushed.queryExecution().executedPlan().toString();
        assertTrue(plan.contains("GROUP BY host, event, comm, frame_key, chain_key, flame_stack: SUM(period), "
                + "COUNT(*), MIN(event_index), MAX(time), MIN(tid), COUNT(comm)"), plan);
        String rowsPlan = rows.queryExecution().executedPlan().toString();
        assertTrue(!rowsPlan.contains("GROUP BY"), rowsPlan);
        List<String> a = pushed.collectAsList().stream().map(Row::toString).sorted().toList();
        List<String> b = rows.collectAsList().stream().map(Row::toString).sorted().toList();
        assertTrue(a.size() > 10, "rows: " + a.size());
        assertEquals(b, a);
        // without keys: one row, also of a task without samples
        for (String where : List.of("", "WHERE period >= 0")) {
            assertEquals(List.of(),
                    spark.sql("SELECT count(*), sum(period), min(time), max(cpu), count(comm) FROM pushed_samples")
                            .exceptAll(spark.sql("SELECT count(*), sum(period), min(time), max(cpu), count(comm) "
                                    + "FROM pushed_samples " + where)).collectAsList());
        }
        // an aggregate the reader does not do (an average, a distinct count): the rows as before
        Dataset<Row> avg = spark.sql("SELECT event, avg(period), count(DISTINCT tid) FROM pushed_samples GROUP BY event");
        assertTrue(!avg.queryExecution().executedPlan().toString().contains("GROUP BY"));
        assertEquals(spark.sql("SELECT event, avg(period), count(DISTINCT tid) FROM pushed_samples WHERE period >= 0 "
                + "GROUP BY event").collectAsList().stream().map(Row::toString).sorted().toList(),
                avg.collectAsList().stream().map(Row::toString).sorted().toList());
    }

    @Test
    void childrenRowsAreTheSumsOfTheRecordingsReports() {
        for (List<SortKey> keys : List.of(List.of(SortKey.COMM, SortKey.DSO, SortKey.SYM), List.of(SortKey.SYM))) {
            ReportOptions o = FleetFixtures.chains(keys, true, CallchainMode.GRAPH, true);
            Map<List<String>, long[]> expected = FleetFixtures.perFileRows(o);
            assertTrue(expected.values().stream().anyMatch(v -> v[2] > v[0]), "callers accumulate: " + expected.size());
            assertEquals(FleetFixtures.text(levelless(expected)),
                    FleetFixtures.text(levelless(fleetRows(samples(Map.of()), o, null))), "rows by " + keys);
        }
    }

    /**
     * The rows with the level of addresses in no map left out: one report makes one entry of a
     * caller's address in no map, which shows the level of the first sample that has it (two
     * recordings' reports: perhaps one [k] and one [.] entry; the fleet's, as one report of them
     * all, one entry).
     */
    private static Map<List<String>, long[]> levelless(Map<List<String>, long[]> rows) {
        Map<List<String>, long[]> out = new TreeMap<>(FleetFixtures::compare);
        rows.forEach((k, v) -> {
            List<String> key = new java.util.ArrayList<>(k);
            for (int i = 0; i < key.size(); i++) {
                // the symbol column of an address in no map (in an object: 0x and its offset)
                if (key.get(i).matches("\\[[k.]\\] [0-9a-f]+")) {
                    key.set(i, "[?]" + key.get(i).substring(3));
                }
            }
            long[] sum = out.computeIfAbsent(key, x -> new long[v.length]);
            for (int i = 0; i < v.length; i++) {
                sum[i] += v[i];
            }
        });
        return out;
    }

    private static String stdio(Report r) {
        StringWriter w = new StringWriter();
        new StdioReport(r, new PrintWriter(w)).print();
        return w.toString();
    }

    /** Callchain layouts of one recording alone: byte for byte what report prints. */
    @Test
    void callchainsOfOneRecordingPrintWhatReportPrints() throws Exception {
        List<SortKey> keys = List.of(SortKey.COMM, SortKey.DSO, SortKey.SYM);
        List<ReportOptions> modes = List.of(FleetFixtures.chains(keys, true, CallchainMode.GRAPH, true),
                FleetFixtures.chains(keys, false, CallchainMode.GRAPH, false),
                FleetFixtures.chains(keys, true, CallchainMode.FOLDED, false),
                FleetFixtures.chains(List.of(SortKey.PID, SortKey.SYM), false, CallchainMode.FLAT, true));
        for (String name : List.of("c-fp", "two-events")) {
            Path one = Files.createDirectories(Path.of("target", "fleet-test", "chains-" + name, "h"));
            Files.copy(Fixtures.recording(name), one.resolve(name + ".data"),
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            Dataset<Row> d = FleetReport.samples(spark, one.getParent().toString(), FleetFixtures.sourceOptions());
            for (ReportOptions o : modes) {
                String expected;
                try (Session s = Session.open(Fixtures.recording(name), FleetFixtures.sessionOptions())) {
                    expected = stdio(Report.build(s, o));
                }
                assertTrue(expected.contains("--"), expected);
                assertEquals(expected, stdio(FleetReport.report(d, o, null)), name + " " + o);
            }
        }
    }

    /** Two hosts' copies of one recording: its call graph, every percentage the same. */
    @Test
    void theCallGraphOfTwoCopiesIsTheCallGraphOfOne() throws Exception {
        ReportOptions o = FleetFixtures.chains(List.of(SortKey.COMM, SortKey.DSO, SortKey.SYM), true,
                CallchainMode.GRAPH, true);
        String one;
        try (Session s = Session.open(Fixtures.recording("c-fp"), FleetFixtures.sessionOptions())) {
            one = stdio(Report.build(s, o));
        }
        String two = stdio(FleetReport.report(samples(Map.of()), o, "file LIKE '%/c-fp.data'"));
        long count = Long.parseLong(one.replaceAll("(?s).*# Event count \\(approx.\\): (\\d+).*", "$1"));
        assertTrue(two.contains("# Event count (approx.): " + 2 * count + "\n"), two);
        java.util.function.Function<String, String> body = t -> t.replaceAll("(?m)^# (Samples|Event count).*\n", "");
        assertEquals(body.apply(one), body.apply(two));
    }

    @Test
    void rowsAreTheSumsOfTheRecordingsReports() {
        for (List<SortKey> keys : List.of(List.of(SortKey.COMM, SortKey.DSO, SortKey.SYM), List.of(SortKey.DSO),
                List.of(SortKey.SYM, SortKey.CPU), List.of(SortKey.PID, SortKey.SYM))) {
            Map<List<String>, long[]> expected = FleetFixtures.perFileRows(keys);
            assertTrue(expected.size() > 6, "the fixtures make rows: " + expected.size());
            assertEquals(FleetFixtures.text(expected), FleetFixtures.text(fleetRows(samples(Map.of()), keys, null)),
                    "rows by " + keys);
        }
    }

    /** Every sample's identity and frames, as the rows of a read give them. */
    private static Dataset<Row> identities(Dataset<Row> d) {
        return d.selectExpr("file", "time", "tid", "cpu", "period", "sampled", "stack");
    }

    private static void sameSamples(Dataset<Row> whole, Dataset<Row> sliced) {
        assertEquals(whole.count(), sliced.count());
        assertEquals(0, identities(whole).exceptAll(identities(sliced)).count());
        assertEquals(0, identities(sliced).exceptAll(identities(whole)).count());
    }

    @Test
    void roundSlicesOfALargeRecordingGiveTheSameSamplesAndRows() {
        // hot-20k.data (1.8 MB, 8 FINISHED_ROUND windows) is cut at round ends about 256 KB apart
        long[] cuts = Rounds.cuts(dir.resolve("host3/hot-20k.data"), 256 << 10);
        assertTrue(cuts != null && cuts.length >= 5, java.util.Arrays.toString(cuts));
        Dataset<Row> sliced = samples(Map.of("split-bytes", Long.toString(256 << 10)));
        assertEquals(5 + cuts.length - 1, sliced.rdd().getNumPartitions(), "a task per slice and per small file");
        List<SortKey> keys = List.of(SortKey.COMM, SortKey.DSO, SortKey.SYM);
        assertEquals(FleetFixtures.text(FleetFixtures.perFileRows(keys)), FleetFixtures.text(fleetRows(sliced, keys, null)));
        sameSamples(samples(Map.of()).where("host = 'host3'"), sliced.where("host = 'host3'"));
    }

    @Test
    void aCompressedRecordingIsNotCutAtRounds() {
        // zstd.data's rounds are inside its COMPRESSED records, and it has no SAMPLE_TIME span to
        // slice by time: one piece; c-fp.data (one round) is sliced by time
        assertEquals(null, Rounds.cuts(dir.resolve("host2/zstd.data"), 2 << 10));
        Map<String, String> o = new HashMap<>(FleetFixtures.sourceOptions());
        o.put("split-bytes", Long.toString(2 << 10));
        o.put("path", dir.toString());
        Map<String, Integer> pieces = new TreeMap<>();
        for (var p : new SampleScan(new org.apache.spark.sql.util.CaseInsensitiveStringMap(o)).planInputPartitions()) {
            for (RecordingPartition r : ((FleetPartition) p).pieces()) {
                String name = Path.of(r.file()).getFileName().toString();
                pieces.merge(name + (r.rounds() ? " rounds" : r.whole() ? " whole" : " time"), 1, Integer::sum);
            }
        }
        assertEquals(1, pieces.get("zstd.data whole"), pieces.toString());
        assertTrue(pieces.get("c-fp.data time") > 2, pieces.toString());
        assertTrue(pieces.get("hot-20k.data rounds") > 2, pieces.toString());
    }

    @Test
    void oneRecordingPrintsWhatReportPrints() throws Exception {
        Path one = Files.createDirectories(Path.of("target", "fleet-test", "one", "h"));
        Files.copy(Fixtures.recording("c-fp"), one.resolve("c-fp.data"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        List<SortKey> keys = List.of(SortKey.COMM, SortKey.DSO, SortKey.SYM);
        StringWriter expected = new StringWriter();
        try (Session s = Session.open(Fixtures.recording("c-fp"), FleetFixtures.sessionOptions())) {
            new StdioReport(Report.build(s, FleetFixtures.options(keys)), new PrintWriter(expected)).print();
        }
        StringWriter actual = new StringWriter();
        Dataset<Row> d = FleetReport.samples(spark, one.getParent().toString(), FleetFixtures.sourceOptions());
        new StdioReport(FleetReport.report(d, FleetFixtures.options(keys), null), new PrintWriter(actual)).print();
        assertEquals(expected.toString(), actual.toString());
    }

    @Test
    void whereSlicesByHostAndTheHostsArePushedDown() {
        List<SortKey> keys = List.of(SortKey.COMM, SortKey.DSO, SortKey.SYM);
        Dataset<Row> host3 = samples(Map.of()).where("host = 'host3'");
        String plan = host3.queryExecution().executedPlan().toString();
        assertTrue(plan.contains("hosts=[host3]"), plan);
        Map<List<String>, long[]> rows = fleetRows(samples(Map.of()), keys, "host = 'host3'");
        Map<List<String>, long[]> expected = new TreeMap<>(FleetFixtures::compare);
        try (Session s = Session.open(Fixtures.recording("hot-20k"), FleetFixtures.sessionOptions())) {
            FleetFixtures.rows(Report.build(s, FleetFixtures.options(keys)), expected);
        }
        expected.values().removeIf(v -> v[0] == 0 && v[1] == 0);
        assertEquals(FleetFixtures.text(expected), FleetFixtures.text(rows));
    }

    @Test
    void rowsCarryHostFileAndStack() {
        Dataset<Row> s = samples(Map.of());
        assertEquals(List.of("host1", "host2", "host3"),
                s.select("host").distinct().orderBy("host").as(org.apache.spark.sql.Encoders.STRING()).collectAsList());
        Row r = s.where("host = 'host1' AND exists(stack, f -> f.symbol = 'main')").first();
        assertTrue(r.getString(r.fieldIndex("file")).endsWith("host1/c-fp.data")
                || r.getString(r.fieldIndex("file")).endsWith("host1/sample-cpu.data"), r.toString());
        List<Row> stack = r.getList(r.fieldIndex("stack"));
        Row main = stack.stream().filter(f -> "main".equals(f.getAs("symbol"))).findFirst().orElseThrow();
        assertEquals("hot", main.getAs("dso_short"));
        assertTrue((Long) main.getAs("offset") > 0, main.toString());
        long samples = s.count();
        assertEquals(samples, s.where("size(stack) > 0").count(), "every sample has its frames");
    }

    /** Every node of a flame tree as its path of function names from the root, with its total. */
    private static String paths(io.perfj.profile.FlameTree t) {
        Map<String, Long> out = new TreeMap<>();
        String[] path = new String[t.size()];
        for (int n = 0; n < t.size(); n++) {
            var f = t.function(n);
            String name = f == null ? "all" : f.name() + "/" + f.object() + "/" + f.kernel() + "/" + f.inlined();
            path[n] = n == 0 ? name : path[t.parent(n)] + ";" + name;
            out.merge(path[n], t.total(n), Long::sum);
        }
        StringBuilder b = new StringBuilder();
        out.forEach((k, v) -> b.append(k).append(' ').append(v).append('\n'));
        return b.toString();
    }

    @Test
    void flameGraphOfTheFleetIsTheFlameGraphOfItsRecordings() {
        // host1 and host2 both have c-fp: the fleet's tree of host1 + host2's c-fp is twice c-fp's
        io.perfj.profile.FlameTree one;
        try (Session s = Session.open(Fixtures.recording("c-fp"), FleetFixtures.sessionOptions())) {
            io.perfj.profile.Profile p = io.perfj.profile.Profile.read(s, 127);
            one = io.perfj.profile.FlameTree.of(p, i -> true, true);
        }
        io.perfj.profile.FlameTree fleet = FleetFlame.flame(samples(Map.of()), "cpu-clock",
                "file LIKE '%/c-fp.data' AND host = 'host1'").tree();
        assertEquals(paths(one), paths(fleet));
        String twice = paths(FleetFlame.flame(samples(Map.of()), "cpu-clock", "file LIKE '%/c-fp.data'").tree());
        StringBuilder doubled = new StringBuilder();
        for (String line : paths(one).split("\n")) {
            int sp = line.lastIndexOf(' ');
            doubled.append(line, 0, sp + 1).append(2 * Long.parseLong(line.substring(sp + 1))).append('\n');
        }
        assertEquals(doubled.toString(), twice);
    }

    /**
     * The fleet's profile (the UI's model of fleet serve) of one recording has the flame tree of
     * that recording's profile as Profile.read makes it, with and without the command level;
     * its threads are the host's.
     */
    @Test
    void profileOfWeightedStacksHasTheFlameTreeOfTheRecordingsProfile() {
        for (String[] rec : List.of(new String[]{"c-fp", "host1"}, new String[]{"hot-20k", "host3"},
                new String[]{"two-events", "host2"})) {
            io.perfj.profile.Profile read;
            try (Session s = Session.open(Fixtures.recording(rec[0]), FleetFixtures.sessionOptions())) {
                read = io.perfj.profile.Profile.read(s, 127);
            }
            io.perfj.profile.Profile fleet = FleetFlame.profile(samples(Map.of()), null,
                    "file LIKE '%/" + rec[0] + ".data' AND host = '" + rec[1] + "'", true);
            assertEquals(read.events(), fleet.events(), rec[0]);
            for (boolean byCommand : new boolean[]{false, true}) {
                for (int e = 0; e < read.events().size(); e++) {
                    int ev = e;
                    assertEquals(paths(io.perfj.profile.FlameTree.of(read, i -> read.event(i) == ev, byCommand)),
                            paths(io.perfj.profile.FlameTree.of(fleet, i -> fleet.event(i) == ev, byCommand)),
                            rec[0] + " " + read.events().get(e));
                }
            }
            assertTrue(fleet.sampleCount() <= read.sampleCount() && fleet.sampleCount() > 0, rec[0]);
            long[] counted = new long[2];
            for (int i = 0; i < read.sampleCount(); i++) {
                counted[0] += read.count(i);
            }
            for (int i = 0; i < fleet.sampleCount(); i++) {
                counted[1] += fleet.count(i);
            }
            assertEquals(read.sampleCount(), counted[0]);
            assertEquals(read.sampleCount(), counted[1], rec[0] + ": the sums stand for every sample");
            for (int t = 0; t < fleet.threadCount(); t++) {
                assertEquals(rec[1], fleet.host(t));
            }
            assertEquals(null, read.host(0));
        }
    }

    @Test
    void aQueryWithoutTheStackResolvesTheSampledFramesAlone() {
        Dataset<Row> pruned = samples(Map.of()).selectExpr("file", "time", "sampled.symbol AS symbol",
                "sampled.map_address AS addr");
        String plan = pruned.queryExecution().executedPlan().toString();
        assertTrue(!plan.contains("stack"), plan);
        // the same frames as when the whole stack is read
        Dataset<Row> whole = samples(Map.of()).where("size(stack) >= 0").selectExpr("file", "time",
                "sampled.symbol AS symbol", "sampled.map_address AS addr");
        assertEquals(0, pruned.exceptAll(whole).count());
        assertEquals(0, whole.exceptAll(pruned).count());
        assertTrue(pruned.count() > 20_000);
    }

    @Test
    void aBuildIdCacheBesideARecordingIsItsOwn() throws Exception {
        Path host = Files.createDirectories(Path.of("target", "fleet-test", "archive", "host4"));
        Files.copy(Fixtures.recording("c-fp"), host.resolve("c-fp.data"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Path cache = host.resolve(".build-id");
        if (!Files.exists(cache, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            // as `perf archive`'s tarball unpacks: .build-id/ beside the recording
            Files.createSymbolicLink(cache, io.perfj.testing.BuildIdCacheFixture.dir().resolve(".build-id").toAbsolutePath());
        }
        Map<String, String> noShared = Map.of("perf-map-dir", Fixtures.file("perf-maps").toString(),
                "no-system-files", "true");
        Dataset<Row> s = FleetReport.samples(spark, host.getParent().toString(), noShared);
        assertEquals(List.of("host4"),
                s.select("host").distinct().as(org.apache.spark.sql.Encoders.STRING()).collectAsList());
        assertTrue(s.where("sampled.symbol = 'compute_a'").count() > 100, "symbols from the cache beside it");
    }
}
