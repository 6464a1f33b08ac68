package io.perfj.perfdata;

import io.perfj.testing.PerfDataBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A sparse file larger than 4 GiB whose data section starts past 2 GiB and ends past 4 GiB: offsets
 * must stay 64-bit all the way through mapping, record walking and feature lookup. Nothing is
 * committed; the file is sparse so it costs a few kilobytes of disk.
 */
class LargeFileTest {
    @TempDir
    Path tmp;

    @Test
    void readsRecordsAndFeaturesBeyond4GiB() throws IOException {
        ByteOrder le = ByteOrder.LITTLE_ENDIAN;
        PerfDataBuilder b = new PerfDataBuilder(le);
        long st = SampleFormat.IP | SampleFormat.TIME;
        b.addAttr(b.attr(1, 0, 1, st, 0, 1L << 18), 7);
        byte[] small = b.buildFile();
        Path f = tmp.resolve("big.data");
        long dataOff = 3L << 30;             // 3 GiB
        long gap = (2L << 30);               // a 2 GiB hole made of one big record run
        byte[] rec1 = b.record(RecordType.SAMPLE, 1, 0x1000, 5);
        byte[] rec2 = b.record(RecordType.SAMPLE, 1, 0x2000, 6);
        byte[] host = b.perfString("big");
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(small, 0, 104 + 144 + 8));
            ch.write(ByteBuffer.wrap(rec1), dataOff);
            // Fill the hole with padding records of 0xfff8 bytes each, written header-only; the
            // rest of each record is a hole and reads as zeros.
            long pos = dataOff + rec1.length;
            long end = dataOff + rec1.length + gap;
            int pad = 0xfff8;
            ByteBuffer hdr = ByteBuffer.allocate(8).order(le);
            hdr.putInt(RecordType.FINISHED_INIT).putShort((short) 0).putShort((short) pad);
            long padded = 0;
            while (pos + pad <= end) {
                ch.write(hdr.clear(), pos);
                pos += pad;
                padded++;
            }
            ch.write(ByteBuffer.wrap(rec2), pos);
            pos += rec2.length;
            long dataSize = pos - dataOff;
            ByteBuffer table = ByteBuffer.allocate(16).order(le).putLong(pos + 16).putLong(host.length).flip();
            ch.write(table, pos);
            ch.write(ByteBuffer.wrap(host), pos + 16);
            ByteBuffer h = ByteBuffer.allocate(24).order(le).putLong(dataOff).putLong(dataSize).putLong(0).flip();
            ch.write(h, 40);
            ByteBuffer feat = ByteBuffer.allocate(8).order(le).putLong(1L << FeatureId.HOSTNAME).flip();
            ch.write(feat, 72);

            try (PerfData d = PerfData.open(f)) {
                assertTrue(d.fileSize() > (4L << 30), "file is " + d.fileSize());
                assertEquals("big", d.features().get(FeatureId.HOSTNAME).cursor().perfString());
                RecordInput in = d.records();
                RawRecord first = in.next();
                assertEquals(dataOff, first.offset());
                assertEquals(0x1000, first.bytes().u64(8));
                long n = 0;
                RawRecord r;
                RawRecord last = null;
                while ((r = in.next()) != null) {
                    last = r;
                    n++;
                }
                assertEquals(padded + 1, n);
                assertEquals(RecordType.SAMPLE, last.type());
                assertTrue(last.offset() > (5L << 30) - (1L << 20), "offset " + last.offset());
                assertEquals(0x2000, last.bytes().u64(8));
                assertEquals(6, d.evlist().timeOf(last));
            }
        }
    }
}
