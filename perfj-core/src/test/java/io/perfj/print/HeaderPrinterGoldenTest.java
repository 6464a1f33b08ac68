package io.perfj.print;

import io.perfj.testing.Fixtures;
import io.perfj.perfdata.PerfData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * perfj header output in perf 6.1's layout against what perf 6.1 printed for each fixture. The "captured on" line is
 * the file's mtime, which a checkout resets, so the golden's line is replaced by the ctime of the
 * fixture's current mtime; {@link #ctimeMatchesPerf} checks that formatting on its own.
 */
class HeaderPrinterGoldenTest {

    static Stream<Arguments> cases() {
        List<Arguments> a = new ArrayList<>();
        for (String f : Fixtures.RECORDINGS) {
            a.add(Arguments.of(f, false));
            a.add(Arguments.of(f, true));
        }
        return a.stream();
    }

    static String render(Path file, boolean full) {
        try (PerfData d = PerfData.open(file)) {
            HeaderPrinter p = new HeaderPrinter(d, full, HeaderPrinter.modificationTime(file.toString()), ZoneOffset.UTC,
                    HeaderLayout.PERF_6_1);
            StringWriter sw = new StringWriter();
            try (PrintWriter pw = new PrintWriter(sw)) {
                p.print(pw);
            }
            assertEquals(List.of(), p.warnings(), "printer warnings");
            return sw.toString();
        }
    }

    @ParameterizedTest(name = "{0} -I={1}")
    @MethodSource("cases")
    void matchesPerf(String fixture, boolean full) throws Exception {
        Path data = Fixtures.recording(fixture);
        String golden = Files.readString(Fixtures.goldenFile(fixture + (full ? ".header-I.txt" : ".header.txt")));
        String captured = "# captured on    : "
                + HeaderPrinter.ctime(HeaderPrinter.modificationTime(data.toString()), ZoneOffset.UTC) + "\n";
        assertTrue(golden.contains("\n# captured on    : "), "golden has a captured-on line");
        String expected = golden.replaceFirst("\n# captured on    : [^\n]*\n", "\n" + captured);
        assertEquals(expected, render(data, full));
    }

    @Test
    void ctimeMatchesPerf() {
        // perf printed "Sat Feb  3 04:05:06 2001" for a file touched to this time (golden/captured-on-check.txt)
        assertEquals("Sat Feb  3 04:05:06 2001", HeaderPrinter.ctime(Instant.parse("2001-02-03T04:05:06Z"), ZoneOffset.UTC));
        assertEquals("Sun Nov 29 14:47:20 2026", HeaderPrinter.ctime(Instant.parse("2026-11-29T14:47:20Z"), ZoneOffset.UTC));
        assertEquals("Sun Nov 29 15:47:20 2026",
                HeaderPrinter.ctime(Instant.parse("2026-11-29T14:47:20Z"), ZoneId.of("Europe/Berlin")));
    }

    @Test
    void ctimeCheckFromFixtureScript() throws Exception {
        List<String> lines = Files.readAllLines(Fixtures.goldenFile("captured-on-check.txt"));
        String touched = lines.stream().filter(l -> l.startsWith("after touch -d ")).findFirst().orElseThrow();
        String when = touched.substring("after touch -d ".length(), touched.indexOf(": #"));
        String printed = touched.substring(touched.indexOf("# captured on    : ") + "# captured on    : ".length());
        assertEquals(printed, HeaderPrinter.ctime(Instant.parse(when), ZoneOffset.UTC));
    }

    @Test
    void fixedPointAgreesWithTheExactBinaryValueRounded() {
        java.util.Random r = new java.util.Random(11);
        for (int i = 0; i < 200_000; i++) {
            // durations in ms of every magnitude, and values on or next to a tie
            double d = i % 3 == 0 ? r.nextDouble() * Math.pow(10, r.nextInt(16))
                    : (r.nextInt(1 << 20) + 0.5) / 1000.0 + (i % 3 == 1 ? 0 : Math.ulp(1.0) * r.nextInt(5));
            String exact = new java.math.BigDecimal(d).setScale(3, java.math.RoundingMode.HALF_EVEN).toPlainString();
            assertEquals(exact, HeaderPrinter.cFixed(d, 3, 0), "cFixed(" + d + ")");
        }
    }

    @Test
    void numberFormatsFollowC() {
        assertEquals("   501.525", HeaderPrinter.cFixed(501.525123, 3, 10));
        // 0.0005 is stored as 0.000500000000000000010408..., so C rounds it up
        assertEquals("     0.001", HeaderPrinter.cFixed(0.0005, 3, 10));
        // 1.0005 is stored as 1.000499999999999989..., so C rounds down where HALF_UP on the decimal would not
        assertEquals("     1.000", HeaderPrinter.cFixed(1.0005, 3, 10));
        assertEquals("12345678901.000", HeaderPrinter.cFixed(12345678901.0, 3, 10));
        assertEquals("420.574271", HeaderPrinter.usec(420_574_271_999L));
        assertEquals("24G", HeaderPrinter.unitNumber(192L * 0x8000000L));
        assertEquals("1024B", HeaderPrinter.unitNumber(1024));
        assertEquals("2K", HeaderPrinter.unitNumber(2048));
        assertEquals("2047B", HeaderPrinter.unitNumber(2047));
        assertEquals("0-1", HeaderPrinter.CpuList.normalize("0-1"));
        assertEquals("0-3,5,7-8", HeaderPrinter.CpuList.normalize("5,0-2,3,7,8"));
    }
}
