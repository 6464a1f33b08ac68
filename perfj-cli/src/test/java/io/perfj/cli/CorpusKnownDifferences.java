package io.perfj.cli;

import io.perfj.testing.Fixtures;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code fixtures/corpus/known-differences.txt}: the corpus outputs where perfj does not yet print
 * what perf printed, one per line as {@code FILE COMMAND reason}; {@code #} starts a comment. The
 * corpus test expects exactly these to differ, so the list can neither hide a new difference nor
 * keep one that is gone.
 */
final class CorpusKnownDifferences {
    private final Map<String, String> reasons;

    private CorpusKnownDifferences(Map<String, String> reasons) {
        this.reasons = reasons;
    }

    static CorpusKnownDifferences load() {
        return new CorpusKnownDifferences(read(Fixtures.file("corpus/known-differences.txt")));
    }

    /**
     * A list of differences, one per line as {@code FILE COMMAND rest}; {@code #} starts a
     * comment: by {@link #key} the rest of each line. A line without a rest, or listed twice, fails.
     */
    static Map<String, String> read(Path f) {
        Map<String, String> m = new LinkedHashMap<>();
        try {
            int n = 0;
            for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
                n++;
                String t = line.strip();
                if (t.isEmpty() || t.startsWith("#")) {
                    continue;
                }
                String[] p = t.split("\\s+", 3);
                if (p.length < 3) {
                    fail(f + ":" + n + ": want 'FILE COMMAND rest', got: " + line);
                }
                if (m.put(key(p[0], p[1]), p[2]) != null) {
                    fail(f + ":" + n + ": " + p[0] + " " + p[1] + " is listed twice");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return m;
    }

    static String key(String file, String command) {
        return file + " " + command;
    }

    /** The reason listed for a file and command, or null when they must match perf. */
    String reason(String file, String command) {
        return reasons.get(key(file, command));
    }

    /** Every listed "FILE COMMAND". */
    java.util.Set<String> keys() {
        return reasons.keySet();
    }
}
