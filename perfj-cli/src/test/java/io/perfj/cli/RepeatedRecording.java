package io.perfj.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A large recording made from a small one: the data section repeated until the file is big
 * enough, the feature sections after it moved along (their offsets in the table that follows the
 * data section shifted by the added length). Every record stays a real one; timestamps start
 * over with each copy, which readers that print in file order (dump) do not mind.
 */
final class RepeatedRecording {
    /** perf_file_header: magic, size, attr_size, attrs{offset,size}, data{offset,size}, ... */
    private static final int DATA_OFFSET = 40;
    private static final int FEATURES_BITMAP = 72;

    private RepeatedRecording() {
    }

    /**
     * Writes {@code src} with its data section repeated to at least {@code minBytes} of data;
     * returns the number of copies.
     */
    static int write(Path src, Path dst, long minBytes) throws IOException {
        byte[] in = Files.readAllBytes(src);
        ByteBuffer h = ByteBuffer.wrap(in).order(ByteOrder.LITTLE_ENDIAN);
        if (h.getLong(0) != 0x32454c4946524550L) {   // "PERFILE2"
            throw new IllegalArgumentException(src + ": not a perf.data file (or not little-endian)");
        }
        long dataOff = h.getLong(DATA_OFFSET);
        long dataSize = h.getLong(DATA_OFFSET + 8);
        int copies = (int) Math.max(1, (minBytes + dataSize - 1) / dataSize);
        long added = (copies - 1) * dataSize;
        int features = 0;
        for (int i = 0; i < 4; i++) {
            features += Long.bitCount(h.getLong(FEATURES_BITMAP + 8 * i));
        }
        h.putLong(DATA_OFFSET + 8, dataSize * copies);
        int tableAt = (int) (dataOff + dataSize);
        byte[] rest = java.util.Arrays.copyOfRange(in, tableAt, in.length);
        ByteBuffer table = ByteBuffer.wrap(rest).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < features; i++) {
            table.putLong(16 * i, table.getLong(16 * i) + added);
        }
        try (OutputStream out = Files.newOutputStream(dst)) {
            out.write(in, 0, (int) dataOff);
            for (int c = 0; c < copies; c++) {
                out.write(in, (int) dataOff, (int) dataSize);
            }
            out.write(rest);
        }
        return copies;
    }
}
