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

/** The pre-picocli path ({@link BtfDumpCommand#fast}) for {@code format c} prints what the picocli command prints. */
class BtfCFormatFastPathTest {
    record Run(int rc, String out, String err) {
    }

    static Run fast(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StringWriter err = new StringWriter();
        int rc = BtfDumpCommand.fast(args, out, new PrintWriter(err));
        return new Run(rc, out.toString(StandardCharsets.UTF_8), err.toString());
    }

    static Run full(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StringWriter err = new StringWriter();
        int rc = Main.execute(args, out, new PrintWriter(err));
        return new Run(rc, out.toString(StandardCharsets.UTF_8), err.toString());
    }

    @Test
    void sameAsTheCommandForEveryForm(@TempDir Path tmp) throws IOException {
        String obj = BtfCDumpCommandTest.fixture("btf-c/obj/funcs.bpf.o").toString();
        Path base = BtfCDumpCommandTest.gunzip(BtfCDumpCommandTest.fixture("btf/split/debian-6.1-base.btf.gz"),
                tmp.resolve("base.btf"));
        String mod = BtfCDumpCommandTest.fixture("btf/split/xt_string.btf").toString();
        String[][] forms = {
            {"btf", "dump", obj, "format", "c"},
            {"btf", "dump", mod, "format", "c", "-B", base.toString()},
            {"btf", "dump", "--base", base.toString(), mod, "format", "c"},
            {"btf", "dump", mod, "format", "c", "--base-btf", base.toString()},
        };
        for (String[] args : forms) {
            Run f = fast(args);
            Run p = full(args);
            assertEquals(0, f.rc(), f.err());
            assertEquals(p.rc(), f.rc());
            assertEquals(p.out(), f.out(), String.join(" ", args));
        }
    }

    @Test
    void perfDataEntriesAndMissingFilesToo(@TempDir Path tmp) {
        String data = Fixtures.recording("bpf-sys").toString();
        assertEquals(full("btf", "dump", data, "format", "c").out(), fast("btf", "dump", data, "format", "c").out());
        Run missing = fast("btf", "dump", tmp.resolve("missing").toString(), "format", "c");
        assertEquals(full("btf", "dump", tmp.resolve("missing").toString(), "format", "c").err(), missing.err());
        assertEquals(1, missing.rc());
    }

    @Test
    void damagedFileIsOneLineExitTwo(@TempDir Path tmp) throws IOException {
        Path junk = tmp.resolve("junk.btf");
        Files.write(junk, new byte[] {(byte) 0x9f, (byte) 0xeb, 1, 0, 24, 0, 0, 0, 0, 0, 0, 0, 100, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
        Run f = fast("btf", "dump", junk.toString(), "format", "c");
        Run p = full("btf", "dump", junk.toString(), "format", "c");
        assertEquals(2, f.rc());
        assertEquals(2, p.rc());
        assertEquals(1, f.err().lines().count(), f.err());
        assertTrue(f.err().startsWith("perfj: " + junk + ": "), f.err());
    }
}
