package io.perfj.btf.cdump;

import io.perfj.btf.wire.Header;
import io.perfj.io.FormatException;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Damaged BTF given to the C dumper (truncated, bytes flipped, absurd sizes and counts, type
 * loops) fails only with a FormatException, never with another exception or a hang.
 */
class BtfCDumpMutationTest {
    private static final String[] SAMPLES = {"funcs.bpf.o", "bitfields.host.btf", "enums.host.btf", "unions.bpf.o"};

    static byte[] sample(String name) {
        return RawTypes.blob(Fixtures.file("btf-c/obj").resolve(name));
    }

    /** Dumps; returns whether it succeeded. */
    static boolean dumpOrFormatError(byte[] data) {
        try {
            TypeTable t = RawTypes.parse(data, null, "mutant");
            BtfCDumper.dump(t, new ByteArrayOutputStream());
            return true;
        } catch (FormatException e) {
            return false;
        } catch (Exception | StackOverflowError e) {
            fail("not a FormatException: " + e, e);
            return false;
        }
    }

    @Test
    void truncations() {
        for (String s : SAMPLES) {
            byte[] good = sample(s);
            assertTrue(dumpOrFormatError(good));
            for (int n = 0; n < good.length; n++) {
                dumpOrFormatError(Arrays.copyOf(good, n));
            }
        }
    }

    @Test
    void byteFlips() {
        Random r = new Random(7);
        for (String s : SAMPLES) {
            byte[] good = sample(s);
            int[] values = {0, 0xff, 0x80, 1};
            for (int i = 0; i < good.length; i++) {
                byte[] m = good.clone();
                m[i] = (byte) values[r.nextInt(values.length)];
                dumpOrFormatError(m);
                m = good.clone();
                m[i] ^= (byte) (1 << r.nextInt(8));
                dumpOrFormatError(m);
            }
        }
    }

    /** Every 32-bit word of the type section set to values that make sizes, counts and ids absurd. */
    @Test
    void absurdWords() {
        for (String s : SAMPLES) {
            byte[] good = sample(s);
            ByteBuffer b = ByteBuffer.wrap(good).order(ByteOrder.LITTLE_ENDIAN);
            int hdr = b.getInt(4);
            int typeOff = hdr + b.getInt(8);
            int typeEnd = typeOff + b.getInt(12);
            for (int p = typeOff; p + 4 <= typeEnd; p += 4) {
                for (int v : new int[] {0, 1, -1, 0x7fffffff, 0x0400ffff, 0x02000000, 3, 0x80000000}) {
                    byte[] m = good.clone();
                    ByteBuffer.wrap(m).order(ByteOrder.LITTLE_ENDIAN).putInt(p, v);
                    dumpOrFormatError(m);
                }
            }
        }
    }

    /** Pointer and typedef loops, which libbpf would follow forever, are format errors. */
    @Test
    void referenceLoops() {
        // [1] PTR -> [2] CONST -> [1]
        assertLoopRejected(new int[] {0, 0x02000000, 2, 0, 0x0a000000, 1});
        // [1] TYPEDEF "a" -> [1]
        assertLoopRejected(new int[] {1, 0x08000000, 1});
        // [1] FUNC_PROTO returning int, param [2]; [2] PTR -> [1]... fine; [3] ARRAY of [3]
        assertLoopRejected(new int[] {0, 0x03000000, 0, 1, 1, 4});
    }

    /** A little-endian blob of {@code words} as types and the strings "" and "a". */
    private static byte[] blob(int[] words) {
        byte[] strings = {0, 'a', 0};
        ByteBuffer b = Header.allocate(words.length * 4L, strings.length, ByteOrder.LITTLE_ENDIAN);
        for (int w : words) {
            b.putInt(w);
        }
        return b.put(strings).array();
    }

    private static void assertLoopRejected(int[] words) {
        assertTrue(!dumpOrFormatError(blob(words)), "loop accepted");
    }

    /** An anonymous struct that contains a pointer to itself: libbpf's unsatisfiable cycle. */
    @Test
    void anonymousStructThroughPointerIsACycle() {
        // [1] STRUCT (anon) size 8, member "a" type [2] at 0; [2] PTR -> [1]
        int[] words = {0, 0x04000001, 8, 1, 2, 0, 0, 0x02000000, 1};
        try {
            BtfCDumper.dump(RawTypes.parse(blob(words), null, "cycle"), new ByteArrayOutputStream());
            fail("cycle accepted");
        } catch (FormatException e) {
            assertTrue(e.getMessage().contains("unsatisfiable type cycle"), e.getMessage());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

}
