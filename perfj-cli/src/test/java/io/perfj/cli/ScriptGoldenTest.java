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
     * object's call frame information. perf also expands inline frames (its "(inlined)" lines,
     * from DWARF debug info), which perfj does not yet; leaving those aside, every sample header
     * must match and nearly every frame (perf and perfj differ only where an unwind ends: perf
     * sometimes adds a last 0xffffffffffffffff frame or stops earlier).
     */
    @Test
    void dwarfUnwoundFramesMatchPerfApartFromInlining() {
        String golden = CliFixtures.golden("bpf-dwarf", "script");
        CliFixtures.Run r = script("bpf-dwarf", false);
        assertEquals(0, r.rc(), r.err());
        List<List<String>> g = samples(golden);
        List<List<String>> m = samples(r.out());
        assertEquals(g.size(), m.size(), "samples");
        int frames = 0;
        int equal = 0;
        int userFrames = 0;
        for (int i = 0; i < g.size(); i++) {
            assertEquals(g.get(i).getFirst(), m.get(i).getFirst(), "sample header " + i);
            List<String> pf = new ArrayList<>();
            java.util.Set<String> inlinedAt = new java.util.HashSet<>();
            for (String l : g.get(i).subList(1, g.get(i).size())) {
                if (l.contains("(inlined)")) {
                    inlinedAt.add(l.trim().split(" ")[0]);
                } else {
                    pf.add(l);
                }
            }
            List<String> jf = new ArrayList<>();
            for (String l : m.get(i).subList(1, m.get(i).size())) {
                String addr = l.trim().split(" ")[0];
                if (!inlinedAt.contains(addr) || pf.stream().anyMatch(p -> p.trim().startsWith(addr + " "))) {
                    jf.add(l);
                }
            }
            for (int k = 0; k < Math.min(pf.size(), jf.size()); k++) {
                frames++;
                if (pf.get(k).equals(jf.get(k))) {
                    equal++;
                    if (!pf.get(k).contains("[kernel.kallsyms]") && !pf.get(k).contains("bpf_prog_")) {
                        userFrames++;
                    }
                }
            }
        }
        assertTrue(userFrames > 600, "user-space frames from unwinding: " + userFrames);
        assertTrue(equal >= frames * 0.99, equal + " of " + frames + " frames equal");
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
