package io.perfj.perfdata.record;

import io.perfj.io.Bytes;
import io.perfj.io.FormatException;
import io.perfj.perfdata.EventAttr;
import io.perfj.perfdata.Evlist;
import io.perfj.perfdata.RawRecord;
import io.perfj.perfdata.RecordType;
import io.perfj.perfdata.SampleFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RecordDecoderTest {
    enum Order {
        LITTLE(ByteOrder.LITTLE_ENDIAN), BIG(ByteOrder.BIG_ENDIAN);
        final ByteOrder order;

        Order(ByteOrder o) {
            this.order = o;
        }
    }

    static final long SAMPLE_ID_ALL = 1L << 18;

    /** A 136-byte attr with the fields the sample decoder looks at. */
    static EventAttr attr(ByteOrder o, long sampleType, long readFormat, long flags, long branchType,
                          long regsUser, long regsIntr) {
        ByteBuffer b = ByteBuffer.allocate(136).order(o);
        b.putInt(0, 1).putInt(4, 136).putLong(16, 4000).putLong(24, sampleType).putLong(32, readFormat);
        b.putLong(40, o == ByteOrder.BIG_ENDIAN ? Long.reverse(flags) : flags);
        b.putLong(72, branchType).putLong(80, regsUser).putInt(88, 8192).putLong(96, regsIntr);
        return EventAttr.read(Bytes.of(b.array(), o, "test", "attr"));
    }

    /** Builds a record body word by word in a byte order. */
    static final class Rec {
        final ByteOrder o;
        final ByteArrayOutputStream body = new ByteArrayOutputStream();

        Rec(ByteOrder o) {
            this.o = o;
        }

        Rec u64(long v) {
            body.writeBytes(ByteBuffer.allocate(8).order(o).putLong(v).array());
            return this;
        }

        Rec u32(int v) {
            body.writeBytes(ByteBuffer.allocate(4).order(o).putInt(v).array());
            return this;
        }

        Rec u16(int v) {
            body.writeBytes(ByteBuffer.allocate(2).order(o).putShort((short) v).array());
            return this;
        }

        Rec bytes(byte[] b) {
            body.writeBytes(b);
            return this;
        }

        Rec str(String s, int padTo) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            byte[] p = new byte[padTo];
            System.arraycopy(b, 0, p, 0, b.length);
            return bytes(p);
        }

        RawRecord raw(int type, int misc) {
            byte[] b = body.toByteArray();
            ByteBuffer r = ByteBuffer.allocate(8 + b.length).order(o);
            r.putInt(type).putShort((short) misc).putShort((short) (8 + b.length)).put(b);
            return new RawRecord(0x1000, type, misc, Bytes.of(r.array(), o, "test", "record"), false);
        }
    }

    static Evlist evlist(EventAttr a, long... ids) {
        Evlist e = new Evlist();
        e.add(a, ids);
        return e;
    }

    /** Every sample_type bit except READ (tested apart), in kernel order, in both byte orders. */
    @ParameterizedTest
    @EnumSource(Order.class)
    void everySampleField(Order ord) {
        ByteOrder o = ord.order;
        long st = SampleFormat.IDENTIFIER | SampleFormat.IP | SampleFormat.TID | SampleFormat.TIME | SampleFormat.ADDR
                | SampleFormat.ID | SampleFormat.STREAM_ID | SampleFormat.CPU | SampleFormat.PERIOD
                | SampleFormat.CALLCHAIN | SampleFormat.RAW | SampleFormat.BRANCH_STACK | SampleFormat.REGS_USER
                | SampleFormat.STACK_USER | SampleFormat.WEIGHT_STRUCT | SampleFormat.DATA_SRC
                | SampleFormat.TRANSACTION | SampleFormat.REGS_INTR | SampleFormat.PHYS_ADDR | SampleFormat.CGROUP
                | SampleFormat.DATA_PAGE_SIZE | SampleFormat.CODE_PAGE_SIZE | SampleFormat.AUX;
        EventAttr a = attr(o, st, 0, SAMPLE_ID_ALL, RecordDecoder.BRANCH_HW_INDEX, 0b101, 0b11);
        Rec r = new Rec(o)
                .u64(77)                                   // IDENTIFIER
                .u64(0xffffffff81000010L)                  // IP
                .u32(100).u32(101)                         // TID: pid, tid
                .u64(123456789)                            // TIME
                .u64(0xdead)                               // ADDR
                .u64(77)                                   // ID
                .u64(78)                                   // STREAM_ID
                .u32(3).u32(0)                             // CPU, res
                .u64(1000)                                 // PERIOD
                .u64(3).u64(Callchain.CONTEXT_KERNEL).u64(0xffffffff81000010L).u64(0xffffffff81000020L) // CALLCHAIN
                .u32(4).bytes(new byte[] {1, 2, 3, 4})     // RAW
                .u64(1).u64(9).u64(0x10).u64(0x20).u64(0x31) // BRANCH_STACK nr, hw_idx, from/to/flags
                .u64(Regs.ABI_64).u64(0xa).u64(0xc)        // REGS_USER (2 regs)
                .u64(16).bytes(new byte[16]).u64(8)        // STACK_USER size, data, dyn_size
                .u64((5L << 48) | (6L << 32) | 7)          // WEIGHT_STRUCT
                .u64(0x1e05080021L)                        // DATA_SRC
                .u64(0x8)                                  // TRANSACTION
                .u64(Regs.ABI_64).u64(0x111).u64(0x222)    // REGS_INTR (2 regs)
                .u64(0x5000)                               // PHYS_ADDR
                .u64(42)                                   // CGROUP
                .u64(4096)                                 // DATA_PAGE_SIZE
                .u64(2 << 20)                              // CODE_PAGE_SIZE
                .u64(8).bytes(new byte[] {9, 9, 9, 9, 9, 9, 9, 9}); // AUX
        Sample s = assertInstanceOf(Sample.class, RecordDecoder.decode(r.raw(RecordType.SAMPLE, 1), evlist(a, 77)));
        assertEquals(77, s.identifier());
        assertEquals(0xffffffff81000010L, s.ip());
        assertEquals(100, s.pid());
        assertEquals(101, s.tid());
        assertEquals(123456789, s.time());
        assertEquals(0xdead, s.addr());
        assertEquals(77, s.id());
        assertEquals(78, s.streamId());
        assertEquals(3, s.cpu());
        assertEquals(1000, s.period());
        assertEquals(3, s.callchain().size());
        assertEquals(Callchain.CONTEXT_KERNEL, s.callchain().ip(0));
        assertTrue(Callchain.isContext(s.callchain().ip(0)));
        assertEquals(0xffffffff81000020L, s.callchain().ip(2));
        assertEquals(4, s.rawData().size());
        assertEquals(3, s.rawData().u8(2));
        assertEquals(1, s.branchStack().size());
        assertEquals(9, s.branchStack().hwIdx());
        assertEquals(0x10, s.branchStack().from(0));
        assertEquals(0x20, s.branchStack().to(0));
        assertEquals(0x31, s.branchStack().flags(0));
        assertEquals(2, s.userRegs().count());
        assertEquals(0xc, s.userRegs().value(1));
        assertEquals(16, s.userStack().size());
        assertEquals(8, s.userStack().dynSize());
        assertEquals(7, s.weight());
        assertEquals(6, s.insLat());
        assertEquals(5, s.pStageCyc());
        assertEquals(0x1e05080021L, s.dataSrc());
        assertEquals(8, s.transaction());
        assertEquals(0x222, s.intrRegs().value(1));
        assertEquals(0x5000, s.physAddr());
        assertEquals(42, s.cgroup());
        assertEquals(4096, s.dataPageSize());
        assertEquals(2 << 20, s.codePageSize());
        assertEquals(8, s.aux().size());
        assertEquals(s.raw().size(), s.aux().base() - s.raw().bytes().base() + 8);
    }

    @Test
    void plainWeightAndAbsentFieldsKeepPerfDefaults() {
        ByteOrder o = ByteOrder.LITTLE_ENDIAN;
        EventAttr a = attr(o, SampleFormat.IP | SampleFormat.WEIGHT | SampleFormat.REGS_USER | SampleFormat.STACK_USER,
                0, 0, 0, 0xff, 0);
        Rec r = new Rec(o).u64(0x400000).u64(Regs.ABI_NONE).u64(0).u64(0x1234_5678_9abcL);
        Sample s = (Sample) RecordDecoder.decode(r.raw(RecordType.SAMPLE, 2), evlist(a));
        assertEquals(-1, s.pid());
        assertEquals(-1, s.tid());
        assertEquals(-1, s.cpu());
        assertEquals(-1, s.time());
        assertEquals(4000, s.period(), "period defaults to attr.sample_period");
        assertEquals(0, s.userRegs().count());
        assertEquals(0, s.userStack().size());
        assertEquals(0x1234_5678_9abcL, s.weight());
    }

    /** Every read_format combination, grouped and not, as a sample's READ field. */
    @Test
    void everyReadFormat() {
        ByteOrder o = ByteOrder.LITTLE_ENDIAN;
        for (int rf = 0; rf < 32; rf++) {
            boolean group = (rf & SampleFormat.FORMAT_GROUP) != 0;
            EventAttr a = attr(o, SampleFormat.READ | SampleFormat.TIME, rf, 0, 0, 0, 0);
            Rec r = new Rec(o).u64(555);
            int n = group ? 3 : 1;
            if (group) {
                r.u64(n);
            } else {
                r.u64(1000);
            }
            if ((rf & SampleFormat.FORMAT_TOTAL_TIME_ENABLED) != 0) {
                r.u64(2000);
            }
            if ((rf & SampleFormat.FORMAT_TOTAL_TIME_RUNNING) != 0) {
                r.u64(1500);
            }
            for (int i = 0; i < n; i++) {
                if (group) {
                    r.u64(1000 + i);
                }
                if ((rf & SampleFormat.FORMAT_ID) != 0) {
                    r.u64(40 + i);
                }
                if ((rf & SampleFormat.FORMAT_LOST) != 0) {
                    r.u64(i);
                }
            }
            r.u64(0xabcdef); // trailing word that must not be consumed
            Sample s = (Sample) RecordDecoder.decode(r.raw(RecordType.SAMPLE, 2), evlist(a));
            ReadValues v = s.read();
            assertEquals(555, s.time());
            assertEquals(group, v.group(), "rf " + rf);
            assertEquals(n, v.count(), "rf " + rf);
            for (int i = 0; i < n; i++) {
                assertEquals(1000 + i, v.values()[i], "rf " + rf);
                assertEquals((rf & SampleFormat.FORMAT_ID) != 0 ? 40 + i : -1, v.ids()[i], "rf " + rf);
                assertEquals((rf & SampleFormat.FORMAT_LOST) != 0 ? i : 0, v.lost()[i], "rf " + rf);
            }
            assertEquals((rf & SampleFormat.FORMAT_TOTAL_TIME_ENABLED) != 0 ? 2000 : 0, v.timeEnabled());
            assertEquals((rf & SampleFormat.FORMAT_TOTAL_TIME_RUNNING) != 0 ? 1500 : 0, v.timeRunning());
        }
    }

    @Test
    void groupReadCountBeyondRecordIsRejectedBeforeAllocating() {
        ByteOrder o = ByteOrder.LITTLE_ENDIAN;
        EventAttr a = attr(o, SampleFormat.READ, SampleFormat.FORMAT_GROUP | SampleFormat.FORMAT_ID, 0, 0, 0, 0);
        RawRecord r = new Rec(o).u64(1L << 40).u64(1).u64(2).raw(RecordType.SAMPLE, 2);
        FormatException e = assertThrows(FormatException.class, () -> RecordDecoder.decode(r, evlist(a)));
        assertTrue(e.getMessage().contains("PERF_RECORD_SAMPLE"), e.getMessage());
        assertTrue(e.getMessage().contains("0x1"), e.getMessage());
    }

    @Test
    void callchainCountBeyondRecordFails() {
        ByteOrder o = ByteOrder.LITTLE_ENDIAN;
        EventAttr a = attr(o, SampleFormat.CALLCHAIN, 0, 0, 0, 0, 0);
        RawRecord r = new Rec(o).u64(3).u64(1).u64(2).raw(RecordType.SAMPLE, 2);
        assertThrows(FormatException.class, () -> RecordDecoder.decode(r, evlist(a)));
        RawRecord neg = new Rec(o).u64(-1).raw(RecordType.SAMPLE, 2);
        assertThrows(FormatException.class, () -> RecordDecoder.decode(neg, evlist(a)));
    }

    /** A big-endian COMM with a sample_id_all trailer: u32s in file order, trailer from the end. */
    @Test
    void bigEndianCommWithTrailer() {
        ByteOrder o = ByteOrder.BIG_ENDIAN;
        long st = SampleFormat.TID | SampleFormat.TIME | SampleFormat.ID | SampleFormat.CPU | SampleFormat.IDENTIFIER;
        EventAttr a = attr(o, st, 0, SAMPLE_ID_ALL, 0, 0, 0);
        assertTrue(a.sampleIdAll());
        RawRecord r = new Rec(o).u32(4242).u32(4243).str("worker", 16)
                .u32(4242).u32(4243).u64(99_000).u64(5).u32(7).u32(0).u64(5)
                .raw(RecordType.COMM, KernelRecord.MISC_COMM_EXEC);
        KernelRecord.Comm c = assertInstanceOf(KernelRecord.Comm.class, RecordDecoder.decode(r, evlist(a, 5)));
        assertEquals(4242, c.pid());
        assertEquals(4243, c.tid());
        assertEquals("worker", c.comm());
        assertTrue(c.exec());
        assertEquals(99_000, c.sampleId().time());
        assertEquals(7, c.sampleId().cpu());
        assertEquals(5, c.sampleId().id());
        assertEquals(4243, c.sampleId().tid());
    }

    @ParameterizedTest
    @EnumSource(Order.class)
    void bigAndLittleEndianSampleAgree(Order ord) {
        ByteOrder o = ord.order;
        EventAttr a = attr(o, SampleFormat.IP | SampleFormat.TID | SampleFormat.CPU, 0, 0, 0, 0, 0);
        RawRecord r = new Rec(o).u64(0x1122334455667788L).u32(-1).u32(12).u32(1).u32(0).raw(RecordType.SAMPLE, 2);
        Sample s = (Sample) RecordDecoder.decode(r, evlist(a));
        assertEquals(0x1122334455667788L, s.ip());
        assertEquals(-1, s.pid());
        assertEquals(12, s.tid());
        assertEquals(1, s.cpu());
    }

    @Test
    void mmap2BothForms() {
        ByteOrder o = ByteOrder.LITTLE_ENDIAN;
        EventAttr a = attr(o, SampleFormat.IP, 0, 0, 0, 0, 0);
        RawRecord inode = new Rec(o).u32(1).u32(2).u64(0x1000).u64(0x2000).u64(0).u32(0xfe).u32(1).u64(77).u64(3)
                .u32(5).u32(2).str("/bin/x", 8).raw(RecordType.MMAP2, 2);
        KernelRecord.Mmap2 m = (KernelRecord.Mmap2) RecordDecoder.decode(inode, evlist(a));
        assertFalse(m.hasBuildId());
        assertEquals(0xfe, m.maj());
        assertEquals(77, m.ino());
        assertEquals("/bin/x", m.filename());
        byte[] id = new byte[20];
        for (int i = 0; i < 20; i++) {
            id[i] = (byte) i;
        }
        RawRecord bid = new Rec(o).u32(1).u32(2).u64(0x1000).u64(0x2000).u64(0).bytes(new byte[] {20, 0, 0, 0})
                .bytes(id).u32(5).u32(2).str("/bin/y", 8)
                .raw(RecordType.MMAP2, 2 | KernelRecord.MISC_MMAP_BUILD_ID);
        KernelRecord.Mmap2 b = (KernelRecord.Mmap2) RecordDecoder.decode(bid, evlist(a));
        assertArrayEquals(id, b.buildId());
        assertEquals("/bin/y", b.filename());
        assertEquals(5, b.prot());
    }

    /**
     * An MMAP2 without a NUL before its sample_id trailer (hotspot's perf.data.true.v2 has one
     * with no room for prot and flags): perf reads the name on into the trailer, up to a NUL.
     */
    @Test
    void mmap2NameRunsIntoTheTrailerAsPerfReadsIt() {
        ByteOrder o = ByteOrder.LITTLE_ENDIAN;
        EventAttr a = attr(o, SampleFormat.TID | SampleFormat.TIME, 0, SAMPLE_ID_ALL, 0, 0, 0);
        RawRecord r = new Rec(o).u32(0x6ee4).u32(0x6ee4).u64(0x1000).u64(0x2000).u64(0).u64(0).u64(0).u64(0)
                .bytes("[stack]\0".getBytes(StandardCharsets.US_ASCII)) // where prot and flags belong
                .u32(0x6ee4).u32(0x6ee4).u64(99) // trailer: pid, tid, time
                .raw(RecordType.MMAP2, 2);
        KernelRecord.Mmap2 m = (KernelRecord.Mmap2) RecordDecoder.decode(r, evlist(a));
        assertArrayEquals(new byte[] {(byte) 0xe4, 'n'}, m.filenameBytes());
        assertEquals("\ufffdn", m.filename());
        assertEquals(99, m.sampleId().time());
    }

    @Test
    void cpuMapEncodings() {
        ByteOrder o = ByteOrder.LITTLE_ENDIAN;
        RawRecord list = new Rec(o).u16(0).u16(3).u16(0).u16(2).u16(3).u16(0).raw(RecordType.CPU_MAP, 0);
        assertArrayEquals(new int[] {0, 2, 3}, ((UserRecord.CpuMap) RecordDecoder.decode(list, null)).cpus());
        RawRecord mask32 = new Rec(o).u16(1).u16(1).u16(4).u32(0b1011).u16(0).raw(RecordType.CPU_MAP, 0);
        assertArrayEquals(new int[] {0, 1, 3}, ((UserRecord.CpuMap) RecordDecoder.decode(mask32, null)).cpus());
        RawRecord mask64 = new Rec(o).u16(1).u16(2).u16(8).u32(0).u64(1).u64(1L << 63).u16(0).raw(RecordType.CPU_MAP, 0);
        assertArrayEquals(new int[] {0, 127}, ((UserRecord.CpuMap) RecordDecoder.decode(mask64, null)).cpus());
        RawRecord range = new Rec(o).u16(2).bytes(new byte[] {1, 0}).u16(4).u16(6).raw(RecordType.CPU_MAP, 0);
        UserRecord.CpuMap rm = (UserRecord.CpuMap) RecordDecoder.decode(range, null);
        assertEquals(UserRecord.CpuMap.RANGE_CPUS, rm.encoding());
        assertArrayEquals(new int[] {-1, 4, 5, 6}, rm.cpus());
    }

    @Test
    void unknownTypesAreKept() {
        RawRecord r = new Rec(ByteOrder.LITTLE_ENDIAN).u64(1).raw(200, 0);
        assertInstanceOf(Unknown.class, RecordDecoder.decode(r, null));
        RawRecord k = new Rec(ByteOrder.LITTLE_ENDIAN).u64(1).raw(40, 0);
        assertInstanceOf(Unknown.class, RecordDecoder.decode(k, null));
    }

    @Test
    void recordShorterThanItsTrailerFails() {
        ByteOrder o = ByteOrder.LITTLE_ENDIAN;
        EventAttr a = attr(o, SampleFormat.TID | SampleFormat.TIME, 0, SAMPLE_ID_ALL, 0, 0, 0);
        RawRecord r = new Rec(o).u64(1).raw(RecordType.LOST_SAMPLES, 0);
        FormatException e = assertThrows(FormatException.class, () -> RecordDecoder.decode(r, evlist(a)));
        assertTrue(e.getMessage().contains("PERF_RECORD_LOST_SAMPLES"), e.getMessage());
    }
}
