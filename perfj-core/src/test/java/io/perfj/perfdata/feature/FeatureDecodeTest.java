package io.perfj.perfdata.feature;

import io.perfj.testing.Fixtures;
import io.perfj.io.Bytes;
import io.perfj.io.FormatException;
import io.perfj.perfdata.FeatureId;
import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.RecordInput;
import io.perfj.bpf.BtfNames;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

import java.nio.ByteOrder;
import java.nio.file.Files;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FeatureDecodeTest {
    static final List<String> NAMES = Fixtures.RECORDINGS;

    static PerfData open(String fixture) {
        PerfData d = PerfData.open(Fixtures.recording(fixture));
        if (d.isPipe()) {
            RecordInput in = d.records();
            while (in.next() != null) {
                // features arrive as records in pipe mode
            }
        }
        return d;
    }

    @ParameterizedTest
    @FieldSource("NAMES")
    void everyFeatureDecodesWithoutRaw(String fixture) {
        try (PerfData d = open(fixture)) {
            Map<Integer, Feature> all = Features.decodeAll(d);
            assertFalse(all.isEmpty());
            for (Map.Entry<Integer, Feature> e : all.entrySet()) {
                if (e.getKey() < 32 && e.getKey() != FeatureId.TRACING_DATA && e.getKey() != FeatureId.AUXTRACE) {
                    assertFalse(e.getValue() instanceof Feature.Raw, "feature " + FeatureId.name(e.getKey()) + " stayed raw");
                }
            }
            Feature.Text host = assertInstanceOf(Feature.Text.class, all.get(FeatureId.HOSTNAME));
            assertEquals("vm", host.value());
            Feature.NrCpus n = assertInstanceOf(Feature.NrCpus.class, all.get(FeatureId.NRCPUS));
            assertEquals(2, n.online());
            Feature.CpuTopology t = assertInstanceOf(Feature.CpuTopology.class, all.get(FeatureId.CPU_TOPOLOGY));
            assertEquals(2, t.cpus().size());
            assertTrue(t.hasDies());
            Feature.Cmdline c = assertInstanceOf(Feature.Cmdline.class, all.get(FeatureId.CMDLINE));
            assertEquals("/usr/bin/perf", c.argv().getFirst());
        }
    }

    @Test
    void buildIdsOfCFp() {
        try (PerfData d = open("c-fp")) {
            Feature.BuildIds b = assertInstanceOf(Feature.BuildIds.class,
                    Features.decode(FeatureId.BUILD_ID, d.features().get(FeatureId.BUILD_ID), d));
            assertFalse(b.entries().isEmpty());
            boolean kernel = false;
            for (Feature.BuildIds.BuildId e : b.entries()) {
                assertTrue(e.size() > 0 && e.size() <= 20);
                assertEquals(e.size() * 2, e.hex().length());
                kernel |= e.filename().equals("[kernel.kallsyms]");
            }
            assertTrue(kernel, "the kernel's build-id is recorded");
        }
    }

    @Test
    void compressedOfZstd() {
        try (PerfData d = open("zstd")) {
            Feature.Compressed c = assertInstanceOf(Feature.Compressed.class,
                    Features.decode(FeatureId.COMPRESSED, d.features().get(FeatureId.COMPRESSED), d));
            assertEquals(1, c.type());
            assertEquals(1, c.level());
            assertTrue(c.mmapLen() > 0);
        }
    }

    private static String json(String text, String key) {
        Matcher m = Pattern.compile("\"" + key + "\":(\"([^\"]*)\"|([0-9a-z]+))").matcher(text);
        assertTrue(m.find(), key + " in prog-show.json");
        return m.group(2) != null ? m.group(2) : m.group(3);
    }

    /** BPF_PROG_INFO of bpf-sys against bpftool's view of the same program, and internal consistency. */
    @Test
    void bpfProgInfoOfBpfSys() throws Exception {
        String show = Files.readString(Fixtures.goldenFile("bpf-sys.prog-show.json"));
        try (PerfData d = open("bpf-sys")) {
            Feature.BpfProgInfo info = assertInstanceOf(Feature.BpfProgInfo.class,
                    Features.decode(FeatureId.BPF_PROG_INFO, d.features().get(FeatureId.BPF_PROG_INFO), d));
            long id = Long.parseLong(json(show, "id"));
            BpfProg p = info.programs().stream().filter(x -> x.info().id() == id).findFirst().orElseThrow();
            BpfProg.Info i = p.info();
            assertEquals("perfj_xdp", i.name());
            assertEquals(json(show, "tag"), HexFormat.of().formatHex(i.tag()));
            assertEquals(Long.parseLong(json(show, "bytes_xlated")), i.xlatedProgLen());
            assertEquals(Long.parseLong(json(show, "bytes_jited")), i.jitedProgLen());
            assertEquals(Long.parseLong(json(show, "btf_id")), i.btfId());
            assertTrue(i.gplCompatible());
            assertEquals(6, i.type(), "BPF_PROG_TYPE_XDP");

            // three functions: main plus two __noinline sub-programs
            assertTrue(p.jitedKsyms().length >= 2);
            assertEquals(3, p.jitedKsyms().length);
            assertEquals(p.jitedKsyms().length, p.jitedFuncLens().length);
            assertEquals(p.jitedKsyms().length, p.progTags().size());
            assertEquals(p.jitedKsyms().length, p.funcInfo().size());
            long sum = 0;
            for (long len : p.jitedFuncLens()) {
                sum += len;
            }
            assertEquals(i.jitedProgLen(), sum, "function lengths add up to the jited size");
            for (long k : p.jitedKsyms()) {
                assertTrue(Long.compareUnsigned(k, 0xffffffff00000000L) > 0, "kernel address");
            }
            if (p.hasArray(BpfProg.JITED_INSNS)) {
                assertEquals(i.jitedProgLen(), p.jitedInsns().length);
            }

            // line info: one jited address per record, each inside one of the functions
            assertTrue(p.lineInfo().size() > 0);
            assertEquals(i.nrLineInfo(), p.lineInfo().size());
            assertEquals(p.lineInfo().size(), p.jitedLineInfo().length);
            for (long addr : p.jitedLineInfo()) {
                boolean inside = false;
                for (int f = 0; f < p.jitedKsyms().length; f++) {
                    long lo = p.jitedKsyms()[f];
                    inside |= Long.compareUnsigned(addr, lo) >= 0 && Long.compareUnsigned(addr, lo + p.jitedFuncLens()[f]) < 0;
                }
                assertTrue(inside, "jited line address 0x" + Long.toHexString(addr) + " lies in a function");
            }

            // names and source files through the program's BTF
            Feature.BpfBtf btfs = assertInstanceOf(Feature.BpfBtf.class,
                    Features.decode(FeatureId.BPF_BTF, d.features().get(FeatureId.BPF_BTF), d));
            byte[] raw = btfs.entries().stream().filter(b -> b.id() == i.btfId()).findFirst().orElseThrow().data();
            BtfNames btf = BtfNames.parse(raw);
            assertNotNull(btf);
            assertEquals(List.of("perfj_xdp", "perfj_mix", "perfj_fold"),
                    p.funcInfo().stream().map(f -> btf.typeName(f.typeId())).toList());
            assertEquals("./src/prog.bpf.c", btf.string(p.lineInfo().getFirst().fileNameOff()));
            assertTrue(p.lineInfo().stream().allMatch(l -> l.line() > 0));
            assertEquals(0, p.funcInfo().getFirst().insnOff());
        }
    }

    @Test
    void bigEndianFollowsTheView() {
        // NRCPUS and a perf string written big-endian
        byte[] nr = {0, 0, 0, 4, 0, 0, 0, 2};
        Feature.NrCpus n = (Feature.NrCpus) Features.decode(FeatureId.NRCPUS, Bytes.of(nr, ByteOrder.BIG_ENDIAN, "t", "x"), null);
        assertEquals(2, n.online());
        assertEquals(4, n.available());
        byte[] s = {0, 0, 0, 8, 'h', 'o', 's', 't', 0, 0, 0, 0};
        assertEquals("host", ((Feature.Text) Features.decode(FeatureId.HOSTNAME, Bytes.of(s, ByteOrder.BIG_ENDIAN, "t", "x"), null)).value());
    }

    @Test
    void errorsNameTheFeatureAndTheAbsoluteOffset() {
        byte[] b = new byte[20];
        b[8] = (byte) 0xff; b[9] = (byte) 0xff; b[10] = (byte) 0xff; b[11] = (byte) 0xff;
        Bytes view = Bytes.of(java.lang.foreign.MemorySegment.ofArray(b), ByteOrder.LITTLE_ENDIAN, "x.data", "payload", 0x1000);
        // CMDLINE: a string length of 0xffffffff after one argument count
        b[0] = 2;
        b[4] = 0; // first string length 0 -> empty argv[0], then the next length is huge
        FormatException e = assertThrows(FormatException.class, () -> Features.decode(FeatureId.CMDLINE, view, null));
        assertTrue(e.getMessage().contains("feature CMDLINE"), e.getMessage());
        assertEquals(0x1008, e.offset());
        FormatException big = assertThrows(FormatException.class,
                () -> Features.decode(FeatureId.NUMA_TOPOLOGY, view.slice(8, 12), null));
        assertTrue(big.getMessage().contains("feature NUMA_TOPOLOGY"), big.getMessage());
    }

    @Test
    void unknownIdsStayRaw() {
        byte[] b = {1, 2, 3};
        Feature f = Features.decode(40, Bytes.of(b, ByteOrder.LITTLE_ENDIAN, "t", "x"), null);
        Feature.Raw r = assertInstanceOf(Feature.Raw.class, f);
        assertArrayEquals(b, r.bytes());
        assertEquals(40, r.id());
    }
}
