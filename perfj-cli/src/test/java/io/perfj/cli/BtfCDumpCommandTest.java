package io.perfj.cli;

import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code perfj btf dump FILE format c}: bpftool's C header for objects, vmlinux and split BTF. */
class BtfCDumpCommandTest {
    record Run(int rc, String out, String err) {
    }

    static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StringWriter err = new StringWriter();
        int rc = Main.execute(args, out, new PrintWriter(err));
        return new Run(rc, out.toString(StandardCharsets.UTF_8), err.toString());
    }

    static Path fixture(String rel) {
        return Fixtures.file(rel);
    }

    static String text(Path p) throws IOException {
        if (p.toString().endsWith(".gz")) {
            try (InputStream in = new GZIPInputStream(Files.newInputStream(p))) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
        }
        return Files.readString(p, StandardCharsets.UTF_8);
    }

    static Path gunzip(Path gz, Path to) throws IOException {
        try (InputStream in = new GZIPInputStream(Files.newInputStream(gz))) {
            Files.write(to, in.readAllBytes());
        }
        return to;
    }

    @ParameterizedTest
    @ValueSource(strings = {"kinds.bpf", "kinds.linked", "maps.bpf"})
    void objectsAsBpftoolPrintsThem(String name) throws IOException {
        Run r = run("btf", "dump", fixture("btf/obj/" + name + ".o").toString(), "format", "c");
        assertEquals(0, r.rc(), r.err());
        assertEquals(text(fixture("btf/golden/" + name + ".c.txt")), r.out());
    }

    @ParameterizedTest
    @ValueSource(strings = {"funcs.bpf.o", "packed.host.btf", "conflicts.bpf.o", "enums.host.btf"})
    void corpusAsBpftoolPrintsIt(String name) throws IOException {
        Run r = run("btf", "dump", fixture("btf-c/obj/" + name).toString(), "format", "c");
        assertEquals(0, r.rc(), r.err());
        assertEquals(text(fixture("btf-c/golden/" + name + ".c.txt")), r.out());
    }

    @Test
    void vmlinux(@TempDir Path tmp) throws IOException {
        Path btf = gunzip(fixture("btf/vmlinux.btf.gz"), tmp.resolve("vmlinux"));
        Run r = run("btf", "dump", btf.toString(), "format", "c");
        assertEquals(0, r.rc(), r.err());
        assertEquals(text(fixture("btf/vmlinux.c.txt.gz")), r.out());
    }

    /** A Debian 6.1 module on its kernel's BTF: bpftool prints the whole base, then the module's types. */
    @Test
    void splitModuleOnItsBase(@TempDir Path tmp) throws IOException {
        Path base = gunzip(fixture("btf/split/debian-6.1-base.btf.gz"), tmp.resolve("base.btf"));
        Run r = run("btf", "dump", fixture("btf/split/xt_string.btf").toString(), "-B", base.toString(), "format", "c");
        assertEquals(0, r.rc(), r.err());
        assertEquals(text(fixture("btf/golden/xt_string.c.txt.gz")), r.out());
    }

    /** perf.data BPF_BTF entries go through the object model: one header per entry. */
    @Test
    void perfDataEntries() {
        Run r = run("btf", "dump", Fixtures.recording("bpf-sys").toString(), "format", "c");
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.out().startsWith("# BPF_BTF id "), r.out());
        assertTrue(r.out().contains("#ifndef __VMLINUX_H__\n#define __VMLINUX_H__\n"), r.out());
        assertTrue(r.out().endsWith("#endif /* __VMLINUX_H__ */\n"), r.out());
    }

    @Test
    void damagedInputIsOneLineExitTwo(@TempDir Path tmp) throws IOException {
        Path junk = tmp.resolve("junk");
        Files.write(junk, new byte[] {(byte) 0x9f, (byte) 0xeb, 1, 0, 24, 0, 0, 0, 0, 0, 0, 0, 100, 0, 0, 0});
        Run bad = run("btf", "dump", junk.toString(), "format", "c");
        assertEquals(2, bad.rc());
        assertEquals(1, bad.err().lines().count(), bad.err());
        assertTrue(bad.err().startsWith("perfj: " + junk + ": "), bad.err());
        Run noBase = run("btf", "dump", fixture("btf/split/xt_string.btf").toString(), "format", "c");
        assertEquals(2, noBase.rc());
        assertTrue(noBase.err().contains("needs its base BTF"), noBase.err());
    }
}
