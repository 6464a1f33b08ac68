package io.perfj.cli;

import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DumpCommandTest {
    @TempDir
    Path tmp;

    record Run(int rc, String out, String err) {
    }

    static Run run(String... args) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        StringWriter err = new StringWriter();
        int rc = Main.execute(args, bytes, new PrintWriter(err));
        return new Run(rc, bytes.toString(StandardCharsets.UTF_8), err.toString());
    }

    static Path fixture(String name) {
        return Fixtures.recording(name);
    }

    @Test
    void dumpsAndPrintsStats() {
        Path f = fixture("c-fp");
        Run r = run("dump", "-i", f.toString());
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.out().startsWith("# To display the perf.data header info"), r.out());
        assertTrue(r.out().contains("@" + f + " [0x"), "the event line names the file as given");
        assertTrue(r.out().contains("\nAggregated stats:\n"));
        Run s = run("dump", "--stats", "-i", f.toString());
        assertEquals(0, s.rc(), s.err());
        assertTrue(s.out().startsWith("\nAggregated stats:\n"), s.out());
    }

    @Test
    void cutShortFileWarnsAndExitsZero() throws IOException {
        byte[] all = Files.readAllBytes(fixture("c-fp"));
        Path cut = tmp.resolve("cut.data");
        Files.write(cut, java.util.Arrays.copyOf(all, 5000));
        Run r = run("dump", "-i", cut.toString());
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.err().contains("cut short") || r.err().contains("runs past"), r.err());
        assertTrue(r.out().contains("PERF_RECORD_SAMPLE"), "records before the cut are printed");
    }

    @Test
    void malformedFileFailsWithOneLine() throws IOException {
        Path bad = tmp.resolve("bad.data");
        Files.write(bad, "PERFILE2 not really".getBytes(StandardCharsets.US_ASCII));
        Run r = run("dump", "-i", bad.toString());
        assertEquals(2, r.rc());
        assertEquals(1, r.err().strip().lines().count(), r.err());
    }
}
