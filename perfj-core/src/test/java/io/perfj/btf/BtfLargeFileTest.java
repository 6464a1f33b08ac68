package io.perfj.btf;

import io.perfj.btf.cdump.BtfCDumper;
import io.perfj.btf.cdump.RawTypes;
import io.perfj.io.FormatException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Raw BTF files past 2 GiB (more than one Java array holds; reading them whole failed with
 * "Required array size too large"): they are mapped and read only as far as their header says,
 * and when they are not BTF, or their sections end past 2 GiB, the answer is a FormatException.
 * The files are sparse, so they cost no disk space.
 */
class BtfLargeFileTest {
    @TempDir
    Path tmp;

    private static final long SIZE = 3L << 30;

    /** {@code head} at the start of a sparse file of {@link #SIZE} bytes. */
    private Path sparse(String name, byte[] head) throws IOException {
        Path f = tmp.resolve(name);
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            raf.write(head);
            raf.setLength(SIZE);
        }
        return f;
    }

    @Test
    void btfFollowedByGigabytesOfZerosIsReadAsFarAsItsHeaderSays() throws IOException {
        byte[] good = BtfWriter.write(BtfSamples.allKindsBtf(ByteOrder.LITTLE_ENDIAN));
        Path f = sparse("trailing.btf", good);
        Btf btf = BtfFiles.load(f, null);
        assertEquals(Btf.parse(good, "good").typeCount(), btf.typeCount());
        ByteArrayOutputStream c = new ByteArrayOutputStream();
        BtfCDumper.dumpFile(f, null, c);
        ByteArrayOutputStream want = new ByteArrayOutputStream();
        BtfCDumper.dump(RawTypes.parse(good, null, "good"), want);
        assertEquals(want.toString(), c.toString());
    }

    @Test
    void notBtfIsAFormatError() throws IOException {
        Path f = sparse("zeros.btf", new byte[] {1, 2, 3, 4});
        FormatException e = assertThrows(FormatException.class, () -> BtfFiles.loadAll(f, null));
        assertTrue(e.getMessage().contains("bad magic"), e.getMessage());
        assertEquals(0, e.offset());
        assertThrows(FormatException.class, () -> BtfCDumper.dumpFile(f, null, new ByteArrayOutputStream()));
    }

    @Test
    void sectionsEndingPast2GiBAreAFormatError() throws IOException {
        ByteBuffer h = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
        h.putShort((short) io.perfj.btf.wire.Header.MAGIC).put((byte) 1).put((byte) 0).putInt(24);
        h.putInt(0).putInt(16).putInt(16).putInt((int) (SIZE - 1024)); // strings run to nearly 3 GiB
        Path f = sparse("huge.btf", h.array());
        FormatException e = assertThrows(FormatException.class, () -> BtfFiles.load(f, null));
        assertTrue(e.getMessage().contains("past the 2 GiB"), e.getMessage());
        assertThrows(FormatException.class, () -> BtfCDumper.dumpFile(f, null, new ByteArrayOutputStream()));
    }
}
