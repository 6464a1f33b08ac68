package io.perfj.perfdata.feature;

import io.perfj.testing.Fixtures;
import io.perfj.io.Bytes;
import io.perfj.io.FormatException;
import io.perfj.perfdata.FeatureId;
import io.perfj.perfdata.PerfData;
import io.perfj.print.HeaderPrinter;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Corrupts every feature payload of every fixture (truncations, flipped bytes, u32 fields set to
 * 0xffffffff, u64 fields set to all-ones) and checks that decoding either succeeds or fails with
 * a {@link FormatException}, never another exception or an OutOfMemoryError. Each fixture must
 * also produce some FormatExceptions, so a decoder that swallowed everything would fail here.
 */
class FeatureMutationTest {
    static final List<String> NAMES = Fixtures.RECORDINGS;

    private static final class Tally {
        int decoded;
        int rejected;
    }

    @ParameterizedTest
    @FieldSource("NAMES")
    void corruptPayloadsFailOnlyWithFormatException(String fixture) {
        Tally tally = new Tally();
        try (PerfData d = FeatureDecodeTest.open(fixture)) {
            for (Map.Entry<Integer, Bytes> e : d.features().entrySet()) {
                int id = e.getKey();
                Bytes payload = e.getValue();
                byte[] orig = payload.bytes(0, payload.size());
                ByteOrder order = payload.order();
                // the untouched payload decodes
                Features.decode(id, payload, d);
                for (byte[] m : mutations(orig, id)) {
                    Bytes b = Bytes.of(MemorySegment.ofArray(m), order, d.name(), "feature " + FeatureId.name(id), payload.base());
                    try {
                        Features.decode(id, b, d);
                        tally.decoded++;
                    } catch (FormatException ex) {
                        tally.rejected++;
                        assertTrue(ex.getMessage().contains("feature " + FeatureId.name(id)),
                                "error names the feature: " + ex.getMessage());
                        assertTrue(ex.offset() >= payload.base() && ex.offset() <= payload.base() + m.length,
                                "error offset 0x" + Long.toHexString(ex.offset()) + " lies in the payload");
                    } catch (Throwable t) {
                        fail("feature " + FeatureId.name(id) + " of " + fixture + ": " + t, t);
                    }
                }
            }
        }
        assertTrue(tally.rejected > 100, "mutations were rejected: " + tally.rejected);
        assertTrue(tally.decoded > 100, "harmless mutations decoded: " + tally.decoded);
    }

    /** Truncations, byte flips, and 0xffffffff / all-ones words at (a sample of) aligned offsets. */
    static List<byte[]> mutations(byte[] orig, int seed) {
        List<byte[]> out = new ArrayList<>();
        int n = orig.length;
        TreeSet<Integer> cuts = new TreeSet<>(List.of(0, 1, 3, 4, 7, 8, 12, 16, 24, 32, n / 3, n / 2, n - 8, n - 4, n - 1));
        for (int c : cuts) {
            if (c >= 0 && c < n) {
                out.add(java.util.Arrays.copyOf(orig, c));
            }
        }
        // every aligned u32 in the first 512 bytes, then a random sample of the rest
        Random r = new Random(seed * 31L + n);
        TreeSet<Integer> words = new TreeSet<>();
        for (int off = 0; off + 4 <= Math.min(n, 512); off += 4) {
            words.add(off);
        }
        for (int k = 0; k < 200 && n >= 4; k++) {
            words.add(r.nextInt(n / 4) * 4);
        }
        for (int off : words) {
            byte[] m = orig.clone();
            for (int i = 0; i < 4; i++) {
                m[off + i] = (byte) 0xff;
            }
            out.add(m);
            if (off + 8 <= n && off % 8 == 0) {
                byte[] m8 = orig.clone();
                for (int i = 0; i < 8; i++) {
                    m8[off + i] = (byte) 0xff;
                }
                out.add(m8);
            }
        }
        for (int k = 0; k < 200 && n > 0; k++) {
            byte[] m = orig.clone();
            int pos = r.nextInt(n);
            m[pos] ^= (byte) (1 << r.nextInt(8));
            if (k % 2 == 0) {
                m[r.nextInt(n)] = (byte) r.nextInt(256);
            }
            out.add(m);
        }
        return out;
    }

    /**
     * The printer on whole files with a corrupted feature area: it prints what it can and reports
     * undecodable features as warnings, or fails with a FormatException, never anything else.
     */
    @ParameterizedTest
    @FieldSource("NAMES")
    void printerSurvivesCorruptFeatureSections(String fixture, @TempDir Path tmp) throws Exception {
        Path src = Fixtures.recording(fixture);
        byte[] file = Files.readAllBytes(src);
        long featStart;
        try (PerfData d = PerfData.open(src)) {
            if (d.isPipe()) {
                featStart = 16;
            } else {
                featStart = d.dataSection().end();
            }
        }
        int span = (int) Math.min(file.length - featStart, d0(fixture) ? 4096 : 1 << 20);
        Random r = new Random(fixture.hashCode());
        Path f = tmp.resolve("m.data");
        int warned = 0;
        for (int k = 0; k < 60; k++) {
            byte[] m = file.clone();
            int off = (int) featStart + (r.nextInt(Math.max(1, span / 4)) * 4);
            if (off + 4 > m.length) {
                continue;
            }
            for (int i = 0; i < 4; i++) {
                m[off + i] = k % 2 == 0 ? (byte) 0xff : (byte) r.nextInt(256);
            }
            Files.write(f, m);
            try (PerfData d = PerfData.open(f)) {
                HeaderPrinter p = new HeaderPrinter(d, true, Instant.EPOCH, ZoneOffset.UTC);
                StringWriter sw = new StringWriter();
                p.print(new PrintWriter(sw));
                warned += p.warnings().isEmpty() ? 0 : 1;
                assertTrue(sw.toString().startsWith("# ========\n"));
            } catch (FormatException ex) {
                // acceptable: reported as a one-line error
            } catch (Throwable t) {
                fail(fixture + " with 4 bytes changed at 0x" + Long.toHexString(off) + ": " + t, t);
            }
        }
        assertTrue(warned > 0, "some corruptions were reported as warnings");
    }

    private static boolean d0(String fixture) {
        return fixture.equals("pipe");
    }
}
