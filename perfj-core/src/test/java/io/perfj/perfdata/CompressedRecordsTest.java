package io.perfj.perfdata;

import com.github.luben.zstd.EndDirective;
import com.github.luben.zstd.ZstdCompressCtx;
import io.perfj.io.FormatException;
import io.perfj.testing.CompressedFlood;
import io.perfj.testing.PerfDataBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * COMPRESSED records as perf writes them: one zstd frame for the whole recording, flushed (not
 * ended) at each record, and records split across two compressed records.
 */
class CompressedRecordsTest {
    @TempDir
    Path tmp;

    private final PerfDataBuilder b = new PerfDataBuilder(ByteOrder.LITTLE_ENDIAN);

    /** Compresses each piece with a flush, all in one frame that is never ended. */
    private static List<byte[]> flushedPieces(List<byte[]> pieces) {
        List<byte[]> out = new ArrayList<>();
        try (ZstdCompressCtx ctx = new ZstdCompressCtx()) {
            ctx.setLevel(1);
            for (byte[] p : pieces) {
                ByteBuffer src = ByteBuffer.allocateDirect(p.length).put(p).flip();
                ByteArrayOutputStream acc = new ByteArrayOutputStream();
                ByteBuffer dst = ByteBuffer.allocateDirect(1 << 20);
                boolean done;
                do {
                    dst.clear();
                    done = ctx.compressDirectByteBufferStream(dst, src, EndDirective.FLUSH);
                    dst.flip();
                    byte[] chunk = new byte[dst.remaining()];
                    dst.get(chunk);
                    acc.writeBytes(chunk);
                } while (!done || src.hasRemaining());
                out.add(acc.toByteArray());
            }
        }
        return out;
    }

    private byte[] compressed2(byte[] payload) {
        int padded = (payload.length + 7) / 8 * 8;
        ByteBuffer body = ByteBuffer.allocate(8 + padded).order(ByteOrder.LITTLE_ENDIAN);
        body.putLong(payload.length).put(payload);
        return b.recordRaw(RecordType.COMPRESSED2, 0, body.array());
    }

    private PerfData open(PerfDataBuilder builder) throws IOException {
        Path f = Files.createTempFile(tmp, "z", ".data");
        Files.write(f, builder.buildFile());
        return PerfData.open(f);
    }

    @Test
    void oneFrameAcrossRecordsWithARecordSplitBetweenThem() throws IOException {
        long st = SampleFormat.IP | SampleFormat.TIME;
        b.addAttr(b.attr(1, 0, 1, st, 0, 0), 1);
        ByteArrayOutputStream plain = new ByteArrayOutputStream();
        for (int i = 0; i < 300; i++) {
            plain.writeBytes(b.record(RecordType.SAMPLE, 1, 0x1000 + i, i));
        }
        byte[] all = plain.toByteArray();
        int cut = 24 * 100 + 5; // inside the 101st record
        List<byte[]> parts = flushedPieces(List.of(java.util.Arrays.copyOf(all, cut),
                java.util.Arrays.copyOfRange(all, cut, all.length)));
        b.add(b.recordRaw(RecordType.COMPRESSED, 0, parts.get(0)));
        b.add(b.record(RecordType.FINISHED_ROUND, 0));
        b.add(compressed2(parts.get(1)));
        try (PerfData d = open(b)) {
            RecordInput in = d.records();
            List<RawRecord> samples = new ArrayList<>();
            List<Integer> types = new ArrayList<>();
            for (RawRecord r; (r = in.next()) != null; ) {
                types.add(r.type());
                if (r.type() == RecordType.SAMPLE) {
                    samples.add(r);
                }
            }
            assertEquals(300, samples.size());
            for (int i = 0; i < 300; i++) {
                assertEquals(0x1000 + i, samples.get(i).bytes().u64(8));
                assertTrue(samples.get(i).compressed());
            }
            // The 100 whole records of the first piece come before the FINISHED_ROUND.
            assertEquals(RecordType.COMPRESSED, (int) types.get(0));
            assertEquals(RecordType.FINISHED_ROUND, (int) types.get(101));
            assertTrue(in.warnings().isEmpty(), in.warnings().toString());
        }
    }

    /**
     * Runs of FINISHED_ROUND come out of compressed records as one record each, counted: read
     * one by one they are the records of the same data stored plainly, in either byte order, with
     * a run longer than a decompression step, a run cut by the end of a compressed record, a
     * round of another misc between two runs and a record split after a run.
     */
    @Test
    void runsOfRoundsComeOutCountedAsThePlainRecords() throws IOException {
        for (ByteOrder order : List.of(ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN)) {
            PerfDataBuilder z = new PerfDataBuilder(order);
            PerfDataBuilder p = new PerfDataBuilder(order);
            long st = SampleFormat.IP | SampleFormat.TIME;
            z.addAttr(z.attr(1, 0, 1, st, 0, 1L << 18), 1);
            p.addAttr(p.attr(1, 0, 1, st, 0, 1L << 18), 1);
            byte[] round = z.record(RecordType.FINISHED_ROUND, 0);
            ByteArrayOutputStream first = new ByteArrayOutputStream();
            first.writeBytes(z.record(RecordType.SAMPLE, 1, 0x1000, 30));
            first.writeBytes(z.record(RecordType.SAMPLE, 1, 0x1001, 10));
            repeat(first, round, 3);
            first.writeBytes(z.record(RecordType.FINISHED_ROUND, 1));
            repeat(first, round, ZstdStream.STEP / 8 * 3 + 5);
            first.writeBytes(z.record(RecordType.SAMPLE, 1, 0x1002, 50));
            repeat(first, round, 2);
            byte[] split = z.record(RecordType.SAMPLE, 1, 0x1003, 40);
            first.write(split, 0, 5);
            ByteArrayOutputStream second = new ByteArrayOutputStream();
            second.write(split, 5, split.length - 5);
            repeat(second, round, 7);
            second.writeBytes(z.record(RecordType.SAMPLE, 1, 0x1004, 60));
            repeat(second, round, 1);
            for (byte[] piece : flushedPieces(List.of(first.toByteArray(), second.toByteArray()))) {
                z.add(z.recordRaw(RecordType.COMPRESSED, 0, piece));
            }
            for (byte[] whole : List.of(first.toByteArray(), second.toByteArray())) {
                p.add(whole);
            }
            for (boolean ordered : new boolean[] {false, true}) {
                List<String> plain = new ArrayList<>();
                List<String> unpacked = new ArrayList<>();
                int objects;
                try (PerfData d = open(p)) {
                    readOneByOne(ordered ? d.orderedRecords() : d.records(), plain);
                }
                try (PerfData d = open(z)) {
                    objects = readOneByOne(ordered ? d.orderedRecords() : d.records(), unpacked);
                }
                String what = order + (ordered ? ", in perf's order" : ", as stored");
                assertEquals(3 * ZstdStream.STEP / 8 + 24, plain.size(), what);
                assertEquals(plain, unpacked, what);
                assertTrue(objects < 30, what + ": " + objects + " records for " + unpacked.size());
            }
        }
    }

    private static void repeat(ByteArrayOutputStream out, byte[] record, int times) {
        for (int i = 0; i < times; i++) {
            out.writeBytes(record);
        }
    }

    /**
     * Reads {@code in} to the end into {@code out} as the records one by one would be (each
     * {@link RawRecord#count()} times: type, misc and bytes), compressed records left out.
     * Returns how many records {@code in} returned.
     */
    private static int readOneByOne(RecordInput in, List<String> out) {
        int objects = 0;
        for (RawRecord r; (r = in.next()) != null; objects++) {
            if (r.type() == RecordType.COMPRESSED) {
                continue;
            }
            String one = r.type() + "/" + r.misc() + " " + java.util.HexFormat.of().formatHex(r.bytes().bytes(0, r.size()));
            for (int i = 0; i < r.count(); i++) {
                out.add(one);
            }
        }
        assertTrue(in.warnings().isEmpty(), in.warnings().toString());
        return objects;
    }

    /**
     * A compressed record that inflates past perf's buffer in a run of rounds: the rounds read
     * before the error come out first (one record), then the error.
     */
    @Test
    void aRunOfRoundsInflatingPastPerfsBufferComesOutBeforeTheError() throws IOException {
        b.addAttr(b.attr(1, 0, 1, SampleFormat.IP, 0, 0), 1);
        long mmapLen = 3L * ZstdStream.STEP;
        CompressedFlood.add(b, b.record(RecordType.FINISHED_ROUND, 0), (8L << 20) / 8, mmapLen);
        try (PerfData d = open(b)) {
            RecordInput in = d.records();
            assertEquals(RecordType.COMPRESSED, in.next().type());
            RawRecord run = in.next();
            assertEquals(RecordType.FINISHED_ROUND, run.type());
            assertTrue(run.count() > 1 && run.count() <= mmapLen / 8, run.toString());
            FormatException e = assertThrows(FormatException.class, in::next);
            assertTrue(e.getMessage().contains("exceeds the bound of " + mmapLen + " bytes"), e.getMessage());
        }
    }

    @Test
    void inflatingPastPerfsBufferIsAFormatErrorAfterTheRecordsBeforeIt() throws IOException {
        b.addAttr(b.attr(1, 0, 1, SampleFormat.IP, 0, 0), 1);
        // perf record -m 1: one data page and the control page
        long mmapLen = 2 * 4096;
        CompressedFlood.add(b, b.record(RecordType.FINISHED_INIT, 0), (80 << 20) / 8, mmapLen);
        try (PerfData d = open(b)) {
            RecordInput in = d.records();
            assertEquals(RecordType.COMPRESSED, in.next().type());
            long before = 0;
            FormatException e = null;
            try {
                while (in.next() != null) {
                    before++;
                }
            } catch (FormatException x) {
                e = x;
            }
            assertNotNull(e, "80 MiB from one record with an 8 KiB mmap_len was accepted");
            assertTrue(e.getMessage().contains("exceeds the bound of 8192 bytes"), e.getMessage());
            assertEquals("PERF_RECORD_COMPRESSED", e.structure());
            // perf takes nothing from a record that overflows its buffer; at most a step's worth comes out
            assertTrue(before <= ZstdStream.STEP / 8, before + " records before the error");
        }
    }

    @Test
    void boundIsWhatPerfRecordCanWriteNotWhatTheFileClaims() throws IOException {
        b.addAttr(b.attr(1, 0, 1, SampleFormat.IP, 0, 0), 1);
        b.add(b.record(RecordType.FINISHED_ROUND, 0)); // features are read only after a non-empty data section
        for (long claimed : new long[] {0xffff_ffffL, 0x8000_0000L + (128 << 10), 0}) {
            b.feature(CompressedFlood.FEAT_COMPRESSED, CompressedFlood.feature(ByteOrder.LITTLE_ENDIAN, claimed));
            try (PerfData d = open(b)) {
                assertEquals(UnpackingRecordInput.PERF_MAX_MMAP_LEN, new UnpackingRecordInput(d.records(), d).bound(),
                        "mmap_len 0x" + Long.toHexString(claimed));
            }
        }
        b.feature(CompressedFlood.FEAT_COMPRESSED, CompressedFlood.feature(ByteOrder.LITTLE_ENDIAN, 528384));
        try (PerfData d = open(b)) {
            assertEquals(528384, new UnpackingRecordInput(d.records(), d).bound());
        }
    }

    @Test
    void corruptZstdIsAFormatError() throws IOException {
        b.addAttr(b.attr(1, 0, 1, SampleFormat.IP, 0, 0), 1);
        byte[] junk = new byte[64];
        junk[0] = 0x28;
        junk[1] = (byte) 0xb5;
        junk[2] = 0x2f;
        junk[3] = (byte) 0xfd;
        java.util.Arrays.fill(junk, 4, 64, (byte) 0x5a);
        b.add(b.recordRaw(RecordType.COMPRESSED, 0, junk));
        try (PerfData d = open(b)) {
            RecordInput in = d.records();
            in.next();
            FormatException e = assertThrows(FormatException.class, in::next);
            assertEquals("PERF_RECORD_COMPRESSED", e.structure());
        }
    }
}
