package io.perfj.cli;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * perfj script against perf script's own output, line for line. Symbols come from the committed
 * build-id cache and perf map only.
 */
class ScriptGoldenTest {
    static CliFixtures.Run script(String name, boolean systemFiles) {
        List<String> args = new ArrayList<>(List.of("script", "-i", CliFixtures.recording(name).toString(),
                "--buildid-dir", CliFixtures.buildIdCache().toString(),
                "--perf-map-dir", CliFixtures.dir().resolve("perf-maps").toString()));
        if (!systemFiles) {
            args.add("--no-system-files");
        }
        return CliFixtures.run(args.toArray(new String[0]));
    }

    static void assertSameLines(String expected, String actual) {
        String[] e = expected.split("\n", -1);
        String[] a = actual.split("\n", -1);
        for (int i = 0; i < Math.min(e.length, a.length); i++) {
            if (!e[i].equals(a[i])) {
                assertEquals(e[i], a[i], "first difference at line " + (i + 1));
            }
        }
        assertEquals(e.length, a.length, "line count");
    }

    @ParameterizedTest
    @ValueSource(strings = {"c-fp", "bpf-sys", "pipe", "zstd", "two-events"})
    void matchesPerfFromCommittedFilesAlone(String name) {
        String golden = CliFixtures.golden(name, "script");
        CliFixtures.Run r = script(name, false);
        assertEquals(0, r.rc(), r.err());
        assertSameLines(golden, r.out());
    }

    /**
     * The java recording's chains run through libjli.so, which 'perf archive' did not pack (it
     * has no samples of its own): compared only where the JDK the fixture was recorded with is
     * installed at the recorded path.
     */
    @Test
    void javaMatchesPerfWhereTheRecordedJdkIsInstalled() {
        Assumptions.assumeTrue(Files.isRegularFile(Path.of("/usr/lib/jvm/temurin-25-jdk-amd64/lib/libjli.so")),
                "the recorded JDK is not installed here");
        String golden = CliFixtures.golden("java", "script");
        CliFixtures.Run r = script("java", true);
        assertEquals(0, r.rc(), r.err());
        // Other builds of the same JDK have other build-ids: perf would not trust them either.
        Assumptions.assumeTrue(r.out().contains("JavaMain+0x8f"), "the installed JDK is another build");
        assertSameLines(golden, r.out());
    }
}
