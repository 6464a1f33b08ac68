package io.perfj.perfdata;

import io.airlift.compress.v3.zstd.ZstdIncrementalFrameDecompressor;

import java.util.Arrays;

/**
 * One zstd stream fed in pieces. perf compresses its ring-buffer reads with flushes but without
 * ending the frame, so a frame continues from one COMPRESSED record to the next; this keeps the
 * decoder state and any unconsumed input between records (what {@code ZSTD_decompressStream}
 * does for perf).
 */
final class ZstdStream {
    @SuppressWarnings("removal")
    private static final int BASE = sun.misc.Unsafe.ARRAY_BYTE_BASE_OFFSET;

    /** Thrown when a piece inflates past the bound. */
    static final class TooLarge extends RuntimeException {
        private static final long serialVersionUID = 1L;

        TooLarge(String m) {
            super(m, null, false, false);
        }
    }

    private ZstdIncrementalFrameDecompressor dec = new ZstdIncrementalFrameDecompressor();
    private byte[] in = new byte[0];
    private int inOff;
    private int inLimit;

    /**
     * Feeds {@code piece} and returns everything it decompresses to, at most {@code bound} bytes.
     * Input the decoder cannot use yet stays for the next piece.
     */
    byte[] feed(byte[] piece, int bound) {
        int left = inLimit - inOff;
        byte[] buf = new byte[left + piece.length];
        System.arraycopy(in, inOff, buf, 0, left);
        System.arraycopy(piece, 0, buf, left, piece.length);
        in = buf;
        inOff = 0;
        inLimit = buf.length;

        byte[] out = new byte[Math.min(bound, Math.max(4096, piece.length * 8))];
        int outPos = 0;
        int stalls = 0;
        while (true) {
            int required = dec.getInputRequired();
            if (inLimit - inOff < required) {
                break;
            }
            if (dec.isAtStoppingPoint() && inOff == inLimit) {
                break;
            }
            if (outPos == out.length) {
                if (out.length >= bound) {
                    throw new TooLarge("decompressed data exceeds the bound of " + bound + " bytes");
                }
                out = Arrays.copyOf(out, (int) Math.min(bound, out.length * 2L));
            }
            dec.partialDecompress(in, BASE + inOff, BASE + inLimit, out, outPos, out.length);
            int consumed = dec.getInputConsumed();
            int produced = dec.getOutputBufferUsed();
            inOff += consumed;
            outPos += produced;
            if (consumed == 0 && produced == 0) {
                if (dec.getRequestedOutputSize() > 0 && outPos == out.length) {
                    continue;
                }
                if (++stalls > 4) {
                    break;
                }
            } else {
                stalls = 0;
            }
        }
        return outPos == out.length ? out : Arrays.copyOf(out, outPos);
    }
}
