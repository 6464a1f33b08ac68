package io.perfj.cli;

import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * fixtures/record-hot.data, written by {@code perfj record}, against perf 6.1's reading of it
 * (goldens made by perf report from that file, fixtures/README.md): perf's report, header and
 * dump are what perfj prints. No perf and no root needed.
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
        CliFixtures.Run r = CliFixtures.run("header", "-i", Fixtures.recording("record-hot").toString());
        assertEquals(0, r.rc(), r.err());
        assertEquals(withoutCaptureTime(Fixtures.golden("record-hot", "header")), withoutCaptureTime(r.out()));
    }

    @Test
    void perfsDumpOfTheFileIsPerfjs() {
        CliFixtures.Run r = CliFixtures.run(withCache("dump"));
        assertEquals(0, r.rc(), r.err());
        // perf names the file as it was given (the golden's from fixtures/) and a sample in the
        // vdso by the random name of its temporary copy of this machine's vdso (fixtures/README.md)
        assertEquals(Fixtures.golden("record-hot", "D").replaceAll("/tmp/perf-vdso\\.so-[A-Za-z0-9]{6}", "[vdso]"),
                r.out().replace("@" + Fixtures.recording("record-hot") + " [", "@record-hot.data ["));
    }

    private static String withoutCaptureTime(String header) {
        return header.replaceFirst("(?m)^# captured on .*\n", "");
    }
}
