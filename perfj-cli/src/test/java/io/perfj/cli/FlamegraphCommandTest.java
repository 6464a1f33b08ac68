package io.perfj.cli;

import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** perfj flamegraph from the command line. */
class FlamegraphCommandTest {
    @TempDir
    Path tmp;

    private static CliFixtures.Run run(String... more) {
        String[] base = {"flamegraph", "--buildid-dir", BuildIdCacheFixture.dir().toString(), "--no-system-files",
                "--perf-map-dir", Fixtures.file("perf-maps").toString()};
        String[] a = new String[base.length + more.length];
        System.arraycopy(base, 0, a, 0, base.length);
        System.arraycopy(more, 0, a, base.length, more.length);
        return CliFixtures.run(a);
    }

    @Test
    void drawsOneEventToAnSvgFile() throws Exception {
        Path svg = tmp.resolve("two.svg");
        CliFixtures.Run r = run("-i", Fixtures.recording("two-events").toString(), "-o", svg.toString(),
                "--event", "task-clock");
        assertEquals(0, r.rc(), r.err());
        String text = Files.readString(svg);
        assertTrue(text.startsWith("<?xml"), text.substring(0, 40));
        assertTrue(text.contains("(task-clock"), "title names the event");
        assertTrue(text.contains("data-n=\"compute_a\""), "frames by function");
        assertTrue(r.err().contains("drew the samples of task-clock"), r.err());
        assertFalse(text.contains("http-equiv") || text.contains("src=\"http"), "nothing fetched");
        CliFixtures.Run stdout = run("-i", Fixtures.recording("c-fp").toString());
        assertEquals(0, stdout.rc(), stdout.err());
        assertTrue(stdout.out().startsWith("<?xml") && stdout.out().endsWith("</svg>\n"), "SVG on standard output");
    }

    @Test
    void twoRecordingsDrawTheDifference() throws Exception {
        Path svg = tmp.resolve("diff.svg");
        CliFixtures.Run r = run("-i", Fixtures.recording("c-fp").toString(), "-i", Fixtures.recording("two-events").toString(),
                "-o", svg.toString());
        assertEquals(0, r.rc(), r.err());
        String text = Files.readString(svg);
        assertTrue(text.contains("Differential flame graph"), "title");
        assertTrue(text.contains(" points</title>"), "frames name their change");
        CliFixtures.Run three = run("-i", "a", "-i", "b", "-i", "c", "-o", svg.toString());
        assertEquals(1, three.rc());
        assertTrue(three.err().contains("one recording, or two"), three.err());
    }

    @Test
    void htmlByTheOutputsName() throws Exception {
        Path html = tmp.resolve("c-fp.html");
        CliFixtures.Run r = run("-i", Fixtures.recording("c-fp").toString(), "-o", html.toString());
        assertEquals(0, r.rc(), r.err());
        String text = Files.readString(html);
        assertTrue(text.startsWith("<!DOCTYPE html>"), text.substring(0, 20));
        assertTrue(text.contains("<script type=\"application/json\" id=\"perfj-flame-data\">{\"title\":\"Flame graph: "));
        assertTrue(text.contains("\"compute_a\""), "frames by function");
        // the hover's source positions, from the DWARF line table (where annotate's listing starts compute_a)
        assertTrue(text.contains("\"compute_a\",\"hot\",\"u\",\"./src/hot.c:18\"]"), "compute_a's source line");
        assertTrue(text.contains("class FlameGraph"), "the served UI's renderer, inlined");
        assertFalse(text.contains("src=\"") || text.contains("href=\""), "nothing fetched");
        Path diff = tmp.resolve("diff.html");
        CliFixtures.Run two = run("-i", Fixtures.recording("c-fp").toString(), "-i", Fixtures.recording("two-events").toString(),
                "-o", diff.toString());
        assertEquals(0, two.rc(), two.err());
        assertTrue(Files.readString(diff).contains("\"total2\":"), "both recordings' weights");
    }

    @Test
    void clearErrors() {
        CliFixtures.Run png = run("-i", Fixtures.recording("c-fp").toString(), "-o", tmp.resolve("x.png").toString());
        assertEquals(1, png.rc());
        assertTrue(png.err().contains("*.svg or *.html"), png.err());
        CliFixtures.Run none = run("-i", Fixtures.recording("c-fp").toString(), "-o", tmp.resolve("x.svg").toString(),
                "--event", "cycles");
        assertEquals(1, none.rc());
        assertTrue(none.err().contains("no samples of event 'cycles'"), none.err());
        assertFalse(Files.exists(tmp.resolve("x.svg")));
    }
}
