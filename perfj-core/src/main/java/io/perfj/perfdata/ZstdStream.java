package io.perfj.perfdata;

import com.github.luben.zstd.ZstdDecompressCtx;

import java.nio.ByteBuffer;

/**
 * One zstd stream fed in pieces. perf compresses each ring-buffer read with a flush but without
 * ending the frame, so one frame runs through all COMPRESSED records of a recording and every
 * record's output must be available as soon as that record is fed (what
 * {@code ZSTD_decompressStream} gives perf). This keeps one streaming context for the stream.
 *
 * <p>Uses libzstd through zstd-jni: the pure-Java decoders available hold back a window's worth
 * of output until the frame ends, which perf's frames never do.
 */
final class ZstdStream implements AutoCloseable {
    /** Thrown when a piece inflates past the bound. */
    static final class TooLarge extends RuntimeException {
        private static final long serialVersionUID = 1L;

        TooLarge(String m) {
            super(m, null, false, false);
        }
    }

    private final ZstdDecompressCtx ctx = new ZstdDecompressCtx();
    private ByteBuffer src = ByteBuffer.allocateDirect(64 << 10);
    private ByteBuffer dst = ByteBuffer.allocateDirect(256 << 10);

    /** Feeds {@code piece}; returns all it decompresses to, at most {@code bound} bytes. */
    byte[] feed(byte[] piece, int bound) {
        if (src.capacity() < piece.length) {
            src = ByteBuffer.allocateDirect(Math.max(piece.length, src.capacity() * 2));
        }
        src.clear();
        src.put(piece).flip();
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(Math.min(bound, piece.length * 8 + 64));
        byte[] chunk = new byte[64 << 10];
        int total = 0;
        while (true) {
            dst.clear();
            ctx.decompressDirectByteBufferStream(dst, src);
            dst.flip();
            int n = dst.remaining();
            total += n;
            if (total > bound) {
                throw new TooLarge("decompressed data exceeds the bound of " + bound + " bytes");
            }
            while (dst.hasRemaining()) {
                int k = Math.min(chunk.length, dst.remaining());
                dst.get(chunk, 0, k);
                out.write(chunk, 0, k);
            }
            if (!src.hasRemaining() && n < dst.capacity()) {
                break;
            }
            if (n == 0 && !src.hasRemaining()) {
                break;
            }
        }
        return out.toByteArray();
    }

    @Override
    public void close() {
        ctx.close();
    }
}
