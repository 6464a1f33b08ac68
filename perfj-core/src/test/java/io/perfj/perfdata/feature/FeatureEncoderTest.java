package io.perfj.perfdata.feature;

import io.perfj.io.Bytes;
import io.perfj.perfdata.FeatureId;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.HexFormat;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** {@link FeatureEncoder} against {@link Features}: each encodable section decodes to what was encoded. */
class FeatureEncoderTest {
    @Test
    void everyEncodableFeatureDecodesToItself() {
        byte[] id = HexFormat.of().parseHex("0123456789abcdef0123456789abcdef01234567");
        List<Feature> fs = List.of(
                new Feature.Text(FeatureId.OSRELEASE, "6.18.0"),
                new Feature.NrCpus(2, 4),
                new Feature.TotalMem(24683568),
                new Feature.Cmdline(List.of("perfj", "record", "-a", "a name of more than sixty-four bytes, which takes two blocks")),
                new Feature.PmuMappings(List.of(new Feature.PmuMappings.Pmu(1, "software"), new Feature.PmuMappings.Pmu(8, "uprobe"))),
                new Feature.SampleTime(5, 9),
                new Feature.ClockId(1),
                new Feature.ClockData(1, 1, 1796218093765954000L, 3481339353042L),
                new Feature.Cache(1, List.of(new Feature.Cache.Level(1, 64, 64, 8, "Data", "32K", "0"),
                        new Feature.Cache.Level(3, 64, 32768, 16, "Unified", "32768K", "0-1"))),
                new Feature.NumaTopology(List.of(new Feature.NumaTopology.Node(0, 100, 50, "0-1"))),
                new Feature.CpuPmuCaps(List.of(new Feature.Cap("branches", "32"), new Feature.Cap("pmu_name", "skylake"))),
                new Feature.CpuPmuCaps(List.of()),
                new Feature.PmuCaps(List.of()),
                new Feature.PmuCaps(List.of(new Feature.PmuCaps.Pmu("cpu_core", List.of(new Feature.Cap("branches", "32"))),
                        new Feature.PmuCaps.Pmu("ibs_op", List.of(new Feature.Cap("zen4_ibs_extensions", "1"),
                                new Feature.Cap("a name of more than sixty-four bytes, which takes two blocks of the string", ""))))));
        for (ByteOrder order : List.of(ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN)) {
            for (Feature f : fs) {
                assertEquals(f, decode(f, order), f.name());
            }
            Feature.BuildIds b = (Feature.BuildIds) decode(new Feature.BuildIds(List.of(
                    new Feature.BuildIds.BuildId(2, -1, id, 20, "/usr/bin/hot"),
                    new Feature.BuildIds.BuildId(1, -1, java.util.Arrays.copyOf(id, 20), 8, "[kernel.kallsyms]"))), order);
            assertEquals("0123456789abcdef0123456789abcdef01234567", b.entries().get(0).hex());
            assertEquals("/usr/bin/hot", b.entries().get(0).filename());
            assertEquals("0123456789abcdef", b.entries().get(1).hex());
            Feature.CpuTopology t = new Feature.CpuTopology(List.of("0-1"), List.of("0", "1"),
                    List.of(new Feature.CpuTopology.Cpu(0, 0, 0), new Feature.CpuTopology.Cpu(1, 0, 0)), List.of("0-1"), true, true);
            byte[] nr = FeatureEncoder.encode(new Feature.NrCpus(2, 2), order);
            Feature.CpuTopology back = Features.cpuTopology(Bytes.of(FeatureEncoder.encode(t, order), order, "t", "topology"), 2);
            assertEquals(t, back);
            assertEquals(8, nr.length);
            Feature.BpfBtf btf = (Feature.BpfBtf) decode(new Feature.BpfBtf(List.of(new Feature.BpfBtf.Btf(3, new byte[] {1, 2, 3}))), order);
            assertArrayEquals(new byte[] {1, 2, 3}, btf.entries().getFirst().data());
            Feature.MemTopology m = (Feature.MemTopology) decode(new Feature.MemTopology(1, 0x8000000L, List.of(
                    new Feature.MemTopology.Node(0, 200, 200, new long[] {0xffffff | 0xffffffff00000000L, -1, -1, 0xff}))), order);
            assertEquals(0x8000000L, m.blockSize());
            assertEquals(200, m.nodes().getFirst().bits());
            assertEquals(24 + 32 + 64 + 64 + 8, m.nodes().getFirst().weight());
        }
        assertThrows(IllegalArgumentException.class, () -> FeatureEncoder.encode(new Feature.DirFormat(1), ByteOrder.LITTLE_ENDIAN));
    }

    private static Feature decode(Feature f, ByteOrder order) {
        return Features.decode(f.id(), Bytes.of(FeatureEncoder.encode(f, order), order, "t", "feature"), null);
    }

}
