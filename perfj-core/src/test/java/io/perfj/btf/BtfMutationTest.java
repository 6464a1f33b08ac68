package io.perfj.btf;

import io.perfj.io.FormatException;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.fail;

/** Damaged BTF may only ever fail with a FormatException, and resolving its types too. */
class BtfMutationTest {

    private static void parseAndUse(byte[] data) {
        try {
            Btf btf = Btf.parse(data, "mutant");
            for (int id = 0; id < btf.typeCount(); id++) {
                BtfType t = btf.type(id);
                btf.string(t.nameOff());
                try {
                    btf.resolveSize(id);
                } catch (FormatException e) {
                    // unsized or looping types are allowed to fail this way
                }
                btf.skipModsAndTypedefs(id);
            }
            BtfWriter.write(btf);
        } catch (FormatException e) {
            // the only allowed failure
        } catch (RuntimeException e) {
            fail("not a FormatException: " + e, e);
        }
    }

    @Test
    void truncations() {
        byte[] good = BtfWriter.write(BtfSamples.allKindsBtf(ByteOrder.LITTLE_ENDIAN));
        for (int n = 0; n < good.length; n++) {
            parseAndUse(Arrays.copyOf(good, n));
        }
    }

    @Test
    void byteFlips() {
        for (ByteOrder o : new ByteOrder[] {ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN}) {
            byte[] good = BtfWriter.write(BtfSamples.allKindsBtf(o));
            Random r = new Random(42);
            for (int i = 0; i < good.length; i++) {
                for (int v : new int[] {0, 0xff, 0x80, 0x7f, 1}) {
                    byte[] m = good.clone();
                    m[i] = (byte) v;
                    parseAndUse(m);
                }
                byte[] m = good.clone();
                m[i] ^= (byte) (1 << r.nextInt(8));
                parseAndUse(m);
            }
        }
    }

    @Test
    void absurdHeaderAndRecordFields() {
        byte[] good = BtfWriter.write(BtfSamples.allKindsBtf(ByteOrder.LITTLE_ENDIAN));
        int[] values = {-1, 0x7fffffff, 0x80000000, 0x10000, 0xffff, 3, 25};
        for (int at = 4; at + 4 <= good.length; at += 4) {
            for (int v : values) {
                byte[] m = good.clone();
                ByteBuffer.wrap(m).order(ByteOrder.LITTLE_ENDIAN).putInt(at, v);
                parseAndUse(m);
            }
        }
    }

    @Test
    void vmlinuxPrefixAndFlips() {
        byte[] raw = BtfSamples.vmlinux();
        Random r = new Random(7);
        for (int i = 0; i < 12; i++) {
            byte[] m = raw.clone();
            int at = r.nextInt(Math.min(m.length, 400_000));
            m[at] = (byte) r.nextInt(256);
            try {
                Btf.parse(m, "vmlinux");
            } catch (FormatException e) {
                // allowed
            }
        }
        try {
            Btf.parse(Arrays.copyOf(raw, raw.length / 2), "half");
            fail("half a vmlinux parsed");
        } catch (FormatException e) {
            // expected
        }
    }
}
