package io.perfj.cli;

import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Every recording of {@code fixtures/corpus/} (other projects' test files and recordings of other
 * kinds made here) against perf 6.1's output for it, one test per file and command: dump --stats,
 * dump, header -I, report --stdio and script, and report/script with symbols from
 * {@code corpus/symfs}, report --no-group, --group and -g folded where a golden for that was made. Like perf when the goldens were made,
 * perfj gets an empty symfs, build-id dir and kallsyms file, so nothing depends on this machine.
 * The differences not fixed yet are listed in {@link CorpusKnownDifferences}; a listed one must
 * still differ. Where perf itself failed and printed nothing (an error in the {@code .stderr.txt}
 * or a {@code .rc} next to the golden) perfj must still read the file: exit 0 with output.
 */
class CorpusGoldenTest {
    static final List<String> KINDS = List.of("stats", "D", "header-I", "report", "script", "report-symfs",
            "script-symfs", "report-no-group", "report-group", "report-folded");

    /**
     * The kinds made only for some files (with symbols from symfs, the group view off or forced,
     * the folded callchain view).
     */
    static boolean optional(String kind) {
        return kind.endsWith("-symfs") || kind.endsWith("-group") || kind.equals("report-folded");
    }

    private static Path empty;

    static synchronized Path empty() throws IOException {
        if (empty == null) {
            empty = Files.createTempDirectory("perfj-corpus-empty");
            empty.toFile().deleteOnExit();
            Path k = Files.createFile(empty.resolve("kallsyms"));
            k.toFile().deleteOnExit();
        }
        return empty;
    }

    static List<String> names() {
        try (Stream<Path> s = Files.list(Fixtures.file("corpus"))) {
            List<String> n = s.map(p -> p.getFileName().toString()).filter(f -> f.endsWith(".data"))
                    .map(f -> f.substring(0, f.length() - ".data".length())).sorted().toList();
            assertTrue(n.size() > 30, "corpus has only " + n.size() + " recordings");
            return n;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Path golden(String name, String kind) {
        return Fixtures.dir().resolve("corpus/golden/" + name + "." + kind + ".txt");
    }

    static boolean hasGolden(String name, String kind) {
        Path g = golden(name, kind);
        return Files.isRegularFile(g) || Files.isRegularFile(g.resolveSibling(g.getFileName() + ".gz"));
    }

    static String read(Path plain) throws IOException {
        if (Files.isRegularFile(plain)) {
            // decoded as perfj's output is: perf copies bytes of the recording that are no UTF-8
            return new String(Files.readAllBytes(plain), StandardCharsets.UTF_8);
        }
        Path gz = Fixtures.require(plain.resolveSibling(plain.getFileName() + ".gz"));
        try (InputStream in = new GZIPInputStream(Files.newInputStream(gz))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @TestFactory
    Stream<DynamicTest> matchesPerf() {
        CorpusKnownDifferences known = CorpusKnownDifferences.load();
        List<DynamicTest> tests = new ArrayList<>();
        for (String name : names()) {
            for (String kind : KINDS) {
                if (!optional(kind) || hasGolden(name, kind)) {
                    tests.add(DynamicTest.dynamicTest(name + " " + kind, () -> check(name, kind, known.reason(name, kind))));
                }
            }
        }
        return tests.stream();
    }

    /** Every listed difference names a file and command the corpus has. */
    @Test
    void knownDifferencesNameCorpusTests() {
        Set<String> all = new TreeSet<>();
        for (String name : names()) {
            for (String kind : KINDS) {
                if (!optional(kind) || hasGolden(name, kind)) {
                    all.add(CorpusKnownDifferences.key(name, kind));
                }
            }
        }
        for (String k : CorpusKnownDifferences.load().keys()) {
            assertTrue(all.contains(k), "known-differences.txt lists " + k + ", which is no corpus test");
        }
    }

    /**
     * A recording without samples: perf prints its first lines, then an error on stderr naming
     * the input as given, and exits 0; perfj --compat perf-6.1 the same.
     */
    @Test
    void aRecordingWithoutSamplesEndsAsPerfDoes() throws IOException {
        String name = "hs-true-v1";
        CliFixtures.Run r = runPerfj(name, "report");
        Path g = golden(name, "report");
        assertTrue(!Files.exists(g.resolveSibling(name + ".report.rc")), "perf exited 0");
        assertEquals(0, r.rc());
        assertEquals(normalize(read(g), "corpus/" + name + ".data", "report"),
                normalize(r.out(), Fixtures.file("corpus/" + name + ".data").toString(), "report"));
        String perfErr = Files.readString(Fixtures.require(g.resolveSibling(name + ".report.stderr.txt")));
        assertEquals(perfErr, r.err().replace(Fixtures.file("corpus/" + name + ".data").toString(),
                "corpus/" + name + ".data"));
    }

    static void check(String name, String kind, String knownReason) throws IOException {
        String expected = normalize(read(golden(name, kind)), "corpus/" + name + ".data", kind);
        CliFixtures.Run r = runPerfj(name, kind);
        Path g = golden(name, kind);
        boolean perfFailed = Files.isRegularFile(g.resolveSibling(name + "." + kind + ".rc"))
                || Files.isRegularFile(g.resolveSibling(name + "." + kind + ".stderr.txt"));
        if (perfFailed && expected.isBlank()) {
            // perf refused the file: perfj must read it, or (damaged input) say where it is bad
            String file = Fixtures.file("corpus/" + name + ".data").toString();
            if (r.rc() != 0) {
                assertTrue(r.err().startsWith("perfj: " + file + ": ") && r.err().contains(" at offset 0x"),
                        "perf failed on " + name + "; perfj neither read it nor named the damage: " + r.err());
            } else {
                assertTrue(!r.out().isBlank(), "perfj printed nothing for " + name + " " + kind);
            }
            if (knownReason != null) {
                fail("known-differences.txt lists " + name + " " + kind + ", where perf printed nothing");
            }
            return;
        }
        String actual = normalize(r.out(), Fixtures.file("corpus/" + name + ".data").toString(), kind);
        String keep = System.getProperty("perfj.corpus.actual");
        if (keep != null) {
            // For looking at the differences with diff: -Dperfj.corpus.actual=DIR
            Files.createDirectories(Path.of(keep));
            Files.writeString(Path.of(keep, name + "." + kind + ".txt"), actual);
            Files.writeString(Path.of(keep, name + "." + kind + ".golden.txt"), expected);
        }
        if (knownReason == null) {
            assertEquals(expected, actual, name + " " + kind + " (stderr: " + r.err().strip() + ")");
        } else {
            assertNotEquals(expected, actual, name + " " + kind + " is the same as perf's now: remove it from"
                    + " fixtures/corpus/known-differences.txt (" + knownReason + ")");
        }
    }

    static CliFixtures.Run runPerfj(String name, String kind) throws IOException {
        String file = Fixtures.file("corpus/" + name + ".data").toString();
        if (kind.equals("header-I")) {
            return CliFixtures.runPerf("header", "-I", "-i", file);
        }
        Path e = empty();
        String symfs = kind.endsWith("-symfs") ? Fixtures.file("corpus/symfs").toString() : e.toString();
        List<String> args = new ArrayList<>(switch (kind) {
            case "stats" -> List.of("dump", "--stats");
            case "D" -> List.of("dump");
            case "report", "report-symfs" -> List.of("report", "--stdio");
            case "report-no-group" -> List.of("report", "--stdio", "--no-group");
            case "report-group" -> List.of("report", "--stdio", "--group");
            case "report-folded" -> List.of("report", "--stdio", "-g", "folded");
            case "script", "script-symfs" -> List.of("script");
            default -> throw new IllegalArgumentException(kind);
        });
        args.addAll(List.of("-i", file, "--symfs", symfs, "--buildid-dir", e.toString(), "--kallsyms",
                e.resolve("kallsyms").toString(), "--perf-map-dir", e.toString(), "--no-system-files"));
        return CliFixtures.runPerf(args.toArray(new String[0]));
    }

    /**
     * What is not the recording's: perf's random closing tip, the file's mtime ("captured on",
     * which a checkout changes), the random name of the vdso copy perf makes in pipe mode and the
     * input's path as it was given (dump prints it). A report's closing "#" lines around the tip
     * go with it.
     */
    static String normalize(String s, String path, String kind) {
        StringBuilder b = new StringBuilder();
        for (String line : s.split("\n", -1)) {
            if (line.startsWith("# (Tip:") || line.startsWith("# (Cannot load tips") || line.startsWith("# captured on")) {
                continue;
            }
            b.append(line.replace("@" + path + " ", "@FILE ").replaceAll("/tmp/perf-vdso\\.so-[A-Za-z0-9]{6}",
                    "/tmp/perf-vdso.so-XXXXXX")).append('\n');
        }
        String t = b.toString();
        return kind.startsWith("report") ? t.replaceAll("(?:\n#|\n)*\n?$", "\n") : t;
    }
}
