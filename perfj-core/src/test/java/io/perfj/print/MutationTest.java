package io.perfj.print;

import io.perfj.io.Bytes;
import io.perfj.io.FormatException;
import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.RawRecord;
import io.perfj.perfdata.RecordInput;
import io.perfj.perfdata.record.RecordDecoder;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Damaged records must fail with {@link FormatException} only: never an IndexOutOfBounds,
 * NegativeArraySize, OutOfMemory or any other exception. Every fixture's records (up to 25 per
 * type) are truncated at every 8-byte boundary and at odd sizes, have every u64 word (and, for
 * small records, every u16/u32) replaced by huge or negative counts, and get random byte flips;
 * each result is decoded and printed. Whole damaged recordings through every command:
 * {@code io.perfj.session.PerfDataMutationTest}.
 */
class MutationTest {
    static final long[] WORDS = {-1L, 0x7fff_ffffL, 0xffff_ffffL, 1L << 40, 0x1_0000L, Long.MIN_VALUE};

    static List<String> recordings() {
        return Fixtures.RECORDINGS;
    }

    @ParameterizedTest
    @MethodSource("recordings")
    void damagedRecordsFailOnlyWithFormatException(String name) {
        Path file = Fixtures.recording(name);
        try (PerfData d = PerfData.open(file)) {
            List<RawRecord> picked = new ArrayList<>();
            Map<Integer, Integer> perType = new HashMap<>();
            RecordInput in = d.records();
            for (RawRecord r = in.next(); r != null; r = in.next()) {
                if (perType.merge(r.type(), 1, Integer::sum) <= 25) {
                    picked.add(r);
                }
            }
            DumpPrinter printer = new DumpPrinter(d, name, OutputStream.nullOutputStream());
            Random rnd = new Random(name.hashCode());
            int tried = 0;
            for (RawRecord r : picked) {
                byte[] orig = r.bytes().bytes(0, r.size());
                for (int len = 0; len < orig.length; len += (len < 64 ? 1 : 8)) {
                    tried += attempt(d, printer, r, java.util.Arrays.copyOf(orig, len), "truncated to " + len);
                }
                for (int off = 8; off + 8 <= orig.length && off < 8 * 96; off += 8) {
                    for (long w : WORDS) {
                        byte[] m = orig.clone();
                        Bytes.of(m, d.header().order(), "m", "m").segment()
                                .set(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED.withOrder(d.header().order()), off, w);
                        tried += attempt(d, printer, r, m, "u64 at +" + off + " = " + w);
                    }
                }
                if (orig.length <= 256) {
                    for (int off = 8; off + 2 <= orig.length; off += 2) {
                        byte[] m = orig.clone();
                        m[off] = (byte) 0xff;
                        m[off + 1] = (byte) 0xff;
                        tried += attempt(d, printer, r, m, "u16 at +" + off + " = 0xffff");
                        if (off + 4 <= orig.length) {
                            byte[] m2 = m.clone();
                            m2[off + 2] = (byte) 0x7f;
                            m2[off + 3] = (byte) 0xff;
                            tried += attempt(d, printer, r, m2, "u32 at +" + off + " large");
                        }
                    }
                }
                for (int k = 0; k < 16 && orig.length > 8; k++) {
                    byte[] m = orig.clone();
                    for (int f = 0; f < 1 + rnd.nextInt(4); f++) {
                        m[8 + rnd.nextInt(m.length - 8)] ^= (byte) (1 + rnd.nextInt(255));
                    }
                    tried += attempt(d, printer, r, m, "random flips");
                }
                // a size larger than the data: the record runs on into garbage
                byte[] longer = java.util.Arrays.copyOf(orig, orig.length + 40);
                for (int i = orig.length; i < longer.length; i++) {
                    longer[i] = (byte) 0xff;
                }
                tried += attempt(d, printer, r, longer, "extended with 0xff");
            }
            assertTrue(tried > 100, "only " + tried + " mutations tried");
        }
    }

    private static int attempt(PerfData d, DumpPrinter printer, RawRecord r, byte[] bytes, String what) {
        RawRecord m = new RawRecord(r.offset(), r.type(), r.misc(),
                Bytes.of(bytes, d.header().order(), d.name(), "PERF_RECORD"), r.compressed());
        try {
            RecordDecoder.decode(m, d.evlist());
            printer.printRecord(m);
        } catch (FormatException expected) {
            // fine
        } catch (Throwable t) {
            fail(d.name() + ": " + r + " " + what + ": " + t, t);
        }
        return 1;
    }
}
