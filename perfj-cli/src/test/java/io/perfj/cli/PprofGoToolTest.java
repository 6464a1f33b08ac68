package io.perfj.cli;

import io.perfj.export.pprof.ProfileProto;
import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code perfj export --format pprof} read by its real consumer, {@code go tool pprof} (skipped
 * without {@code go}): c-fp.data's program has DWARF, so each sampled address is a location of
 * its own with its source line, and {@code -list} puts a function's samples on its source
 * lines; {@code -disasm} spreads them over the instructions as annotate does.
 */
class PprofGoToolTest {
    @TempDir
    static Path tmp;
    private static Path profile;

    @BeforeAll
    static void export() {
        assumeGo();
        profile = tmp.resolve("c-fp.pb.gz");
        CliFixtures.Run r = CliFixtures.run("export", "--format", "pprof", "-i", Fixtures.recording("c-fp").toString(),
                "--buildid-dir", BuildIdCacheFixture.dir().toString(), "--no-system-files", "-o", profile.toString());
        assertEquals(0, r.rc(), r.err());
    }

    static void assumeGo() {
        io.perfj.testing.Objdump.assumeRuns("go is not installed (go tool pprof reads the export)", "go", "version");
    }

    private static String pprof(Map<String, String> env, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("go", "tool", "pprof"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("PPROF_BINARY_PATH", tmp.resolve("no-binaries").toString());
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out);
        return out;
    }

    private static ProfileProto.Profile decode(Path f) throws IOException {
        try (InputStream in = new GZIPInputStream(Files.newInputStream(f))) {
            return ProfileProto.Profile.parseFrom(in);
        }
    }

    /** The main binary first, with its build-id; compute_a's samples on many addresses, each with its line. */
    @Test
    void rawHasAddressesLinesAndTheMainBinaryFirst() throws Exception {
        String raw = pprof(Map.of(), "-raw", profile.toString());
        assertTrue(raw.contains("PeriodType: cpu-clock nanoseconds"), raw);
        assertTrue(raw.matches("(?s).*\nPeriod: [1-9][0-9]*\n.*"), raw);
        assertTrue(raw.matches("(?s).*\nDuration: [1-9].*"), raw);
        String mappings = raw.substring(raw.indexOf("\nMappings\n") + 10);
        String first = mappings.lines().findFirst().orElseThrow();
        assertTrue(first.startsWith("1: ") && first.contains("/fixtures/bin/hot ")
                && first.contains(" e2db302c322df9b8b21885b46c9d468e43446773 [FN][FL][LN]"), first);
        Pattern loc = Pattern.compile("(?m)^\\s+\\d+: (0x[0-9a-f]+) M=1 compute_a \\./src/hot\\.c:(\\d+) s=(\\d+)$");
        Matcher m = loc.matcher(raw);
        List<String> addresses = new ArrayList<>();
        while (m.find()) {
            addresses.add(m.group(1));
            assertTrue(Integer.parseInt(m.group(2)) >= 17 && Integer.parseInt(m.group(2)) <= 24, m.group());
            assertEquals("18", m.group(3), "compute_a starts at line 18: " + m.group());
        }
        assertTrue(addresses.size() >= 7, "compute_a's sampled addresses: " + addresses + "\n" + raw);
        assertEquals(addresses.size(), addresses.stream().distinct().count(), "one location per address");
    }

    /**
     * {@code -disasm=churn} counts the samples of each instruction of nonpie.data's hottest
     * function as perfj's annotate does. go 1.19's {@code go tool pprof} reads objects with Go's
     * own libraries: it compares a sample's address with the symbols' own addresses (no shared
     * objects, no position-independent executables: hence the non-PIE fixture) and reads no
     * build-id, refusing every file whose mapping has one, so the copy it disassembles leaves
     * the build-ids out.
     */
    @Test
    void disasmSpreadsTheSamplesOverTheInstructionsAsAnnotate() throws Exception {
        AnnotateGoldenTest.assumeObjdump();
        Path cache = BuildIdCacheFixture.unpacked("nonpie.buildid-cache");
        Path exported = tmp.resolve("nonpie.pb.gz");
        CliFixtures.Run r = CliFixtures.run("export", "--format", "pprof", "-i", Fixtures.recording("nonpie").toString(),
                "--buildid-dir", cache.toString(), "--no-system-files", "-o", exported.toString());
        assertEquals(0, r.rc(), r.err());
        ProfileProto.Profile p = decode(exported);
        String binary = p.getStringTable((int) p.getMapping(0).getFilename());
        assertTrue(binary.endsWith("/nonpie"), "the main binary first: " + binary);
        Path elf;
        try (var files = Files.walk(cache.resolve(binary.substring(1)))) {
            elf = files.filter(f -> f.getFileName().toString().equals("elf")).findFirst().orElseThrow();
        }
        ProfileProto.Profile.Builder b = p.toBuilder();
        for (ProfileProto.Mapping.Builder m : b.getMappingBuilderList()) {
            m.setBuildId(0);
        }
        Path stripped = tmp.resolve("no-build-ids.pb.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(stripped))) {
            b.build().writeTo(out);
        }
        Path dir = tmp.resolve("binaries");
        Files.createDirectories(dir);
        Files.copy(elf, dir.resolve("nonpie"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        String disasm = pprof(Map.of("PPROF_BINARY_PATH", dir.toString()),
                "-disasm=churn", "-sample_index=samples", stripped.toString());
        Map<Long, Long> fromPprof = new TreeMap<>();
        Matcher m = Pattern.compile("(?m)^\\s+(\\S+)\\s+\\S+\\s+([0-9a-f]+):").matcher(disasm);
        while (m.find()) {
            long n = m.group(1).equals(".") ? 0 : Long.parseLong(m.group(1));
            fromPprof.put(Long.parseLong(m.group(2), 16), n);
        }
        CliFixtures.Run a = CliFixtures.run("annotate", "-i", Fixtures.recording("nonpie").toString(), "--buildid-dir",
                cache.toString(), "--no-system-files", "--stdio", "-n", "churn");
        Map<Long, Long> fromAnnotate = new TreeMap<>();
        m = Pattern.compile("(?m)^\\s+(\\d+) :\\s+([0-9a-f]+):").matcher(a.out());
        while (m.find()) {
            fromAnnotate.put(Long.parseLong(m.group(2), 16), Long.parseLong(m.group(1)));
        }
        assertTrue(fromAnnotate.values().stream().filter(n -> n > 0).count() >= 4, a.out() + a.err());
        // Go's disassembler stops before the function's last instruction (ret): compared where both list one
        assertTrue(fromPprof.size() >= fromAnnotate.size() - 1, disasm);
        for (var e : fromPprof.entrySet()) {
            assertEquals(fromAnnotate.get(e.getKey()), e.getValue(), "samples at " + Long.toHexString(e.getKey())
                    + "\n" + disasm + "\n" + a.out());
        }
        assertEquals(fromAnnotate.values().stream().mapToLong(Long::longValue).sum(),
                fromPprof.values().stream().mapToLong(Long::longValue).sum(), disasm);
    }

    /** {@code -list=compute_a} shows the function's source with the samples of each line. */
    @Test
    void listShowsSourceLinesWithCounts() throws Exception {
        String list = pprof(Map.of(), "-list=compute_a", "-sample_index=samples",
                "-source_path", Fixtures.dir().toString(), profile.toString());
        assertFalse(list.contains("No source information"), list);
        Matcher m = Pattern.compile("(?m)^\\s+(\\S+)\\s+(\\S+)\\s+(\\d+):(.*)$").matcher(list);
        long total = 0;
        Map<Integer, Long> byLine = new TreeMap<>();
        while (m.find()) {
            long n = m.group(1).equals(".") ? 0 : Long.parseLong(m.group(1));
            byLine.put(Integer.parseInt(m.group(3)), n);
            total += n;
        }
        assertTrue(byLine.getOrDefault(21, 0L) > 0 && byLine.getOrDefault(20, 0L) > 0, list);
        assertTrue(list.contains("acc ^= (acc << 7)"), "the source text: " + list);
        assertTrue(total > 250, list);
    }
}
