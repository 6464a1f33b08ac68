package io.perfj.cli;

import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code perfj btf dump}: bpftool's output for objects and split BTF, perf.data entries, errors. */
class BtfDumpCommandTest {
    record Run(int rc, String out, String err) {
    }

    static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StringWriter err = new StringWriter();
        int rc = Main.execute(args, out, new PrintWriter(err));
        return new Run(rc, out.toString(StandardCharsets.UTF_8), err.toString());
    }

    static Path btf(String rel) {
        return Fixtures.file("btf/" + rel);
    }

    static String text(Path p) throws IOException {
        return Files.readString(p, StandardCharsets.UTF_8);
    }

    @Test
    void rawIsBpftoolsForAnObject() throws IOException {
        Run r = run("btf", "dump", btf("obj/kinds.bpf.o").toString());
        assertEquals(0, r.rc(), r.err());
        assertEquals(text(btf("golden/kinds.bpf.raw.txt")), r.out());
        Run explicit = run("btf", "dump", btf("obj/kinds.bpf.o").toString(), "format", "raw");
        assertEquals(r.out(), explicit.out());
    }

    @Test
    void jsonIsBpftoolsForAnObject() throws IOException {
        Run r = run("btf", "dump", btf("obj/maps.bpf.o").toString(), "format", "json");
        assertEquals(0, r.rc(), r.err());
        assertEquals(text(btf("golden/maps.bpf.json")), r.out());
        assertEquals(r.out(), run("btf", "dump", "-j", btf("obj/maps.bpf.o").toString()).out());
    }

    @Test
    void splitBtfOnABase(@TempDir Path tmp) throws IOException {
        Path base = tmp.resolve("base.btf");
        try (InputStream in = new GZIPInputStream(Files.newInputStream(btf("split/debian-6.1-base.btf.gz")))) {
            Files.write(base, in.readAllBytes());
        }
        Run r = run("btf", "dump", btf("split/xt_string.btf").toString(), "--base", base.toString());
        assertEquals(0, r.rc(), r.err());
        assertEquals(text(btf("golden/xt_string.raw.txt")), r.out());
        Run j = run("btf", "dump", "-B", base.toString(), btf("split/nf_conntrack_snmp.btf").toString(), "format", "json");
        assertEquals(text(btf("golden/nf_conntrack_snmp.json")), j.out());
        Run noBase = run("btf", "dump", btf("split/xt_string.btf").toString());
        assertEquals(2, noBase.rc());
        assertTrue(noBase.err().contains("needs its base BTF"), noBase.err());
    }

    @Test
    void perfDataEntriesHaveAHeaderLine() {
        Path data = Fixtures.recording("bpf-sys");
        Run r = run("btf", "dump", data.toString());
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.out().startsWith("# BPF_BTF id "), r.out());
        assertTrue(r.out().contains("] FUNC '"), r.out());
        Run j = run("btf", "dump", data.toString(), "format", "json");
        assertTrue(j.out().startsWith("[{\"btf_id\":") && j.out().endsWith("]}]\n"), j.out());
    }

    @Test
    void errorsAreOneLine(@TempDir Path tmp) throws IOException {
        Run missing = run("btf", "dump", tmp.resolve("nope").toString());
        assertEquals(1, missing.rc());
        assertEquals("perfj: failed to open " + tmp.resolve("nope") + ": No such file or directory\n", missing.err());
        Path junk = tmp.resolve("junk");
        Files.write(junk, new byte[] {(byte) 0x9f, (byte) 0xeb, 1, 0, 24, 0, 0, 0, 0, 0, 0, 0, 100, 0, 0, 0});
        Run bad = run("btf", "dump", junk.toString());
        assertEquals(2, bad.rc());
        assertEquals(1, bad.err().lines().count(), bad.err());
        assertTrue(bad.err().startsWith("perfj: " + junk + ": btf_header at offset 0x"), bad.err());
        Run fmt = run("btf", "dump", btf("obj/maps.bpf.o").toString(), "format", "yaml");
        assertEquals(2, fmt.rc());
        assertTrue(fmt.err().contains("unrecognized format specifier: 'yaml'"), fmt.err());
    }

    @Test
    void formatC() {
        Run r = run("btf", "dump", btf("obj/maps.bpf.o").toString(), "format", "c");
        assertEquals(0, r.rc(), r.err());
        assertFalse(r.out().isEmpty());
    }
}
