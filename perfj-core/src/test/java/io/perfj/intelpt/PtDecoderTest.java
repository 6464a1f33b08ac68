package io.perfj.intelpt;

import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.RawRecord;
import io.perfj.perfdata.RecordInput;
import io.perfj.perfdata.RecordType;
import io.perfj.testing.Fixtures;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The decoder walk on the corpus's q-intel_pt-4.14 trace with no code to read (as perf had none):
 * every place the walk needs code, in order, equals what perf 6.1's decoder logged on the same
 * trace (intelpt/q-intel_pt-4.14.walk-errors.txt, from {@code perf script --itrace=ced}'s
 * intel_pt.log); timestamps and events as perf's log and output give them; damaged trace always
 * reaches the end of the data, with typed errors only.
 */
class PtDecoderTest {
    private static final InstructionWalker NO_CODE = (w, ip, to, max, insn) -> InstructionWalker.NO_CODE;

    /** The recording's AUXTRACE payloads, by queue (idx). */
    static List<PtBuffer> buffers(int idx) {
        List<PtBuffer> out = new ArrayList<>();
        try (PerfData d = PerfData.open(Fixtures.file("corpus/q-intel_pt-4.14.data"))) {
            RecordInput in = d.records();
            for (RawRecord r = in.next(); r != null; r = in.next()) {
                if (r.type() == RecordType.AUXTRACE && r.bytes().u32(32) == idx) {
                    long size = r.bytes().u64(8);
                    out.add(new PtBuffer(d.fileBytes().bytes(r.offset() + r.size(), size), r.bytes().u64(24),
                            r.offset(), r.bytes().s32(40), r.bytes().s32(36)));
                }
            }
        }
        return out;
    }

    static PtDecoder decoder(List<PtBuffer> b, InstructionWalker w) {
        return new PtDecoder(b.iterator(), w, 3, 100, 2, 12, true, true, PtDecoder.Period.NONE, 0);
    }

    @Test
    void walksWherePerfWalked() throws IOException {
        List<String> expected = Files.readAllLines(Fixtures.file("intelpt/q-intel_pt-4.14.walk-errors.txt"));
        assertEquals(621, expected.size());
        for (int q : new int[] {0, 3}) {
            List<String> want = expected.stream().filter(l -> l.startsWith(q + " ")).map(l -> l.substring(2)).toList();
            List<String> got = new ArrayList<>();
            PtDecoder d = decoder(buffers(q), NO_CODE);
            for (PtState s = d.decode(); s.err() != PtErrors.NODATA; s = d.decode()) {
                if (s.err() != 0) {
                    assertEquals(PtErrors.NOINSN, s.err());
                    got.add("0x" + Long.toHexString(s.fromIp()));
                }
            }
            assertEquals(want, got, "queue " + q);
        }
    }

    @Test
    void eventsAndTimes() {
        PtDecoder d = decoder(buffers(3), NO_CODE);
        PtState s = d.decode();
        // the first PSB+: its FUP, CBR 0x1d and TSC (perf: "queue 3 timestamp 0xbc4cbefc32")
        assertEquals(PtState.PSB_EVT | PtState.CBR_CHG, s.type());
        assertEquals(0xffffffffb960d300L, s.fromIp());
        assertEquals(29, s.cbr());
        assertEquals(0xbc4cbefc32L, s.timestamp());
        s = d.decode();
        assertEquals(PtState.BRANCH | PtState.TRACE_BEGIN, s.type()); // the TIP.PGE
        assertEquals(0xffffffffb960d302L, s.toIp());
        s = d.decode();
        assertEquals(PtErrors.NOINSN, s.err());
        s = d.decode();
        assertEquals(0xffffffffb98ab951L, s.toIp()); // the next full IP, at the MTC's time
        assertEquals(0xbc4cbf1e50L, s.timestamp());
        s = d.decode();
        assertEquals(0xbc4cbf1fe0L, s.timestamp()); // one MTC later: 8 CTC ticks of 50 TSC ticks
        // the PSB offsets perf script prints for queue 3's PSB events after resyncs
        List<Long> psbs = new ArrayList<>();
        for (s = d.decode(); s.err() != PtErrors.NODATA; s = d.decode()) {
            if (s.err() == 0 && (s.type() & PtState.PSB_EVT) != 0 && s.fromIp() == 0) {
                psbs.add(s.psbOffset());
            }
        }
        assertEquals(List.of(0x4258L, 0x8078L, 0xc090L, 0x100d0L, 0x14090L, 0x18190L, 0x1c150L, 0x20190L),
                psbs.subList(0, 8));
    }

    @Property(tries = 300)
    void damagedTraceEndsWithTypedErrors(@ForAll long seed, @ForAll @IntRange(min = 1, max = 64) int flips) {
        Random r = new Random(seed);
        byte[] b = buffers(0).getFirst().data().clone();
        for (int i = 0; i < flips; i++) {
            b[r.nextInt(b.length)] = (byte) r.nextInt(256);
        }
        if (r.nextBoolean()) {
            b = Arrays.copyOf(b, r.nextInt(b.length));
        }
        PtDecoder d = decoder(List.of(new PtBuffer(b, 0xbc4cd519a6L, 0x29c0, 0, -1)), NO_CODE);
        // every step of the decoder consumes a packet or more, so the bytes bound the steps
        long steps = 0;
        for (PtState s = d.decode(); s.err() != PtErrors.NODATA; s = d.decode()) {
            assertTrue(s.err() >= 0 && s.err() <= PtErrors.NELOOP, "error code " + s.err());
            assertTrue(++steps <= 4L * b.length + 16, "no end after " + steps + " steps");
        }
        assertEquals(PtErrors.NODATA, d.decode().err()); // and stays at the end
    }
}
