package io.perfj.cli;

import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bad input of the kinds users bring (issue 13), each made from a real fixture by patching or
 * cutting bytes: one warning naming the file, the structure and the offset, and what can still
 * be read is printed.
 */
class DamagedTraceInputTest {
    private static final int HEADER_TRACING_DATA = 66;

    private static String cache() {
        return BuildIdCacheFixture.unpacked("tracepoints.buildid-cache").toString();
    }

    /** The offset of the first record of {@code type} in a pipe-mode file (after its 16-byte header). */
    private static int firstRecord(byte[] all, int type) {
        ByteBuffer b = ByteBuffer.wrap(all).order(ByteOrder.LITTLE_ENDIAN);
        int at = 16;
        while (at + 8 <= all.length) {
            if (b.getInt(at) == type) {
                return at;
            }
            at += b.getShort(at + 6) & 0xffff;
        }
        throw new AssertionError("no record of type " + type);
    }

    @Test
    void aPipesTracingDataRunningPastTheFileIsOneWarningAndTheRecordsBeforeItCount(@TempDir Path tmp) throws Exception {
        byte[] all = Files.readAllBytes(Fixtures.recording("tp-pipe"));
        int at = firstRecord(all, HEADER_TRACING_DATA);
        // the file offset: perf -D prints 0xc1c, counting a pipe's offsets after its 16-byte header
        assertEquals(0xc2c, at, "where tp-pipe's PERF_RECORD_HEADER_TRACING_DATA is");
        ByteBuffer.wrap(all).order(ByteOrder.LITTLE_ENDIAN).putInt(at + 8, all.length);
        Path bad = tmp.resolve("bad-pipe.data");
        Files.write(bad, all);
        CliFixtures.Run r = CliFixtures.run("dump", "--stats", "-i", bad.toString());
        assertEquals(0, r.rc(), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().startsWith(bad + ": PERF_RECORD_HEADER_TRACING_DATA at offset 0xc2c says "
                + all.length + " bytes of tracing data follow, but only "), r.err());
        // the attrs, features and the tracing data record itself were read
        assertTrue(r.out().contains("TRACING_DATA events:          1"), r.out());
        assertTrue(r.out().contains("ATTR events:          2"), r.out());
    }

    @Test
    void aTracingDataCutShortFromAStreamIsOneWarning(@TempDir Path tmp) throws Exception {
        byte[] all = Files.readAllBytes(Fixtures.recording("tp-pipe"));
        int at = firstRecord(all, HEADER_TRACING_DATA);
        byte[] cut = Arrays.copyOf(all, at + 16 + 1000);
        try (var pd = io.perfj.perfdata.PerfData.openStream(new java.io.ByteArrayInputStream(cut), "<stdin>")) {
            var in = pd.records();
            int n = 0;
            while (in.next() != null) {
                n++;
            }
            assertTrue(n > 2, "records before the cut: " + n);
            assertEquals(1, in.warnings().size(), in.warnings().toString());
            assertTrue(in.warnings().getFirst().startsWith("<stdin>: PERF_RECORD_HEADER_TRACING_DATA at offset 0xc2c says "),
                    in.warnings().toString());
            assertTrue(!pd.features().containsKey(io.perfj.perfdata.FeatureId.TRACING_DATA), "no half blob");
        }
    }

    /** A format file perfj cannot parse (a field line misspelt): one warning, every sample still printed. */
    @Test
    void anEventFormatThatDoesNotParseIsOneWarningAndItsSamplesStillPrint(@TempDir Path tmp) throws Exception {
        byte[] all = Files.readAllBytes(Fixtures.recording("tp-sched"));
        byte[] good = "field:char prev_comm[16];".getBytes(StandardCharsets.US_ASCII);
        int at = indexOf(all, good);
        all[at + 1] = 'j';
        Path bad = tmp.resolve("bad-format.data");
        Files.write(bad, all);
        CliFixtures.Run r = CliFixtures.runPerf("script", "-i", bad.toString(), "--buildid-dir", cache(), "--no-system-files");
        assertEquals(0, r.rc(), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().startsWith(bad + ": tracing_data event format sched:sched_switch at offset 0x"), r.err());
        String golden = Fixtures.golden("tp-sched", "script");
        assertEquals(golden.lines().count(), r.out().lines().count());
        assertTrue(r.out().lines().allMatch(l -> l.contains("sched:sched_switch: ")), "every sample is printed");
    }

    /** node's jitdump cut inside a JIT_CODE_LOAD: the code loaded before the cut is still named. */
    @Test
    void aJitdumpCutMidRecordKeepsTheCodeBeforeIt(@TempDir Path tmp) throws Exception {
        Path dump;
        try (var s = Files.list(Fixtures.file("jitdump"))) {
            dump = s.filter(p -> p.getFileName().toString().matches("jit-\\d+\\.dump")).findFirst().orElseThrow();
        }
        byte[] all = Files.readAllBytes(dump);
        Path cut = tmp.resolve(dump.getFileName());
        Files.write(cut, Arrays.copyOf(all, 2_000_000));
        String[] args = {"script", "-i", Fixtures.recording("node-jit").toString(), "--no-system-files", "--jitdump-dir"};
        CliFixtures.Run r = CliFixtures.run(concat(args, tmp.toString()));
        assertEquals(0, r.rc(), r.err());
        // besides perf's note that the recorded kernel's symbols are not here, one line
        String damage = r.err().lines().filter(l -> !l.startsWith("No kallsyms or vmlinux with build-id "))
                .collect(java.util.stream.Collectors.joining("\n"));
        assertEquals(1, damage.strip().lines().count(), r.err());
        assertTrue(damage.startsWith(cut + ": JIT_CODE_LOAD at offset 0x") && r.err().contains("truncated"), r.err());
        CliFixtures.Run whole = CliFixtures.run(concat(args, Fixtures.file("jitdump").toString()));
        long named = r.out().lines().filter(l -> l.contains(" JS:")).count();
        long all2 = whole.out().lines().filter(l -> l.contains(" JS:")).count();
        assertTrue(named > 0 && named < all2, "JIT frames named with the cut dump: " + named + " of " + all2);
        assertEquals(whole.out().lines().count(), r.out().lines().count(), "every sample is printed");
    }

    private static String[] concat(String[] a, String last) {
        String[] out = Arrays.copyOf(a, a.length + 1);
        out[a.length] = last;
        return out;
    }

    private static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new AssertionError("not found");
    }
}
