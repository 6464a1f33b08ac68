package io.perfj.cli;

import com.github.luben.zstd.ZstdCompressCtx;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A perf.data file whose one COMPRESSED record inflates to 16 MiB of 8-byte records, with
 * HEADER_COMPRESSED's mmap_len set by the caller (perf decompresses a record into a buffer of that
 * size).
 */
final class ZstdBomb {
    private ZstdBomb() {
    }

    static Path write(Path dir, long mmapLen) throws IOException {
        ByteBuffer plain = ByteBuffer.allocate(16 << 20).order(ByteOrder.LITTLE_ENDIAN);
        while (plain.hasRemaining()) {
            plain.putInt(82).putShort((short) 0).putShort((short) 8); // FINISHED_INIT
        }
        byte[] packed;
        try (ZstdCompressCtx ctx = new ZstdCompressCtx()) {
            packed = ctx.compress(plain.array());
        }
        int rec = 8 + packed.length;
        if (rec > 0xffff) {
            throw new IllegalStateException("bomb of " + rec + " bytes does not fit a record");
        }
        long dataOff = 104 + 144 + 8;
        long featOff = dataOff + rec + 16;
        ByteBuffer f = ByteBuffer.allocate((int) (featOff + 20)).order(ByteOrder.LITTLE_ENDIAN);
        f.putLong(0x32454c4946524550L).putLong(104).putLong(144);
        f.putLong(104).putLong(144).putLong(dataOff).putLong(rec).putLong(0).putLong(0);
        f.putLong(1L << 27).putLong(0).putLong(0).putLong(0);          // HEADER_COMPRESSED
        f.putInt(1).putInt(128).putLong(0).putLong(1).putLong(1);       // attr: sample_type IP
        f.position(104 + 128).putLong(104 + 144).putLong(8);            // one id
        f.putLong(1);
        f.putInt(81).putShort((short) 0).putShort((short) rec).put(packed);
        f.putLong(featOff).putLong(20);
        f.putInt(0).putInt(1).putInt(1).putInt(0).putInt((int) mmapLen);
        Path p = dir.resolve("bomb-" + mmapLen + ".data");
        Files.write(p, f.array());
        return p;
    }
}
