package io.perfj.session;

import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.RecordType;
import io.perfj.perfdata.SampleFormat;
import io.perfj.perfdata.record.Callchain;
import io.perfj.perfdata.record.Sample;
import io.perfj.symbols.SymbolOptions;
import io.perfj.testing.PerfDataBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * LBR call stacks ({@code --call-graph lbr}) stitched into the callchain, on samples built
 * record by record: the kernel part up to the user marker, then the latest call's target and
 * every call's source; perf 6.1's quirks only under its compat mode.
 */
class ChainWalkLbrTest {
    @TempDir
    Path tmp;

    static final long K1 = 0xffffffff81000100L;
    static final long U1 = 0x401234L;
    static final long ST = SampleFormat.IP | SampleFormat.TID | SampleFormat.CALLCHAIN | SampleFormat.BRANCH_STACK;

    /** The attr of a --call-graph lbr event: branch_sample_type USER | CALL_STACK. */
    private static byte[] lbrAttr(PerfDataBuilder b, long branchSampleType) {
        byte[] a = b.attr(0, 0, 1000, ST, 0, 0);
        ByteBuffer.wrap(a).order(ByteOrder.LITTLE_ENDIAN).putLong(72, branchSampleType);
        return a;
    }

    /** A sample with chain [KERNEL, K1, USER, U1] and the given (from, to) branch entries. */
    private static byte[] sample(PerfDataBuilder b, long ip, long... fromTo) {
        List<Long> w = new ArrayList<>(List.of(ip, (5L << 32) | 5, 4L, Callchain.CONTEXT_KERNEL, K1,
                Callchain.CONTEXT_USER, U1, (long) fromTo.length / 2));
        for (int i = 0; i < fromTo.length; i += 2) {
            w.add(fromTo[i]);
            w.add(fromTo[i + 1]);
            w.add(0L);
        }
        return b.record(RecordType.SAMPLE, 1, w.stream().mapToLong(Long::longValue).toArray());
    }

    record Walked(List<Long> ips, List<Integer> modes, boolean kept) {
    }

    /** Walks the first sample of the recording, with or without perf 6.1's quirks. */
    private Walked walk(byte[] file, boolean perf61, boolean fromRoot, int max) throws Exception {
        Path f = tmp.resolve("lbr-" + perf61 + fromRoot + max + ".data");
        Files.write(f, file);
        try (PerfData d = PerfData.open(f)) {
            Session s = Session.of(d, SessionOptions.of(SymbolOptions.builder().buildIdDir(tmp).perfMapDir(tmp).noSystemFiles().build()));
            ChainWalk w = ChainWalk.of(perf61 ? io.perfj.compat.PerfLbrCallchain.INSTANCE : null, d.fileBytes());
            List<Walked> out = new ArrayList<>();
            s.run(ref -> {
                if (!out.isEmpty()) {
                    return;
                }
                Sample smp = ref.sample();
                boolean kept = w.walk(smp, null, max, fromRoot);
                List<Long> ips = new ArrayList<>();
                List<Integer> modes = new ArrayList<>();
                for (int i = 0; i < w.size(); i++) {
                    ips.add(w.ip(i));
                    modes.add(w.mode(i));
                }
                out.add(new Walked(ips, modes, kept));
            });
            return out.getFirst();
        }
    }

    private static byte[] recording(long branchSampleType, byte[]... samples) {
        PerfDataBuilder b = new PerfDataBuilder(ByteOrder.LITTLE_ENDIAN);
        b.addAttr(lbrAttr(b, branchSampleType), 1);
        for (byte[] s : samples) {
            b.add(s);
        }
        return b.buildFile();
    }

    private static PerfDataBuilder builder() {
        return new PerfDataBuilder(ByteOrder.LITTLE_ENDIAN);
    }

    @Test
    void stitchesKernelPartThenLatestTargetThenEverySource() throws Exception {
        PerfDataBuilder b = builder();
        byte[] file = recording(ChainWalk.BRANCH_CALL_STACK | 1, sample(b, 0x417a40, 0x417a53, 0x41b3b0, 0x401581,
                0x417a30));
        for (boolean perf61 : new boolean[] {false, true}) {
            Walked w = walk(file, perf61, false, 127);
            assertTrue(w.kept());
            assertEquals(List.of(K1, 0x41b3b0L, 0x417a53L, 0x401581L), w.ips(), "perf61=" + perf61);
            assertEquals(List.of(1, 2, 2, 2), w.modes());
        }
        // the recorded user part (U1) is not used, and --max-stack does not cut the LBR part
        assertEquals(4, walk(file, false, false, 3).ips().size());
    }

    @Test
    void callerOrderLooksKernelAddressesUpAsUserOnesOnlyUnderPerfCompat() throws Exception {
        byte[] file = recording(ChainWalk.BRANCH_CALL_STACK, sample(builder(), 0x417a40, 0x417a53, 0x41b3b0));
        assertEquals(List.of(1, 2, 2), walk(file, false, true, 127).modes());
        Walked perf = walk(file, true, true, 127);
        assertEquals(List.of(K1, 0x41b3b0L, 0x417a53L), perf.ips());
        assertEquals(List.of(2, 2, 2), perf.modes());
    }

    @Test
    void emptyBranchStack() throws Exception {
        PerfDataBuilder b = builder();
        byte[] next = b.record(RecordType.SAMPLE, 1, 0xdeadbeefL, (5L << 32) | 5, 0L, 0L);
        byte[] file = recording(ChainWalk.BRANCH_CALL_STACK, sample(b, 0x417a40), next);
        // correct: the recorded user part stands in for the empty LBR
        assertEquals(List.of(K1, U1), walk(file, false, false, 127).ips());
        // perf 6.1 in callee order takes entries[0].to from past the record: the next record's ip
        assertEquals(List.of(K1, 0xdeadbeefL), walk(file, true, false, 127).ips());
        // and in caller order nothing
        assertEquals(List.of(K1), walk(file, true, true, 127).ips());
    }

    @Test
    void withoutCallStackBitOrUserMarkerTheChainIsWalkedAsRecorded() throws Exception {
        byte[] file = recording(1, sample(builder(), 0x417a40, 0x417a53, 0x41b3b0));
        assertEquals(List.of(K1, U1), walk(file, false, false, 127).ips());
        byte[] lbr = recording(ChainWalk.BRANCH_CALL_STACK, sample(builder(), 0x417a40, 0x417a53, 0x41b3b0));
        // the user marker is the chain's third entry: a limit of 1 does not reach it, and the
        // recorded chain is walked with that limit
        Walked w = walk(lbr, false, false, 1);
        assertEquals(List.of(K1), w.ips());
        assertFalse(w.ips().contains(0x41b3b0L));
    }
}
