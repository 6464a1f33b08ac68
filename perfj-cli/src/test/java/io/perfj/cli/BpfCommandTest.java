package io.perfj.cli;

import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code perfj bpf}: listing against bpftool's prog show, xlated dumps against bpftool's. */
class BpfCommandTest {

    private static Path xdir() {
        return Fixtures.file("bpf-xlated");
    }

    private static String read(Path p) throws IOException {
        return Files.readString(p, StandardCharsets.UTF_8);
    }

    @ParameterizedTest
    @CsvSource({"xlated, ''", "xlated-linum, --linum"})
    void bpfSysXlatedEqualsBpftool(String kind, String opt) {
        Path bin = xdir().resolve("golden/bpf-sys.xlated.bin");
        CliFixtures.Run r = opt.isEmpty()
                ? CliFixtures.run("bpf", "-i", Fixtures.recording("bpf-sys").toString(), "--xlated", "perfj_xdp",
                        "--xlated-file", bin.toString(), "--syntax", "bpftool-7.1", "--no-system-files")
                : CliFixtures.run("bpf", "-i", Fixtures.recording("bpf-sys").toString(), "--xlated", "138", opt,
                        "--xlated-file", bin.toString(), "--syntax", "bpftool-7.1", "--no-system-files");
        assertEquals(0, r.rc(), r.err());
        assertEquals(Fixtures.golden("bpf-sys", kind), r.out());
    }

    @ParameterizedTest
    @CsvSource({"perfj_xlated, xlated, --no-samples", "perfj_xlated, xlated-linum, --linum",
        "perfj_tail, xlated-opcodes, --opcodes", "perfj_tail, xlated-linum, --linum"})
    void newFixtureXlatedEqualsBpftool(String name, String kind, String opt) throws IOException {
        Path d = xdir();
        CliFixtures.Run r = CliFixtures.run("bpf", "-i", d.resolve("xlated.data").toString(), "--xlated", name, opt,
                "--syntax", "bpftool-7.1", "--xlated-file", d.resolve("golden/" + name + ".xlated.bin").toString(),
                "-k", d.resolve("golden/kallsyms.txt").toString());
        assertEquals(0, r.rc(), r.err());
        assertEquals(read(d.resolve("golden/" + name + "." + kind + ".txt")), r.out());
    }

    @Test
    void xlatedJsonEqualsBpftool() throws IOException {
        Path d = xdir();
        CliFixtures.Run r = CliFixtures.run("bpf", "-i", d.resolve("xlated.data").toString(), "--xlated", "perfj_tail",
                "--json", "-p", "--linum", "--syntax", "bpftool-7.1",
                "--xlated-file", d.resolve("golden/perfj_tail.xlated.bin").toString(), "--no-system-files");
        assertEquals(0, r.rc(), r.err());
        assertEquals(read(d.resolve("golden/perfj_tail.xlated-linum.pretty.json")), r.out());
    }

    /** Every field the listing shares with {@code bpftool prog show --json} has bpftool's value. */
    @ParameterizedTest
    @CsvSource({"bpf-xlated/xlated.data, bpf-xlated/golden/perfj_xlated.prog-show.json",
        "bpf-xlated/xlated.data, bpf-xlated/golden/perfj_tail.prog-show.json",
        "bpf-sys.data, golden/bpf-sys.prog-show.json"})
    void listingAgreesWithProgShow(String data, String show) throws IOException {
        Path f = Fixtures.file(data);
        Path s = Fixtures.file(show);
        String json = read(s);
        CliFixtures.Run r = CliFixtures.run("bpf", "-i", f.toString(), "--json");
        assertEquals(0, r.rc(), r.err());
        String id = field(json, "id");
        String entry = r.out().lines().filter(l -> l.contains("{\"id\": " + id + ",")).findFirst().orElseThrow();
        for (String k : new String[] {"type", "name", "tag", "gpl_compatible", "bytes_xlated", "bytes_jited", "btf_id"}) {
            String want = field(json, k);
            assertTrue(entry.contains("\"" + k + "\": " + want), k + " " + want + " in " + entry);
        }
        CliFixtures.Run text = CliFixtures.run("bpf", "-i", f.toString());
        assertTrue(text.out().contains(id + ": " + field(json, "type").replace("\"", "") + "  name "
                + field(json, "name").replace("\"", "") + "  tag " + field(json, "tag").replace("\"", "")), text.out());
    }

    private static String field(String json, String key) {
        Matcher m = Pattern.compile("\"" + key + "\":(\"[^\"]*\"|[^,}]+)").matcher(json);
        assertTrue(m.find(), key);
        return m.group(1);
    }

    @Test
    void listingNamesSubProgramsLikePerf() {
        CliFixtures.Run r = CliFixtures.run("bpf", "-i", Fixtures.recording("bpf-sys").toString());
        assertEquals(0, r.rc(), r.err());
        String header = Fixtures.golden("bpf-sys", "header");
        for (String line : r.out().lines().filter(l -> l.startsWith("\tsub_prog")).toList()) {
            String perf = "# " + line.replaceFirst(" samples \\d+$", "");
            assertTrue(header.contains(perf + "\n"), perf);
        }
        assertTrue(r.out().contains("bpf_prog_b5ae9f831328185a_perfj_mix addr 0xffffffffc0021a54 size 88 samples 893"),
                r.out());
    }

    @Test
    void errors(@TempDir Path tmp) throws IOException {
        Path d = Fixtures.recording("bpf-sys");
        CliFixtures.Run none = CliFixtures.run("bpf", "-i", d.toString(), "--xlated", "nosuch");
        assertEquals(1, none.rc());
        assertTrue(none.err().contains("no BPF program 'nosuch'"), none.err());
        CliFixtures.Run syntax = CliFixtures.run("bpf", "-i", d.toString(), "--xlated", "--syntax", "gcc");
        assertEquals(2, syntax.rc());
        CliFixtures.Run missing = CliFixtures.run("bpf", "-i", d.toString(), "--xlated", "138");
        assertEquals(0, missing.rc(), missing.err());
        assertTrue(missing.out().contains("perf does not record them"), missing.out());
        byte[] all = Files.readAllBytes(d);
        for (int cut : new int[] {100, 4000, all.length / 2, all.length - 3000}) {
            Path t = tmp.resolve("cut" + cut + ".data");
            Files.write(t, java.util.Arrays.copyOf(all, cut));
            CliFixtures.Run r = CliFixtures.run("bpf", "-i", t.toString());
            assertTrue(r.rc() == 0 || r.rc() == 2, r.err());
            assertFalse(r.err().contains("\tat "), r.err());
        }
    }
}
