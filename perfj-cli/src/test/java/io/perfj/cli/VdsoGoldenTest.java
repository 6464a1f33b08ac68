package io.perfj.cli;

import io.perfj.elf.ElfFile;
import io.perfj.symbols.RunningVdso;
import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code [vdso]} samples of a recording that names no vdso build-id (build-ids in the MMAP2
 * records, fixtures/make-vdso.sh): perf reads the running vdso, and so does perfj. Both perfs
 * printed their goldens on the kernel the recording was made on, so the comparison means
 * something only on a machine running that kernel's vdso; elsewhere it is skipped
 * ({@code io.perfj.symbols.RunningVdsoTest} covers the mechanics on any machine).
 */
class VdsoGoldenTest {
    private static void assumeRecordingsVdso() {
        byte[] image = RunningVdso.image(Path.of("/proc/self"));
        assumeTrue(image != null, "no readable [vdso] mapping in /proc/self");
        String running;
        try (ElfFile elf = ElfFile.of(image, "[vdso]")) {
            running = elf.buildId().map(HexFormat.of()::formatHex).orElse("");
        }
        String recorded = Fixtures.golden("vdso", "vdso-buildid").strip();
        assumeTrue(running.equals(recorded), "this machine's vdso (" + running
                + ") is not the one vdso.data was recorded with (" + recorded + ")");
    }

    /** perfj with system files (the running vdso is one) and the program's build-id cache. */
    private static CliFixtures.Run run(boolean compat, String command, String... extra) {
        List<String> a = new ArrayList<>(List.of(command));
        if (compat) {
            a.addAll(List.of("--compat", "perf-6.1"));
        }
        a.addAll(List.of("-i", Fixtures.recording("vdso").toString(), "--buildid-dir",
                BuildIdCacheFixture.unpacked("vdso.buildid-cache").toString()));
        a.addAll(Arrays.asList(extra));
        return CliFixtures.run(a.toArray(new String[0]));
    }

    private static final String[] REPORT = {"--stdio", "--no-children", "-g", "none", "--sort", "dso,sym", "--dsos",
            "[vdso]"};
    private static final String[] SCRIPT = {"-F", "comm,tid,ip,sym,symoff,dso", "-G"};

    @Test
    void theVdsosSymbolsAsPerf61Prints() {
        assumeRecordingsVdso();
        assertTrue(Fixtures.golden("vdso", "script").contains("__vdso_clock_gettime+0x"), "resolved in the golden");
        CliFixtures.Run r = run(true, "report", REPORT);
        ReportGoldenTest.compare(Fixtures.golden("vdso", "report"), r.out());
        r = run(true, "script", SCRIPT);
        List<String> want = vdsoLines(Fixtures.golden("vdso", "script"));
        assertTrue(want.size() >= 100, "vdso samples: " + want.size());
        assertEquals(want, vdsoLines(r.out()), r.err());
    }

    /** perf 7.2 pads script's tid column otherwise; the words of every line are the same. */
    @Test
    void theVdsosSymbolsAsPerf72Prints() {
        assumeRecordingsVdso();
        CliFixtures.Run r = run(false, "report", REPORT);
        ReportGoldenTest.compare(Fixtures.golden("vdso", "report.perf72"), r.out());
        r = run(false, "script", SCRIPT);
        assertEquals(words(vdsoLines(Fixtures.golden("vdso", "script.perf72"))), words(vdsoLines(r.out())), r.err());
    }

    /** The samples in the vdso (the others' objects are not in the fixture's build-id cache). */
    private static List<String> vdsoLines(String text) {
        return text.lines().filter(l -> l.endsWith(" ([vdso])")).toList();
    }

    private static List<String> words(List<String> lines) {
        return lines.stream().map(l -> l.strip().replaceAll("\\s+", " ")).toList();
    }
}
