package io.perfj.cli;

import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code btf dump FILE format c}: every way of naming the base gives one output; errors are one line. */
class BtfCFormatFormsTest {
    static CliFixtures.Run full(String... args) {
        return CliFixtures.run(args);
    }

    @Test
    void everyFormOfTheBaseOptionGivesTheSameDump(@TempDir Path tmp) throws IOException {
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
        assertEquals(0, full(forms[0]).rc());
        CliFixtures.Run split = full(forms[1]);
        assertEquals(0, split.rc(), split.err());
        assertTrue(split.out().contains("struct "), split.out());
        for (int i = 2; i < forms.length; i++) {
            CliFixtures.Run r = full(forms[i]);
            assertEquals(0, r.rc(), r.err());
            assertEquals(split.out(), r.out(), String.join(" ", forms[i]));
        }
    }

    @Test
    void perfDataEntriesAndMissingFilesToo(@TempDir Path tmp) {
        CliFixtures.Run data = full("btf", "dump", Fixtures.recording("bpf-sys").toString(), "format", "c");
        assertEquals(0, data.rc(), data.err());
        assertTrue(data.out().startsWith("# BPF_BTF id "), data.out());
        CliFixtures.Run missing = full("btf", "dump", tmp.resolve("missing").toString(), "format", "c");
        assertEquals("perfj: failed to open " + tmp.resolve("missing") + ": No such file or directory\n", missing.err());
        assertEquals(1, missing.rc());
    }

    @Test
    void damagedFileIsOneLineExitTwo(@TempDir Path tmp) throws IOException {
        Path junk = tmp.resolve("junk.btf");
        Files.write(junk, new byte[] {(byte) 0x9f, (byte) 0xeb, 1, 0, 24, 0, 0, 0, 0, 0, 0, 0, 100, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
        CliFixtures.Run f = full("btf", "dump", junk.toString(), "format", "c");
        assertEquals(2, f.rc());
        assertEquals(1, f.err().lines().count(), f.err());
        assertTrue(f.err().startsWith("perfj: " + junk + ": "), f.err());
    }
}
