package io.perfj.btf;

import io.perfj.btf.dump.BtfRawDumper;
import io.perfj.btf.wire.Kinds;
import io.perfj.io.FormatException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link BtfRawDumper#dumpFile}: the raw text straight from a file's words, on one thread or
 * two, equal to bpftool's; a damaged record anywhere is refused as {@link Btf#parse} refuses it,
 * and nothing is written before the whole BTF is checked.
 */
class BtfRawDumpFileTest {
    private static final String THREADS = "perfj.btf.threads";

    /** {@code f} with the dumper's thread count set to {@code threads}. */
    private static <T> T withThreads(int threads, Supplier<T> f) {
        String old = System.getProperty(THREADS);
        System.setProperty(THREADS, Integer.toString(threads));
        try {
            return f.get();
        } finally {
            if (old == null) {
                System.clearProperty(THREADS);
            } else {
                System.setProperty(THREADS, old);
            }
        }
    }

    private static byte[] dumpFile(Path file, Path base, int threads) {
        return withThreads(threads, () -> {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            BtfRawDumper.dumpFile(file, base, out);
            return out.toByteArray();
        });
    }

    private static Path vmlinux(Path tmp) throws IOException {
        return Files.write(tmp.resolve("vmlinux.btf"), BtfSamples.vmlinux());
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void vmlinuxIsBpftoolsOnOneOrTwoThreads(int threads, @TempDir Path tmp) throws IOException {
        byte[] want = BtfDumpGoldenTest.read(BtfDumpGoldenTest.btfDir().resolve("vmlinux.raw.txt.xz"));
        BtfDumpGoldenTest.assertSameText(want, dumpFile(vmlinux(tmp), null, threads), "vmlinux raw");
    }

    @Test
    void splitOnABaseFile(@TempDir Path tmp) throws IOException {
        Path base = Files.write(tmp.resolve("base.btf"),
                BtfSamples.gunzip(BtfDumpGoldenTest.btfDir().resolve("split").resolve("debian-6.1-base.btf.gz")));
        Path mod = BtfDumpGoldenTest.btfDir().resolve("split").resolve("xt_string.btf");
        byte[] want = BtfDumpGoldenTest.read(BtfDumpGoldenTest.btfDir().resolve("golden").resolve("xt_string.raw.txt"));
        assertArrayEquals(want, dumpFile(mod, base, 1));
    }

    /** A type id past the last one in the record of {@code id}'s size/type word. */
    private static byte[] damaged(byte[] blob, int id) {
        ByteBuffer b = ByteBuffer.wrap(blob.clone()).order(ByteOrder.LITTLE_ENDIAN);
        int hdrLen = b.getInt(4);
        int at = hdrLen + b.getInt(8);
        for (int i = 1; i < id; i++) {
            at += 4 * Kinds.words(b.getInt(at + 4));
        }
        int kind = Kinds.kind(b.getInt(at + 4));
        assertTrue(Kinds.sizeIsType(kind), "type [" + id + "] is " + Kinds.name(kind));
        b.putInt(at + 8, 0x7fff_fff0);
        return b.array();
    }

    /** The first id from {@code from} whose size/type word is a type id. */
    private static int referring(Btf btf, int from) {
        for (int id = from; ; id++) {
            if (Kinds.sizeIsType(btf.type(id).kind().value())) {
                return id;
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void damageInEitherHalfIsRefusedBeforeAnyOutput(int threads, @TempDir Path tmp) throws IOException {
        byte[] good = BtfSamples.vmlinux();
        Btf btf = Btf.parse(good, "vmlinux");
        int n = btf.typeCount();
        for (int id : new int[] {referring(btf, 10), referring(btf, n * 3 / 4)}) {
            byte[] bad = damaged(good, id);
            Path file = Files.write(tmp.resolve("bad-" + id + ".btf"), bad);
            FormatException model = assertThrows(FormatException.class, () -> Btf.parse(bad, file.toString()));
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            FormatException e = withThreads(threads,
                    () -> assertThrows(FormatException.class, () -> BtfRawDumper.dumpFile(file, null, out)));
            assertEquals(model.getMessage(), e.getMessage());
            assertTrue(e.getMessage().contains("type id 2147483632 is out of range"), e.getMessage());
            assertEquals(0, out.size(), "bytes written before the error");
        }
    }
}
