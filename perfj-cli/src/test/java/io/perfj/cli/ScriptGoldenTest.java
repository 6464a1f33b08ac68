package io.perfj.cli;

import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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
        List<String> args = new ArrayList<>(List.of("script", "-i", Fixtures.recording(name).toString(),
                "--buildid-dir", BuildIdCacheFixture.dir().toString(),
                "--perf-map-dir", Fixtures.file("perf-maps").toString()));
        if (!systemFiles) {
            args.add("--no-system-files");
        }
        return CliFixtures.runPerf(args.toArray(new String[0]));
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
        String golden = Fixtures.golden(name, "script");
        CliFixtures.Run r = script(name, false);
        assertEquals(0, r.rc(), r.err());
        assertSameLines(golden, r.out());
    }

    /**
     * --max-stack 1 and 2, line for line, from the committed files alone: on bpf-dwarf the
     * unwound user frames are limited on their own, apart from the kernel's part of the chain.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"c-fp:1", "c-fp:2", "bpf-dwarf:1", "bpf-dwarf:2"})
    void maxStackMatchesPerf(String which) {
        String name = which.substring(0, which.indexOf(':'));
        String depth = which.substring(name.length() + 1);
        if (name.equals("bpf-dwarf")) {
            Assumptions.assumeTrue(addr2line(), "addr2line (binutils) is not installed");
        }
        List<String> args = new ArrayList<>(List.of("script", "--max-stack", depth, "-i", Fixtures.recording(name).toString(),
                "--buildid-dir", BuildIdCacheFixture.dir().toString(), "--no-system-files",
                "--perf-map-dir", Fixtures.file("perf-maps").toString()));
        CliFixtures.Run r = CliFixtures.runPerf(args.toArray(new String[0]));
        assertEquals(0, r.rc(), r.err());
        assertSameLines(Fixtures.golden(name, "script-max-stack" + depth), r.out());
    }

    /** Objects bpf-dwarf's chains run through that 'perf archive' did not pack (no samples of their own). */
    static final List<String> NOT_ARCHIVED = List.of("(/usr/bin/date)", "(/usr/bin/perf)");

    /**
     * bpf-dwarf (--call-graph dwarf) from the committed files alone: user frames are unwound from
     * the copied stacks as perf 6.1 with libunwind does (--compat perf-6.1), inline
     * frames named through addr2line as perf does. Every sample must be perf's, except that a
     * chain running into an object the archive lacks ends at that object's first frame (its call
     * frame information is not there to go on).
     */
    @Test
    void dwarfUnwoundFramesMatchPerf() {
        Assumptions.assumeTrue(addr2line(), "addr2line (binutils) is not installed");
        String golden = Fixtures.golden("bpf-dwarf", "script");
        CliFixtures.Run r = script("bpf-dwarf", false);
        assertEquals(0, r.rc(), r.err());
        List<List<String>> g = samples(golden);
        List<List<String>> m = samples(r.out());
        assertEquals(g.size(), m.size(), "samples");
        int identical = 0;
        for (int i = 0; i < g.size(); i++) {
            List<String> pf = g.get(i);
            if (pf.equals(m.get(i))) {
                identical++;
                continue;
            }
            int cut = 1;
            while (cut < pf.size() && NOT_ARCHIVED.stream().noneMatch(pf.get(cut)::endsWith)) {
                cut++;
            }
            assertTrue(cut < pf.size(), "sample " + i + " differs: " + pf.getFirst());
            assertEquals(String.join("\n", pf.subList(0, cut + 1)), String.join("\n", m.get(i)), "sample " + i);
        }
        assertEquals(g.size() - 3, identical, "samples identical");
    }

    /**
     * bpf-dwarf where this machine still has the objects it was recorded with (the fixture's
     * libc.so.6 build-id, /usr/bin/date and /usr/bin/perf present): line for line perf's output,
     * each stack ending where perf's ends.
     */
    @Test
    void dwarfUnwoundMatchesPerfExactlyWithTheRecordedSystem() throws java.io.IOException {
        Assumptions.assumeTrue(addr2line(), "addr2line (binutils) is not installed");
        Assumptions.assumeTrue(recordedSystem(), "this machine's libc, /usr/bin/date or /usr/bin/perf is not the recorded build, or a bpftool is installed");
        CliFixtures.Run r = script("bpf-dwarf", true);
        assertEquals(0, r.rc(), r.err());
        assertSameLines(Fixtures.golden("bpf-dwarf", "script"), r.out());
    }

    /**
     * Whether this machine's libc.so.6, /usr/bin/date and /usr/bin/perf are the builds bpf-dwarf
     * was recorded with (libc's build-id from the committed cache, the others' from the goldens).
     */
    static boolean recordedSystem() throws java.io.IOException {
        String libcId = BuildIdCacheFixture.object("libc.so.6", "elf").getParent().getFileName().toString();
        java.util.Map<String, String> binaries = new java.util.HashMap<>(ReportGoldenTest.BPF_DWARF_SYSTEM_BINARIES);
        binaries.put("/usr/lib/x86_64-linux-gnu/libc.so.6", libcId);
        return ReportGoldenTest.recordedBinariesInstalled(binaries);
    }

    /**
     * By default (no --compat) the frames follow the call frame information alone: the stacks
     * perf ends early (after libc's syscall, where it fell back to frame pointers) go on, so
     * fewer samples are identical, but nearly every frame both print is equal (a frame perf
     * prints as inlined in itself, {@code __GI__Fork+0x23 (inlined)}, is the default's frame of
     * that address, {@code _Fork+0x23 (libc.so.6)}: {@link #selfFrame}).
     */
    @Test
    void cfiUnwindingDiffersFromPerfOnlyWhereStacksEnd() {
        Assumptions.assumeTrue(addr2line(), "addr2line (binutils) is not installed");
        String golden = Fixtures.golden("bpf-dwarf", "script");
        CliFixtures.Run r = CliFixtures.run("script", "-i", Fixtures.recording("bpf-dwarf").toString(),
                "--buildid-dir", BuildIdCacheFixture.dir().toString(),
                "--perf-map-dir", Fixtures.file("perf-maps").toString(), "--no-system-files");
        assertEquals(0, r.rc(), r.err());
        List<List<String>> g = samples(golden);
        List<List<String>> m = samples(r.out());
        assertEquals(g.size(), m.size(), "samples");
        int identical = 0;
        int frames = 0;
        int equal = 0;
        for (int i = 0; i < g.size(); i++) {
            List<String> pf = g.get(i);
            List<String> jf = m.get(i);
            // perf 6.1's layout against the default's (perf 7.2's): ids' widths and addresses differ
            assertEquals(pf.getFirst().replaceAll(" +", " "), jf.getFirst().replaceAll(" +", " "), "sample header " + i);
            int same = 0;
            for (int j = 1; j < Math.min(pf.size(), jf.size()); j++) {
                frames++;
                if (withoutAddress(pf.get(j)).equals(withoutAddress(jf.get(j))) || selfFrame(pf, j, jf.get(j))) {
                    same++;
                }
            }
            equal += same;
            if (pf.size() == jf.size() && same == pf.size() - 1) {
                identical++;
            }
        }
        assertTrue(frames > 2500, frames + " frames compared");
        assertTrue(equal >= frames * 0.99, equal + " of " + frames + " frames equal");
        assertTrue(identical < g.size() - 100, identical + " of " + g.size() + " samples identical");
    }

    private static final java.util.regex.Pattern FRAME_OFFSET =
            java.util.regex.Pattern.compile("^\\t *([0-9a-f]+) .+(\\+0x[0-9a-f]+) \\(.*");

    /**
     * Whether perf's frame {@code j} of a sample is a function printed as inlined in itself (the
     * last line at its address, marked inlined) and perfj's frame there is that address's own
     * frame, at the same offset.
     */
    private static boolean selfFrame(List<String> perf, int j, String perfj) {
        java.util.regex.Matcher p = FRAME_OFFSET.matcher(perf.get(j));
        java.util.regex.Matcher m = FRAME_OFFSET.matcher(perfj);
        if (!p.matches() || !m.matches() || !perf.get(j).endsWith(" (inlined)") || perfj.endsWith(" (inlined)")) {
            return false;
        }
        return (j + 1 == perf.size() || !perf.get(j + 1).startsWith(perf.get(j).substring(0, p.end(1) + 1)))
                && p.group(2).equals(m.group(2));
    }

    /** A frame line without its address column. */
    private static String withoutAddress(String frame) {
        return frame.replaceFirst("^\\t *[0-9a-f]+ ", "\t");
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
     * has no samples of its own): the committed java-sysroot has it.
     */
    @Test
    void javaMatchesPerf() {
        CliFixtures.Run r = CliFixtures.runPerf("script", "-i", Fixtures.recording("java").toString(),
                "--buildid-dir", BuildIdCacheFixture.dir().toString(), "--symfs", ReportGoldenTest.javaSysroot(),
                "--no-system-files", "--perf-map-dir", Fixtures.file("perf-maps").toString());
        assertEquals(0, r.rc(), r.err());
        assertSameLines(Fixtures.golden("java", "script"), r.out());
    }
}
