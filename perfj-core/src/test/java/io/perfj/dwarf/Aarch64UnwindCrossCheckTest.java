package io.perfj.dwarf;

import io.perfj.perfdata.PerfData;
import io.perfj.symbols.SymbolOptions;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * aarch64 DWARF unwinding ({@link UnwindArch#AARCH64}, correct mode) against an independent
 * unwinder: hotspot's perfparser (elfutils libdw, which unwinds aarch64 stacks on any host), on
 * the corpus's two aarch64 recordings of Android's simpleperf ({@code record -g --no-unwind}: user
 * registers x0..x30, sp, pc and the copied stack) with the one object of them the corpus has,
 * {@code libnative-lib.so} from the test apk, under {@code corpus/symfs}. perf 6.1 as built for
 * x86-64 cannot unwind them ("unwind: target platform=arm64 is not supported"), so its goldens
 * have no user frames; this test is what checks the frames perfj gives.
 *
 * <p>{@code golden/sp-aarch64.perfparser-stacks.txt} holds perfparser's stacks (frames as object
 * and file offset, see {@link PerfparserCrossCheckTest}); {@link #goldenIsPerfparsersOutput()}
 * remakes it when perfparser is installed ({@code -Dgolden.update=true} rewrites it).
 */
class Aarch64UnwindCrossCheckTest {
    private static final String GOLDEN = "sp-aarch64.perfparser-stacks.txt";
    private static final List<String> RECORDINGS = List.of("sp-unwind-apk", "sp-no-unwind");

    private static Path recording(String name) {
        return Fixtures.require(Fixtures.file("corpus/" + name + ".data"));
    }

    private static Path symfs() {
        return Fixtures.require(Fixtures.file("corpus/symfs"));
    }

    /** corpus/symfs and nothing of this machine (an empty build-id dir, kallsyms and perf-map dir). */
    private static SymbolOptions symbols(Path empty) throws Exception {
        Path kallsyms = empty.resolve("kallsyms");
        if (!Files.exists(kallsyms)) {
            Files.createFile(kallsyms);
        }
        return SymbolOptions.builder().symfs(symfs()).buildIdDir(empty).kallsyms(kallsyms).perfMapDir(empty).noSystemFiles().build();
    }

    private static String format(String name, Map<String, List<String>> stacks) {
        StringBuilder sb = new StringBuilder();
        sb.append("== ").append(name).append('\n');
        stacks.forEach((k, v) -> sb.append(k).append(':').append(v.isEmpty() ? "" : " " + String.join(" ", v)).append('\n'));
        return sb.toString();
    }

    /** The golden's stacks of one recording. */
    private static Map<String, List<String>> golden(String name) throws Exception {
        String text = Files.readString(Fixtures.require(Fixtures.dir().resolve("golden").resolve(GOLDEN)),
                StandardCharsets.UTF_8);
        int at = text.indexOf("== " + name + "\n");
        assertTrue(at >= 0, GOLDEN + " has no " + name);
        int end = text.indexOf("\n== ", at + 1);
        return PerfparserCrossCheckTest.parse(text.substring(text.indexOf('\n', at) + 1, end < 0 ? text.length() : end));
    }

    @Test
    void goldenIsPerfparsersOutput(@TempDir Path work) throws Exception {
        Path exe = PerfparserCrossCheckTest.perfparser();
        Assumptions.assumeTrue(exe != null, "hotspot-perfparser is not installed (Debian: apt-get install hotspot)");
        StringBuilder made = new StringBuilder()
                .append("# hotspot-perfparser (elfutils libdw) user stacks of the corpus's aarch64 recordings,\n")
                .append("# unwound with corpus/symfs (perfparser --sysroot); frames as object+file offset of the\n")
                .append("# looked-up address (callers: return address - 1); ~ marks frames perfparser guessed.\n")
                .append("# Made by Aarch64UnwindCrossCheckTest (-Dgolden.update=true).\n");
        for (String name : RECORDINGS) {
            Path dir = Files.createDirectories(work.resolve(name));
            Path out = dir.resolve("out.qperf");
            Process p = new ProcessBuilder(exe.toString(), "--input", recording(name).toString(),
                    "--output", out.toString(), "--sysroot", symfs().toString(),
                    "--debug", dir.resolve("no-debug").toString(), "--max-frames", "-1")
                    .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(dir.resolve("log.txt").toFile())
                    .start();
            assertEquals(0, p.waitFor(), "perfparser failed: " + Files.readString(dir.resolve("log.txt")));
            PerfparserStream.Stream pp = PerfparserStream.decode(Files.readAllBytes(out));
            Path empty = Files.createDirectories(dir.resolve("empty"));
            made.append(format(name, PerfparserCrossCheckTest.stacks(recording(name), symbols(empty), pp).perfparser()));
        }
        Path golden = Fixtures.dir().resolve("golden").resolve(GOLDEN);
        if (Boolean.getBoolean("golden.update")) {
            Files.writeString(golden, made.toString(), StandardCharsets.UTF_8);
        }
        assertEquals(Files.readString(golden, StandardCharsets.UTF_8), made.toString());
    }

    /**
     * perfj's stacks against perfparser's, frame by frame where both have the facts:
     * <ul>
     * <li>perfparser's first frame is the sampled link register, not the sampled pc: it hands
     *     libdw perf's registers as DWARF registers 0..32 and never sets the pc, and libdw then
     *     takes the pc from the return address column, x30 (on x86-64 that column is rip, which
     *     is why the x86-64 check agrees on the first frame). perfj's first frame is the pc;</li>
     * <li>the callers are compared: the first one is recovered by the CFA rule of the sampled
     *     function (x29+16, x30 at CFA-8) in both;</li>
     * <li>where the chain reaches an object the corpus lacks (Android's libc.so), perfj stops
     *     at that object's frame (no call frame information); libdw goes on with its aarch64
     *     frame-pointer fallback, which perfparser does not flag as guessed;</li>
     * <li>a sample whose pc is in an object the corpus lacks: perfparser has no frame at all
     *     (libdw finds no module for the pc), perfj has the sampled pc.</li>
     * </ul>
     */
    @Test
    void correctModeStacksAgreeWithPerfparser(@TempDir Path empty) throws Exception {
        int compared = 0;
        int pcOnly = 0;
        for (String name : RECORDINGS) {
            Map<String, List<String>> theirs = golden(name);
            Map<String, List<String>> mine = PerfparserCrossCheckTest.stacks(recording(name), symbols(empty), null).perfj();
            assertEquals(theirs.keySet(), mine.keySet(), name + ": the same samples");
            for (var e : theirs.entrySet()) {
                List<String> t = PerfparserCrossCheckTest.allFrames(e.getValue());
                List<String> m = mine.get(e.getKey());
                String at = name + " sample " + e.getKey() + ": perfparser " + t + ", perfj " + m;
                assertTrue(!m.isEmpty(), at);
                assertTrue(m.getLast().startsWith("libc.so+"), "the walk ends in the object without a file: " + at);
                if (t.isEmpty()) {
                    assertEquals(1, m.size(), at);
                    pcOnly++;
                    continue;
                }
                assertTrue(m.size() >= 2 && m.size() <= t.size(), at);
                assertEquals(t.subList(1, m.size()), m.subList(1, m.size()), at);
                compared += m.size() - 1;
            }
        }
        assertEquals(8, pcOnly, "samples with the pc in a missing object");
        assertEquals(1, compared, "callers compared");
    }

    @Test
    void theArchitectureIsTheRecordings() {
        assertEquals(UnwindArch.AARCH64, UnwindArch.of(PerfData.open(recording("sp-unwind-apk"))));
        assertEquals(UnwindArch.X86_64, UnwindArch.of(PerfData.open(Fixtures.recording("bpf-dwarf"))));
        assertNull(UnwindArch.of(PerfData.open(Fixtures.file("corpus/q-armv7-3.4.data"))));
    }
}
