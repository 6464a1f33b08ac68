package io.perfj.intelpt;

import io.perfj.io.Bytes;
import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.RawRecord;
import io.perfj.perfdata.RecordInput;
import io.perfj.perfdata.RecordType;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The PSB+ sync points of q-intel_pt-4.14's two trace buffers against the "psb" samples perf 6.1's
 * script synthesizes from them (fixtures/corpus/golden): the same buffers, offsets and times (the
 * PSB+'s TSC through the AUXTRACE_INFO's conversion), the FUP's IP where perf prints it.
 */
class PtSyncPointsTest {
    private static final Pattern PSB = Pattern.compile(
            "\\[(\\d+)\\]\\s+(\\d+\\.\\d{6}):\\s+psb:\\s+psb offs: (0x[0-9a-f]+|0)\\s+([0-9a-f]+) ");

    @Test
    void psbSamplesOfPerfScript() throws IOException {
        TreeSet<String> perf = new TreeSet<>();
        TreeSet<String> ips = new TreeSet<>();
        for (String line : Files.readAllLines(Fixtures.file("corpus/golden/q-intel_pt-4.14.script.txt"))) {
            Matcher m = PSB.matcher(line);
            if (m.find()) {
                perf.add(Integer.parseInt(m.group(1)) + " " + m.group(3) + " " + m.group(2));
                if (m.group(3).equals("0")) {
                    ips.add(Integer.parseInt(m.group(1)) + " " + m.group(4));
                }
            }
        }
        assertEquals(10, perf.size(), perf.toString());
        TreeSet<String> mine = new TreeSet<>();
        TreeSet<String> mineIps = new TreeSet<>();
        try (PerfData d = PerfData.open(Fixtures.file("corpus/q-intel_pt-4.14.data"))) {
            IntelPtInfo info = null;
            RecordInput in = d.records();
            for (RawRecord r = in.next(); r != null; r = in.next()) {
                if (r.type() == RecordType.AUXTRACE_INFO) {
                    Optional<IntelPtInfo> i = IntelPtInfo.read(r.bytes().slice(16, r.size() - 16));
                    assertTrue(i.isPresent());
                    info = i.get();
                } else if (r.type() == RecordType.AUXTRACE) {
                    int cpu = r.bytes().s32(40);
                    Bytes buf = d.fileBytes().slice(r.offset() + r.size(), r.bytes().u64(8));
                    for (PtSyncPoint p : PtSyncPoints.of(buf)) {
                        long ns = info.perfTime(p.tsc().orElseThrow());
                        mine.add(cpu + " " + (p.offset() == 0 ? "0" : "0x" + Long.toHexString(p.offset())) + " "
                                + String.format("%d.%06d", ns / 1_000_000_000L, ns % 1_000_000_000L / 1000));
                        assertEquals(64, p.execBits());
                        if (p.offset() == 0) {
                            mineIps.add(cpu + " " + Long.toHexString(p.ip().orElseThrow()));
                        }
                    }
                }
            }
        }
        assertEquals(perf, mine);
        assertEquals(ips, mineIps);
    }

    @Test
    void ipCompression() {
        long last = 0xffffffffb960d302L;
        assertEquals(0xffffffffb960d794L, PtIp.decompress(1, 0xd794, last));
        assertEquals(0xffffffffb97420a2L, PtIp.decompress(2, 0xb97420a2L, last));
        assertEquals(0xffffffffb960d300L, PtIp.decompress(3, 0xffffb960d300L, 0));
        assertEquals(0x00007fb36d296300L, PtIp.decompress(3, 0x7fb36d296300L, last));
        assertEquals(0xffff7fb36d296300L, PtIp.decompress(4, 0x7fb36d296300L, last));
        assertEquals(0x0102030405060708L, PtIp.decompress(6, 0x0102030405060708L, last));
        assertEquals(last, PtIp.decompress(0, 0, last));
    }

    @Test
    void aPsbPlusCutByAnotherPsbIsTwoSyncPoints() {
        String psb = "02 82 02 82 02 82 02 82 02 82 02 82 02 82 02 82 ";
        List<PtSyncPoint> p = PtSyncPoints.of(PtPacketDecoderTest.bytes(
                psb + "19 01 00 00 00 00 00 00 " + psb + "02 03 1d 00 02 23 06 " + psb));
        List<String> got = new ArrayList<>();
        for (PtSyncPoint s : p) {
            got.add(s.offset() + " " + s.tsc() + " " + s.cbr());
        }
        assertEquals(List.of("0 OptionalLong[1] 0", "24 OptionalLong.empty 29", "47 OptionalLong.empty 0"), got);
    }
}
