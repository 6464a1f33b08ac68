package io.perfj.cli;

import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * jit-long.data: node --perf-basic-prof with JS functions named by 300, 1100 and 1200 characters
 * (fixtures/make-jit-long.sh). perf formats a column header and a callchain name into a
 * 1024-byte buffer, so both print cut to 1023 bytes; --compat perf-6.1 prints that, the default
 * whole names and a header as wide as its column.
 */
class JitLongNamesGoldenTest {
    private static final String NAME = "jit-long";
    /** The map node wrote (its JS lines), of the recorded pid. */
    private static final String MAP = "perf-25759.map";

    @TempDir
    static Path empty;

    private static CliFixtures.Run run(String... args) throws IOException {
        Path kallsyms = empty.resolve("kallsyms");
        if (!Files.exists(kallsyms)) {
            Files.createFile(kallsyms);
        }
        List<String> a = new ArrayList<>(List.of(args));
        a.addAll(List.of("-i", Fixtures.recording(NAME).toString(), "--perf-map-dir", Fixtures.file("jit-long").toString(),
                "--symfs", empty.toString(), "--buildid-dir", empty.toString(), "--kallsyms", kallsyms.toString(),
                "--no-system-files"));
        CliFixtures.Run r = CliFixtures.run(a.toArray(String[]::new));
        assertEquals(0, r.rc(), r.err());
        return r;
    }

    private static String noTip(String text) {
        return String.join("\n", ReportGoldenTest.withoutTip(text));
    }

    @Test
    void compatReportIsPerf61s() throws IOException {
        CliFixtures.Run r = run("report", "--compat", "perf-6.1", "--stdio", "--no-children");
        assertEquals(noTip(Fixtures.golden(NAME, "report-no-children")), noTip(r.out()));
    }

    @Test
    void compatFoldedIsPerf61s() throws IOException {
        CliFixtures.Run r = run("report", "--compat", "perf-6.1", "--stdio", "--no-children", "-g", "folded");
        assertEquals(noTip(Fixtures.golden(NAME, "report-no-children-folded")), noTip(r.out()));
    }

    @Test
    void defaultHeaderSpansTheColumnAndNamesPrintWhole() throws IOException {
        String out = run("report", "--stdio", "--no-children").out();
        List<String> lines = out.lines().toList();
        int title = lines.indexOf(lines.stream().filter(l -> l.startsWith("# Overhead")).findFirst().orElseThrow());
        assertEquals(lines.get(title + 1).length(), lines.get(title).length(), "header and dotted line");
        String longest = Files.readAllLines(Fixtures.file("jit-long/" + MAP)).stream()
                .map(l -> l.split(" ", 3)[2]).filter(n -> n.startsWith("JS:*long1200")).findFirst().orElseThrow();
        assertTrue(longest.length() > 1200, longest);
        assertTrue(lines.contains("            ---" + longest), "a callchain names " + longest.substring(0, 20) + "... whole");
    }

    /** perf 7.2 prints the chains in the same order, equal ones too; only its names are cut. */
    @Test
    void defaultFoldedIsPerf72sWithWholeNames() throws IOException {
        String out = run("report", "--stdio", "--no-children", "-g", "folded").out();
        List<String> whole = chains(out);
        assertTrue(whole.stream().anyMatch(l -> l.contains("JS:*long1200") && l.length() > 1300), "whole names");
        assertEquals(chains(Fixtures.golden(NAME, "report-no-children-folded.perf72")), chains(cut(out)));
    }

    /** The report's folded lines ("PERCENT% a;b;c"; the rows start with spaces). */
    private static List<String> chains(String report) {
        return report.lines().filter(l -> !l.isEmpty() && Character.isDigit(l.charAt(0))).toList();
    }

    /** Each name of a folded line ("PERCENT% a;b;c") cut to perf's 1023 bytes (the names are ASCII). */
    private static String cut(String report) {
        return report.lines().map(l -> {
            int names = l.indexOf(' ') + 1;
            return l.substring(0, names) + Arrays.stream(l.substring(names).split(";", -1))
                    .map(n -> n.length() > 1023 ? n.substring(0, 1023) : n).collect(Collectors.joining(";"));
        }).collect(Collectors.joining("\n", "", "\n"));
    }
}
