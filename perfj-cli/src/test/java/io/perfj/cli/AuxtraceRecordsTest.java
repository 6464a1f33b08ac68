package io.perfj.cli;

import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * PERF_RECORD_AUXTRACE is followed by its trace data, whose length is in the record body rather
 * than in header.size: every reader steps over it (file and pipe), and a length past the end of
 * the data gives one warning naming file, structure and offset, with what came before reported.
 * The two Intel PT recordings of the corpus (perf 4.14) each hold such records.
 */
class AuxtraceRecordsTest {
    /** The first AUXTRACE record of each recording (perf report -D prints these offsets). */
    static final long FILE_FIRST_AUXTRACE = 0x29c0;

    @Test
    void fileModeCountsTheAuxRecordsAndReadsPastTheirData() {
        CliFixtures.Run r = CliFixtures.run("dump", "--stats", "-i", Fixtures.file("corpus/q-intel_pt-4.14.data").toString());
        assertEquals(0, r.rc(), r.err());
        assertEquals("", r.err());
        assertTrue(r.out().contains("        AUXTRACE events:          2"), r.out());
        assertTrue(r.out().contains("   AUXTRACE_INFO events:          1"), r.out());
        assertTrue(r.out().startsWith("\nAggregated stats: (excludes AUX area"), r.out());
        // records after both payloads were read
        assertTrue(r.out().contains("       TIME_CONV events:          1"), r.out());
    }

    @Test
    void pipeModeReadsPastTheAuxData() {
        CliFixtures.Run r = CliFixtures.run("dump", "--stats", "-i", Fixtures.file("corpus/q-piped.intel_pt-4.14.data").toString());
        assertEquals(0, r.rc(), r.err());
        assertEquals("", r.err());
        assertTrue(r.out().contains("        AUXTRACE events:"), r.out());
        assertTrue(r.out().contains("cycles stats:"), r.out());
    }

    @Test
    void traceDataRunningPastTheFileIsOneWarning(@TempDir Path tmp) throws Exception {
        byte[] all = Files.readAllBytes(Fixtures.file("corpus/q-intel_pt-4.14.data"));
        // cut inside the first AUXTRACE record's trace data; the header's data size now runs past the end too
        Path cut = tmp.resolve("cut.data");
        Files.write(cut, Arrays.copyOf(all, (int) FILE_FIRST_AUXTRACE + 0x30 + 100));
        CliFixtures.Run r = CliFixtures.run("dump", "--stats", "-i", cut.toString());
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.err().contains(cut + ": PERF_RECORD_AUXTRACE at offset 0x29c0 says 12240 bytes of trace data follow,"
                + " but only 100 remain"), r.err());
        assertEquals(1, r.err().lines().filter(l -> l.contains("AUXTRACE")).count(), r.err());
        assertTrue(r.out().contains("        AUXTRACE events:          1"), r.out());
        assertTrue(r.out().contains("            MMAP events:"), r.out());
    }

    @Test
    void pipeTraceDataRunningPastTheStreamIsOneWarning(@TempDir Path tmp) throws Exception {
        Path full = Fixtures.file("corpus/q-piped.intel_pt-4.14.data");
        byte[] all = Files.readAllBytes(full);
        long first = firstAuxtrace(all, 16);
        Path cut = tmp.resolve("cut-pipe.data");
        Files.write(cut, Arrays.copyOf(all, (int) first + 0x30 + 64));
        CliFixtures.Run r = CliFixtures.run("dump", "--stats", "-i", cut.toString());
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.err().contains("PERF_RECORD_AUXTRACE at offset 0x" + Long.toHexString(first)), r.err());
        assertTrue(r.err().contains("but only 64 remain"), r.err());
        assertTrue(r.out().contains("        AUXTRACE events:          1"), r.out());
        assertFalse(r.out().isBlank());
    }

    /** Where the first AUXTRACE record of a pipe stream starts (records from {@code from}, trace data stepped over). */
    static long firstAuxtrace(byte[] b, int from) {
        java.nio.ByteBuffer v = java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        int at = from;
        while (at + 8 <= b.length) {
            int type = v.getInt(at);
            int size = v.getShort(at + 6) & 0xffff;
            if (type == 71) {
                return at;
            }
            at += size;
        }
        throw new AssertionError("no AUXTRACE record");
    }
}
