package io.perfj.cli;

import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code script --itrace=OPTS} and {@code --no-itrace} on the corpus's Intel PT recording equal
 * perf 6.1's (fixtures/make-intelpt.sh); letters perfj does not implement are refused with the
 * reason.
 */
class IntelPtOptionsGoldenTest {
    private static CliFixtures.Run script(String option) throws IOException {
        String file = Fixtures.file("corpus/q-intel_pt-4.14.data").toString();
        Path e = CorpusGoldenTest.empty();
        return CliFixtures.runPerf("script", option, "-i", file, "--symfs", e.toString(), "--buildid-dir",
                e.toString(), "--kallsyms", e.resolve("kallsyms").toString(), "--perf-map-dir", e.toString(),
                "--no-system-files");
    }

    @ParameterizedTest
    @ValueSource(strings = {"b", "c", "cr", "p", "e", "x", "i100us", "bep"})
    void itrace(String opts) throws IOException {
        Path g = Fixtures.require(Fixtures.file("intelpt/golden/q-intel_pt-4.14.script-itrace-" + opts + ".txt"));
        CliFixtures.Run r = script("--itrace=" + opts);
        assertEquals(0, r.rc(), r.err());
        assertEquals(Files.readString(g), r.out(), "--itrace=" + opts);
        assertEquals(opts.contains("e"), r.err().contains("Warning:\n114 instruction trace errors"), r.err());
    }

    @Test
    void noItrace() throws IOException {
        Path g = Fixtures.require(Fixtures.file("intelpt/golden/q-intel_pt-4.14.script-no-itrace.txt"));
        CliFixtures.Run r = script("--no-itrace");
        assertEquals(Files.readString(g), r.out());
    }

    @ParameterizedTest
    @ValueSource(strings = {"d", "g", "l", "e-o", "Z"})
    void refused(String opts) throws IOException {
        CliFixtures.Run r = script("--itrace=" + opts);
        assertEquals(1, r.rc(), r.out());
        assertTrue(r.err().startsWith("perfj: script --itrace=" + opts + ": ") && r.err().strip().lines().count() == 1,
                r.err());
    }
}
