package io.perfj.cli;

import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HeaderCommandTest {
    private static Path fixture(String name) {
        return Fixtures.file(name);
    }

    private static String[] run(String... args) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        StringWriter err = new StringWriter();
        int rc = Main.execute(args, out, new PrintWriter(err));
        return new String[] {Integer.toString(rc), out.toString(java.nio.charset.StandardCharsets.UTF_8), err.toString()};
    }

    private static String dropCaptured(String s) {
        return s.replaceFirst("# captured on    : [^\n]*\n", "");
    }

    @Test
    void printsWhatPerfPrints() throws Exception {
        Path data = fixture("two-events.data");
        String[] r = run("header", "--compat", "perf-6.1", "-i", data.toString(), "-I");
        assertEquals("0", r[0], r[2]);
        assertEquals(dropCaptured(Files.readString(fixture("golden/two-events.header-I.txt"))), dropCaptured(r[1]));
        assertEquals("", r[2]);
        String[] plain = run("header", "--compat", "perf-6.1", "-i", data.toString());
        assertEquals(dropCaptured(Files.readString(fixture("golden/two-events.header.txt"))), dropCaptured(plain[1]));
    }

    @Test
    void corruptFileIsAOneLineError(@TempDir Path tmp) throws Exception {
        Path bad = tmp.resolve("bad.data");
        Files.write(bad, new byte[] {'P', 'E', 'R', 'F', 'I', 'L', 'E', '2', 1, 2});
        String[] r = run("header", "-i", bad.toString());
        assertEquals("2", r[0]);
        assertTrue(r[2].startsWith("perfj: " + bad), r[2]);
        assertEquals(1, r[2].strip().lines().count(), r[2]);
    }

    @Test
    void cutFeatureTableWarnsOnStderr(@TempDir Path tmp) throws Exception {
        byte[] all = Files.readAllBytes(fixture("c-fp.data"));
        // keep the data section and only the first entry of the feature table
        long dataOff = java.nio.ByteBuffer.wrap(all, 40, 8).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong();
        long dataSize = java.nio.ByteBuffer.wrap(all, 48, 8).order(java.nio.ByteOrder.LITTLE_ENDIAN).getLong();
        Path cut = tmp.resolve("cut.data");
        Files.write(cut, java.util.Arrays.copyOf(all, (int) (dataOff + dataSize + 20)));
        String[] r = run("header", "-i", cut.toString());
        assertEquals("0", r[0], r[2]);
        assertTrue(r[2].contains("feature section table"), r[2]);
        assertTrue(r[1].contains("# missing features: "), r[1]);
    }
}
