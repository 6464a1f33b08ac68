package io.perfj.intelpt;

import io.perfj.io.Bytes;
import io.perfj.io.FormatException;
import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.RawRecord;
import io.perfj.perfdata.RecordInput;
import io.perfj.perfdata.RecordType;
import io.perfj.testing.Fixtures;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Damaged Intel PT trace (the first trace buffer of the corpus's q-intel_pt-4.14 recording with
 * bytes changed and cut) and arbitrary bytes: a strict reader gives packets or one
 * {@link FormatException} at an offset inside the buffer, never another exception; a lenient
 * reader always reaches the end, every step at least one byte, the steps adding up to the buffer.
 */
class PtPacketMutationTest {
    private static final byte[] TRACE = firstTrace();

    static byte[] firstTrace() {
        try (PerfData d = PerfData.open(Fixtures.file("corpus/q-intel_pt-4.14.data"))) {
            RecordInput in = d.records();
            for (RawRecord r = in.next(); r != null; r = in.next()) {
                if (r.type() == RecordType.AUXTRACE) {
                    long size = r.bytes().u64(8);
                    return d.fileBytes().bytes(r.offset() + r.size(), size);
                }
            }
        }
        throw new AssertionError("q-intel_pt-4.14.data has no AUXTRACE record");
    }

    @Property(tries = 400)
    void damagedTraceDecodesOrFailsTyped(@ForAll long seed, @ForAll @IntRange(min = 1, max = 24) int flips) {
        Random r = new Random(seed);
        byte[] b = TRACE.clone();
        for (int i = 0; i < flips; i++) {
            b[r.nextInt(b.length)] = (byte) r.nextInt(256);
        }
        if (r.nextBoolean()) {
            b = Arrays.copyOf(b, r.nextInt(b.length));
        }
        check(b);
    }

    @Property(tries = 1000)
    void anyBytesDecodeOrFailTyped(@ForAll @Size(max = 300) byte[] b) {
        check(b);
    }

    @Property(tries = 300)
    void packetHeadersInAnyOrder(@ForAll long seed) {
        // bytes drawn from the packets' first bytes and 0x02's second bytes, where the decoder branches
        int[] alphabet = {0x00, 0x02, 0x06, 0x0d, 0x11, 0x01, 0x1d, 0x19, 0x59, 0x99, 0x03, 0x07, 0x0c, 0x14, 0x82,
            0xa3, 0x43, 0x83, 0xc8, 0xf3, 0x23, 0x73, 0xc3, 0x88, 0x12, 0xb2, 0x62, 0xe2, 0xc2, 0x22, 0xa2, 0x63,
            0x33, 0xb3, 0x13, 0x53, 0xcd, 0xff};
        Random r = new Random(seed);
        byte[] b = new byte[r.nextInt(200)];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) alphabet[r.nextInt(alphabet.length)];
        }
        check(b);
    }

    private static void check(byte[] b) {
        Bytes file = Bytes.of(b, ByteOrder.LITTLE_ENDIAN, "t.data", "file");
        long base = 0x100;
        Bytes withBase = Bytes.of(concat(new byte[(int) base], b), ByteOrder.LITTLE_ENDIAN, "t.data", "file")
                .slice(base, b.length);
        try {
            PtPacketReader s = PtPacketReader.strict(withBase);
            long steps = 0;
            while (s.next() != null) {
                steps++;
            }
            assertTrue(steps <= b.length);
            assertEquals(b.length, s.position());
        } catch (FormatException e) {
            assertEquals(PtPacketReader.STRUCTURE, e.structure());
            assertTrue(e.offset() >= base && e.offset() < base + b.length, e.getMessage());
        }
        PtPacketReader lenient = PtPacketReader.lenient(file);
        long total = 0;
        for (PtPacket p = lenient.next(); p != null; p = lenient.next()) {
            assertTrue(p.length() >= 1 && p.length() <= 16, p.toString());
            total += p.length();
            assertTrue(!p.toString().isEmpty());
        }
        assertEquals(b.length, total);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] c = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }
}
