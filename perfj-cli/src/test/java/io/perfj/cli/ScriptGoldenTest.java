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
import static org.junit.jupiter.api.Assertions.assertTrue;

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
     * bpf-dwarf (--call-graph dwarf): user frames come from unwinding the copied stacks with each
     * object's call frame information, inlined functions named through addr2line as perf does.
     * perf's (libunwind) unwinder ends some stacks earlier or later than perfj (it stops before frames of
     * bpftool, and sometimes adds a last 0xffffffffffffffff frame) and once skips a caller of a
     * leaf function, so: every sample header must match, nearly all frames both print must be
     * equal, and most samples must be identical.
     */
    @Test
    void dwarfUnwoundFramesMatchPerf() {
        Assumptions.assumeTrue(addr2line(), "addr2line (binutils) is not installed");
        String golden = CliFixtures.golden("bpf-dwarf", "script");
        CliFixtures.Run r = script("bpf-dwarf", false);
        assertEquals(0, r.rc(), r.err());
        List<List<String>> g = samples(golden);
        List<List<String>> m = samples(r.out());
        assertEquals(g.size(), m.size(), "samples");
        int identical = 0;
        int frames = 0;
        int equal = 0;
        int inlined = 0;
        for (int i = 0; i < g.size(); i++) {
            List<String> pf = g.get(i);
            List<String> jf = m.get(i);
            assertEquals(pf.getFirst(), jf.getFirst(), "sample header " + i);
            int k = Math.min(pf.size(), jf.size());
            for (int j = 1; j < k; j++) {
                frames++;
                if (pf.get(j).equals(jf.get(j))) {
                    equal++;
                    if (pf.get(j).endsWith("(inlined)")) {
                        inlined++;
                    }
                }
            }
            if (pf.equals(jf)) {
                identical++;
            }
        }
        assertTrue(frames > 2500, frames + " frames compared");
        assertTrue(equal >= frames * 0.98, equal + " of " + frames + " frames equal");
        assertTrue(inlined > 50, inlined + " inlined frames equal");
        assertTrue(identical * 2 > g.size(), identical + " of " + g.size() + " samples identical");
    }

    static boolean addr2line() {
        try {
            return new ProcessBuilder("addr2line", "--version").redirectErrorStream(true).start().waitFor() == 0;
        } catch (java.io.IOException | InterruptedException e) {
            return false;
        }
    }

    static List<List<String>> samples(String text) {
        List<List<String>> out = new ArrayList<>();
        for (String l : text.split("\n")) {
            if (!l.isEmpty() && !l.startsWith("\t")) {
                out.add(new ArrayList<>(List.of(l)));
            } else if (l.startsWith("\t") && !out.isEmpty()) {
                out.getLast().add(l);
            }
        }
        return out;
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
