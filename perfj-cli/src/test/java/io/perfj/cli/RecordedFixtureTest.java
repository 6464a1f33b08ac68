package io.perfj.cli;

import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * fixtures/record-hot.data, written by {@code perfj record}, against perf 6.1's reading of it
 * (goldens made by perf report from that file, fixtures/README.md): perf's report, header and
 * dump are what perfj prints. No perf and no root needed. fixtures/record-clock.data was recorded
 * with {@code -k mono}: its CLOCKID and CLOCK_DATA, and the CACHE and MEM_TOPOLOGY every perfj
 * recording has, as perf prints them with {@code --header-only -I}.
 */
class RecordedFixtureTest {
    private static String[] withCache(String... args) {
        List<String> a = new java.util.ArrayList<>(List.of(args));
        a.addAll(List.of("-i", Fixtures.recording("record-hot").toString(), "--buildid-dir",
                BuildIdCacheFixture.dir().toString(), "--no-system-files"));
        return a.toArray(new String[0]);
    }

    @Test
    void perfsReportOfTheFileIsPerfjs() {
        CliFixtures.Run r = CliFixtures.run(withCache("report", "--stdio"));
        assertEquals(0, r.rc(), r.err());
        assertEquals("", r.err());
        ReportGoldenTest.compare(Fixtures.golden("record-hot", "report"), r.out());
    }

    /** The header as perf prints it but the capture time (the file's modification time, set by the checkout). */
    @Test
    void perfsHeaderOfTheFileIsPerfjs() {
        CliFixtures.Run r = CliFixtures.runPerf("header", "-i", Fixtures.recording("record-hot").toString());
        assertEquals(0, r.rc(), r.err());
        assertEquals(withoutCaptureTime(Fixtures.golden("record-hot", "header")), withoutCaptureTime(r.out()));
    }

    @Test
    void perfsDumpOfTheFileIsPerfjs() {
        CliFixtures.Run r = CliFixtures.runPerf(withCache("dump"));
        assertEquals(0, r.rc(), r.err());
        // perf names the file as it was given (the golden's from fixtures/) and a sample in the
        // vdso by the random name of its temporary copy of this machine's vdso (fixtures/README.md)
        assertEquals(Fixtures.golden("record-hot", "D").replaceAll("/tmp/perf-vdso\\.so-[A-Za-z0-9]{6}", "[vdso]"),
                r.out().replace("@" + Fixtures.recording("record-hot") + " [", "@record-hot.data [")
                        .replaceAll("/tmp/perf-vdso\\.so-XXXXXX", "[vdso]"));
    }

    @Test
    void perfsHeaderOfTheClockRecordingIsPerfjs() {
        for (String kind : List.of("header", "header-I")) {
            CliFixtures.Run r = kind.equals("header")
                    ? CliFixtures.runPerf("header", "-i", Fixtures.recording("record-clock").toString())
                    : CliFixtures.runPerf("header", "-I", "-i", Fixtures.recording("record-clock").toString());
            assertEquals(0, r.rc(), r.err());
            String golden = Fixtures.golden("record-clock", kind);
            assertEquals(withoutCaptureTime(golden), withoutCaptureTime(r.out()), kind);
        }
        String header = Fixtures.golden("record-clock", "header");
        for (String line : List.of("# clockid: monotonic (1)", "# CACHE info available", "# MEM_TOPOLOGY info available")) {
            assertTrue(header.contains(line), "perf's header has " + line);
        }
    }

    @Test
    void perfsDumpOfTheClockRecordingIsPerfjs() {
        CliFixtures.Run r = CliFixtures.runPerf("dump", "-i", Fixtures.recording("record-clock").toString(),
                "--buildid-dir", BuildIdCacheFixture.dir().toString(), "--no-system-files");
        assertEquals(0, r.rc(), r.err());
        assertEquals(Fixtures.golden("record-clock", "D").replaceAll("/tmp/perf-vdso\\.so-[A-Za-z0-9]{6}", "[vdso]"),
                r.out().replace("@" + Fixtures.recording("record-clock") + " [", "@record-clock.data ["));
    }

    /**
     * fixtures/record-pipe.data, written by {@code perfj record -o -}: perf's {@code -i -} reading of
     * it (header, -D, the objects' shares) is perfj's. The stream has no build-ids (perf's pipe
     * mode writes none), so the rows are compared by their words, not the widths that depend on
     * which binaries this checkout finds.
     */
    @Test
    void perfsReadingOfThePipeRecordingIsPerfjs() {
        String pipe = Fixtures.recording("record-pipe").toString();
        CliFixtures.Run h = CliFixtures.runPerf("header", "-i", pipe);
        assertEquals(0, h.rc(), h.err());
        assertEquals(withoutCaptureTime(Fixtures.golden("record-pipe", "header")), withoutCaptureTime(h.out()));
        CliFixtures.Run d = CliFixtures.runPerf("dump", "-i", pipe, "--no-system-files");
        assertEquals(0, d.rc(), d.err());
        assertEquals(Fixtures.golden("record-pipe", "D").replaceAll("/tmp/perf-vdso\\.so-[A-Za-z0-9]{6}", "[vdso]"),
                d.out().replaceAll("/tmp/perf-vdso\\.so-XXXXXX", "[vdso]"));
        CliFixtures.Run r = CliFixtures.run("report", "--stdio", "--no-children", "-g", "none", "--sort", "dso", "-i", pipe,
                "--no-system-files");
        assertEquals(0, r.rc(), r.err());
        assertEquals(rowWords(Fixtures.golden("record-pipe", "report-dso")), rowWords(r.out()));
    }

    private static List<String> rowWords(String report) {
        return report.lines().filter(ReportGoldenTest::isRow).map(l -> String.join(" ", l.trim().split("\\s+"))).toList();
    }

    static String withoutCaptureTime(String header) {
        return header.replaceFirst("(?m)^# captured on .*\n", "");
    }
}
