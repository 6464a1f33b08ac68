package io.perfj.cli;

import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Annotate of a non-PIE (ET_EXEC) executable, whose code runs at the ELF's own virtual addresses
 * (fixtures/make-nonpie.sh): perf 6.1's output byte for byte with {@code --compat perf-6.1},
 * perf 7.2's by default.
 */
class NonPieAnnotateTest {
    private static final String SYMBOL = Fixtures.golden("nonpie", "annotate-symbol").strip();

    private static List<String> args(boolean compat, String... extra) {
        AnnotateGoldenTest.assumeObjdump();
        List<String> a = new ArrayList<>(List.of("annotate"));
        if (compat) {
            a.addAll(List.of("--compat", "perf-6.1"));
        }
        a.addAll(List.of("-i", Fixtures.recording("nonpie").toString(), "--no-system-files"));
        a.addAll(Arrays.asList(extra));
        return a;
    }

    private static CliFixtures.Run annotate(boolean compat, String... extra) {
        List<String> a = args(compat, extra);
        a.addAll(1 + (compat ? 2 : 0), List.of("--buildid-dir", BuildIdCacheFixture.unpacked("nonpie.buildid-cache").toString()));
        return CliFixtures.run(a.toArray(new String[0]));
    }

    @Test
    void theHottestFunctionIsPerf61sWithCompat() {
        CliFixtures.Run r = annotate(true, "--stdio2", SYMBOL);
        assertEquals(Fixtures.golden("nonpie", "annotate-stdio2"), r.out(), r.err());
        r = annotate(true, "--stdio", SYMBOL);
        assertEquals(Fixtures.golden("nonpie", "annotate-stdio"), r.out(), r.err());
    }

    /**
     * perf 7.2's layout: objdump runs without {@code -l} (no {@code churn():} or
     * {@code ./src/nonpie.c:13} lines), {@code --stdio2} shows no text lines and has wider percent
     * columns, each line padded by its empty data-type column.
     */
    @Test
    void theHottestFunctionIsPerf72sByDefault() {
        CliFixtures.Run r = annotate(false, "--stdio", SYMBOL);
        assertEquals(Fixtures.golden("nonpie", "annotate-stdio.perf72"), r.out(), r.err());
        assertFalse(r.out().contains("nonpie.c:"), r.out());
        r = annotate(false, "--stdio2", SYMBOL);
        assertEquals(Fixtures.golden("nonpie", "annotate-stdio2.perf72"), r.out(), r.err());
    }

    /** Raw bytes, sample counts and periods in perf 7.2's columns. */
    @ParameterizedTest
    @ValueSource(strings = {"stdio2-asm-raw", "stdio-asm-raw", "stdio2-nr-samples", "stdio2-total-period"})
    void optionsArePerf72sByDefault(String kind) {
        String layout = "--" + kind.substring(0, kind.indexOf('-'));
        String option = switch (kind.substring(kind.indexOf('-') + 1)) {
            case "asm-raw" -> "--asm-raw";
            case "nr-samples" -> "-n";
            case "total-period" -> "--show-total-period";
            default -> throw new IllegalArgumentException(kind);
        };
        CliFixtures.Run r = annotate(false, layout, option, SYMBOL);
        assertEquals(Fixtures.golden("nonpie", "annotate-" + kind + ".perf72"), r.out(), r.err());
    }

    /** {@code --no-hide-src}: the text lines, as perf 7.2 prints them with annotate.hide_src_code off. */
    @Test
    void textLinesShownAreInPerf72sLayout() {
        CliFixtures.Run r = annotate(false, "--stdio2", "--no-hide-src", SYMBOL);
        assertEquals(Fixtures.golden("nonpie", "annotate-stdio2-show-src.perf72"), r.out(), r.err());
        assertTrue(r.out().contains("Disassembly of section .text:"), r.out());
    }

    /**
     * Another build at the recorded path (a PIE program with code at the symbol's file offset)
     * is never disassembled in the recorded object's place: the build-ids differ. With the right
     * build in the build-id cache that one is shown; without it, nothing of the other file is.
     */
    @Test
    void anotherObjectAtTheRecordedPathIsNeverAnnotated(@TempDir Path tmp) throws IOException {
        Path symfs = tmp.resolve("symfs");
        // the recorded path, from the symbol line of perf's golden ("churn() /PATH")
        String recorded = Fixtures.golden("nonpie", "annotate-stdio2").lines().skip(1).findFirst().orElseThrow();
        Path at = symfs.resolve(recorded.substring(recorded.indexOf(" /") + 2));
        Files.createDirectories(at.getParent());
        Files.copy(Fixtures.file("bin/hot"), at);
        CliFixtures.Run right = annotate(true, "--symfs", symfs.toString(), "--stdio", SYMBOL);
        assertEquals(Fixtures.golden("nonpie", "annotate-stdio"), right.out(), right.err());
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        List<String> a = args(true, "--symfs", symfs.toString(), "--buildid-dir", empty.toString(), "--stdio", SYMBOL);
        CliFixtures.Run wrong = CliFixtures.run(a.toArray(new String[0]));
        assertNotEquals(0, wrong.rc(), wrong.out());
        assertFalse(wrong.out().contains("Disassembly"), wrong.out());
    }
}
