package io.perfj.btf.layout;

import io.perfj.btf.Btf;
import io.perfj.btf.BtfSamples;
import io.perfj.btf.BtfType;
import io.perfj.btf.BtfWriter;
import io.perfj.io.FormatException;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** Damaged BTF: laying out any of its structs fails with a FormatException or not at all. */
class BtfLayoutMutationTest {

    private static int layoutAll(byte[] data) {
        int printed = 0;
        try {
            Btf btf = Btf.parse(data, "mutant");
            for (int id = 1; id < btf.typeCount(); id++) {
                if (btf.type(id) instanceof BtfType.Composite) {
                    try {
                        BtfLayout.layout(btf, id);
                        printed++;
                    } catch (FormatException e) {
                        // allowed
                    }
                }
            }
        } catch (FormatException e) {
            // the only allowed failure
        } catch (RuntimeException | StackOverflowError e) {
            fail("not a FormatException: " + e, e);
        }
        return printed;
    }

    @Test
    void intactSampleLaysOut() {
        assertTrue(layoutAll(BtfWriter.write(BtfSamples.allKindsBtf(ByteOrder.LITTLE_ENDIAN))) > 0);
    }

    @Test
    void byteFlips() {
        byte[] good = BtfWriter.write(BtfSamples.allKindsBtf(ByteOrder.LITTLE_ENDIAN));
        Random r = new Random(7);
        for (int i = 0; i < good.length; i++) {
            for (int v : new int[] {0, 0xff, 0x80, 1, 2, 3}) {
                byte[] m = good.clone();
                m[i] = (byte) v;
                layoutAll(m);
            }
            byte[] m = good.clone();
            m[i] ^= (byte) (1 << r.nextInt(8));
            layoutAll(m);
        }
    }
}
