package io.perfj.perfdata;

import com.github.luben.zstd.ZstdDecompressCtx;
import io.perfj.io.Bytes;

import java.nio.ByteBuffer;

/**
 * One zstd stream fed in pieces and read out in bounded steps. perf compresses each ring-buffer
 * read with a flush but without ending the frame, so one frame runs through all COMPRESSED
 * records of a recording and every record's output must be available as soon as that record is
 * fed (what {@code ZSTD_decompressStream} gives perf). This keeps one streaming context for the
 * stream; a piece's output is handed out {@link #STEP} bytes at a time, so memory does not depend
 * on how far a piece inflates.
 *
 * <p>Uses libzstd through zstd-jni: the pure-Java decoders available hold back a window's worth
 * of output until the frame ends, which perf's frames never do.
 */
final class ZstdStream implements AutoCloseable {
    /** Most bytes one {@link #read} hands out. */
    static final int STEP = 256 << 10;

    private final ZstdDecompressCtx ctx;
    private ByteBuffer src = ByteBuffer.allocateDirect(64 << 10).flip();
    private final ByteBuffer dst = ByteBuffer.allocateDirect(STEP).flip();
    /** Whether the current piece has given all it decompresses to. */
    private boolean drained = true;

    private ZstdStream(ZstdDecompressCtx ctx) {
        this.ctx = ctx;
    }

    /**
     * A stream for the compressed records of {@code file}.
     *
     * @throws io.perfj.io.MissingLibraryException when zstd-jni is not on the class path or its
     *         native library does not load (an optional dependency for an embedder)
     */
    static ZstdStream open(String file) {
        try {
            return new ZstdStream(new ZstdDecompressCtx());
        } catch (LinkageError e) {
            // NoClassDefFoundError without the jar, UnsatisfiedLinkError or
            // ExceptionInInitializerError when its native part does not load
            throw new io.perfj.io.MissingLibraryException(file, "zstd-compressed records",
                    io.perfj.io.MissingLibraryException.ZSTD_JNI, e);
        }
    }

    /** Starts the next piece (the payload of one compressed record). */
    void feed(Bytes piece) {
        int n = (int) piece.size();
        if (src.capacity() < n) {
            src = ByteBuffer.allocateDirect(Math.max(n, src.capacity() * 2));
        }
        src.clear();
        src.put(piece.segment().asByteBuffer());
        src.flip();
        dst.clear().flip();
        drained = false;
    }

    /**
     * Decompresses more of the current piece into {@code out[off, off + len)}; returns how many
     * bytes were written, 0 once the piece has given everything it holds.
     */
    int read(byte[] out, int off, int len) {
        while (!dst.hasRemaining()) {
            if (drained) {
                return 0;
            }
            int before = src.position();
            dst.clear();
            ctx.decompressDirectByteBufferStream(dst, src);
            dst.flip();
            // Output short of a full buffer means the decoder flushed everything this input allows.
            if (dst.remaining() < dst.capacity() && !src.hasRemaining()) {
                drained = true;
            } else if (!dst.hasRemaining() && src.position() == before) {
                drained = true; // no progress either way: nothing more will come out
            }
        }
        int n = Math.min(len, dst.remaining());
        dst.get(out, off, n);
        return n;
    }

    @Override
    public void close() {
        ctx.close();
    }
}
