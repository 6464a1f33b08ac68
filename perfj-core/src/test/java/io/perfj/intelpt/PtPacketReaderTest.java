package io.perfj.intelpt;

import io.perfj.io.Bytes;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A buffer larger than the reader's window reads as the same packets as its parts. */
class PtPacketReaderTest {
    @Test
    void packetsAcrossWindowsAreWhole() {
        byte[] one = PtPacketMutationTest.firstTrace();
        int copies = (3 << 20) / one.length + 1;
        byte[] many = new byte[one.length * copies];
        for (int i = 0; i < copies; i++) {
            System.arraycopy(one, 0, many, i * one.length, one.length);
        }
        long n = count(PtPacketReader.strict(Bytes.of(one, ByteOrder.LITTLE_ENDIAN, "t", "x")));
        PtPacketReader r = PtPacketReader.strict(Bytes.of(many, ByteOrder.LITTLE_ENDIAN, "t", "x"));
        // the trace ends with a TIP.PGD and seven PADs, so no PAD of one copy folds into the next
        assertEquals(n * copies, count(r));
        assertEquals(many.length, r.position());
    }

    private static long count(PtPacketReader r) {
        long n = 0;
        while (r.next() != null) {
            n++;
        }
        return n;
    }
}
