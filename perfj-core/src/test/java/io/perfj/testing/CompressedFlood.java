package io.perfj.testing;

import com.github.luben.zstd.EndDirective;
import com.github.luben.zstd.ZstdCompressCtx;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Adds to a {@link PerfDataBuilder} the records of a zstd-compressed recording (perf record -z)
 * whose COMPRESSED records inflate to a great many copies of a few small records: one zstd frame,
 * flushed at the end of each record as perf does, each record's payload under 64 KiB. Repetitive
 * input compresses several thousand to one, so a file of a few hundred kilobytes holds gigabytes
 * of records; nothing of that size is ever held in memory here.
 */
public final class CompressedFlood {
    /** perf's COMPRESSED record type. */
    public static final int COMPRESSED = 81;
    /** perf's HEADER_COMPRESSED feature bit. */
    public static final int FEAT_COMPRESSED = 27;
    private static final int MAX_PAYLOAD = 56 << 10;

    private CompressedFlood() {
    }

    /** The HEADER_COMPRESSED payload perf writes: version, type (zstd), level, ratio, mmap_len. */
    public static byte[] feature(ByteOrder order, long mmapLen) {
        return ByteBuffer.allocate(20).order(order).putInt(0).putInt(1).putInt(1).putInt(0)
                .putInt((int) mmapLen).array();
    }

    /**
     * Adds COMPRESSED records holding {@code copies} copies of {@code pattern} (whole records), and
     * the feature with {@code mmapLen}. Returns how many compressed records were added.
     */
    public static int add(PerfDataBuilder b, byte[] pattern, long copies, long mmapLen) {
        b.feature(FEAT_COMPRESSED, feature(b.order(), mmapLen));
        int perSlice = Math.max(1, (1 << 20) / pattern.length);
        ByteBuffer slice = ByteBuffer.allocateDirect(perSlice * pattern.length);
        for (int i = 0; i < perSlice; i++) {
            slice.put(pattern);
        }
        ByteBuffer dst = ByteBuffer.allocateDirect(1 << 20);
        byte[] chunk = new byte[1 << 20];
        ByteArrayOutputStream payload = new ByteArrayOutputStream();
        int records = 0;
        try (ZstdCompressCtx ctx = new ZstdCompressCtx()) {
            ctx.setLevel(3);
            for (long left = copies; left > 0; ) {
                int n = (int) Math.min(left, perSlice);
                left -= n;
                slice.clear().limit(n * pattern.length);
                boolean done;
                do {
                    dst.clear();
                    done = ctx.compressDirectByteBufferStream(dst, slice, EndDirective.FLUSH);
                    dst.flip();
                    int k = dst.remaining();
                    dst.get(chunk, 0, k);
                    payload.write(chunk, 0, k);
                } while (!done || slice.hasRemaining());
                if (payload.size() > MAX_PAYLOAD) {
                    throw new IllegalArgumentException("pattern does not compress well enough: "
                            + payload.size() + " bytes for one record");
                }
                if (payload.size() > MAX_PAYLOAD - 4096 || left == 0) {
                    b.add(b.recordRaw(COMPRESSED, 0, payload.toByteArray()));
                    payload.reset();
                    records++;
                }
            }
        }
        return records;
    }
}
