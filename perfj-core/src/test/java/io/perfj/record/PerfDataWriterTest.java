package io.perfj.record;

import io.perfj.perfdata.EventAttr;
import io.perfj.perfdata.FeatureId;
import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.RawRecord;
import io.perfj.perfdata.RecordInput;
import io.perfj.perfdata.SampleFormat;
import io.perfj.perfdata.feature.EventNames;
import io.perfj.perfdata.feature.Feature;
import io.perfj.perfdata.feature.Features;
import io.perfj.perfdata.record.KernelRecord;
import io.perfj.perfdata.record.PerfRecord;
import io.perfj.perfdata.record.RecordDecoder;
import io.perfj.perfdata.record.Sample;
import io.perfj.io.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The recorder's file writer, side-band synthesis and feature encoders, checked by perfj's own
 * reader (no perf_event_open needed): what is written is what the reader decodes.
 */
class PerfDataWriterTest {
    private static RecordOptions options(boolean systemWide, RecordOptions.CallGraph cg) {
        return new RecordOptions(List.of(), systemWide, -1, 4000, 0, cg, 8192, 128, Path.of("x.data"),
                List.of("true"), List.of("perfj", "record"));
    }

    /** A fake proc file system with kallsyms, one module and process 42 (two threads). */
    private static Path fakeProc(Path dir) throws Exception {
        Path proc = dir.resolve("proc");
        Files.createDirectories(proc.resolve("42/task/42"));
        Files.createDirectories(proc.resolve("42/task/43"));
        Files.writeString(proc.resolve("kallsyms"), "ffffffff81000000 T _text\nffffffff81000100 T start_kernel\n"
                + "ffffffff82000000 T _etext\n");
        Files.writeString(proc.resolve("modules"), "veth 45056 0 - Live 0xffffffffc0a00000\n");
        Files.writeString(proc.resolve("42/task/42/comm"), "hot\n");
        Files.writeString(proc.resolve("42/task/43/comm"), "worker\n");
        Files.writeString(proc.resolve("42/maps"), String.join("\n",
                "55a6bb436000-55a6bb437000 r--p 00000000 fe:00 5325601                    /usr/bin/hot",
                "55a6bb437000-55a6bb438000 r-xp 00001000 fe:00 5325601                    /usr/bin/hot",
                "7f2ccb4d7000-7f2ccb4d9000 r-xp 00000000 00:00 0                          [vdso]",
                "7f2ccb500000-7f2ccb501000 rwxp 00000000 00:00 0 ",
                "garbage line"));
        return proc;
    }

    private static List<PerfRecord> records(PerfData d) {
        List<PerfRecord> out = new ArrayList<>();
        RecordInput in = d.records();
        for (RawRecord r = in.next(); r != null; r = in.next()) {
            out.add(RecordDecoder.decode(r, d.evlist()));
        }
        return out;
    }

    private static byte[] sample(long identifier, long ip, int pid, int tid, long time, long period) {
        ByteBuffer b = ByteBuffer.allocate(8 + 40).order(ByteOrder.nativeOrder());
        b.putInt(9).putShort((short) 2).putShort((short) 48);
        b.putLong(identifier).putLong(ip).putInt(pid).putInt(tid).putLong(time).putLong(period);
        return b.array();
    }

    @Test
    void writtenFileReadsBackWithEventsRecordsAndFeatures(@TempDir Path dir) throws Exception {
        Path proc = fakeProc(dir);
        RecordOptions o = options(false, RecordOptions.CallGraph.NONE);
        EventAttr clock = Recorder.attr(EventSpec.parse("cpu-clock"), o, true, true, true);
        EventAttr faults = Recorder.attr(EventSpec.parse("page-faults:u"), o, false, true, true);
        Path file = dir.resolve("out.data");
        List<PerfDataWriter.Event> events = List.of(new PerfDataWriter.Event(clock, new long[] {7, 8}, "cpu-clock"),
                new PerfDataWriter.Event(faults, new long[] {9, 10}, "page-faults:u"));
        try (PerfDataWriter w = new PerfDataWriter(file, events)) {
            Synthesizer s = new Synthesizer(proc, SampleFormat.idTrailerSize(clock.sampleType()), w::write);
            assertTrue(s.kernel());
            s.process(42, true);
            w.write(sample(8, 0x55a6bb437123L, 42, 43, 1000, 250000));
            w.write(sample(9, 0x55a6bb437456L, 42, 42, 2000, 1));
            w.write(Synthesizer.finishedRound());
            w.finishData();
            try (PerfData d = PerfData.open(file)) {
                assertEquals(2, d.evlist().evsels().size());
                assertArrayEquals(new long[] {9, 10}, d.evlist().evsels().get(1).ids());
                assertEquals(clock, d.evlist().evsels().get(0).attr());
                assertTrue(d.features().isEmpty());
                assertEquals(10, records(d).size(), "2 kernel maps, 2 COMMs, 3 MMAP2s, 2 samples, a round");
            }
            w.finish(List.of(new Feature.Text(FeatureId.HOSTNAME, "box"), new Feature.Cmdline(List.of("perfj", "record")),
                    new Feature.EventDesc(List.of(new Feature.EventDesc.Event(clock, "cpu-clock", new long[] {7, 8}),
                            new Feature.EventDesc.Event(faults, "page-faults:u", new long[] {9, 10}))),
                    new Feature.SampleTime(1000, 2000)));
        }
        try (PerfData d = PerfData.open(file)) {
            assertEquals(List.of("cpu-clock", "page-faults:u"), EventNames.names(d));
            Map<Integer, Feature> f = Features.decodeAll(d);
            assertEquals(List.of(FeatureId.HOSTNAME, FeatureId.CMDLINE, FeatureId.EVENT_DESC, FeatureId.SAMPLE_TIME),
                    List.copyOf(f.keySet()));
            assertEquals(new Feature.SampleTime(1000, 2000), f.get(FeatureId.SAMPLE_TIME));
            assertEquals(new Feature.Text(FeatureId.HOSTNAME, "box"), f.get(FeatureId.HOSTNAME));
            List<PerfRecord> r = records(d);
            KernelRecord.Mmap k = assertInstanceOf(KernelRecord.Mmap.class, r.get(0));
            assertEquals(-1, k.pid());
            assertEquals(0xffffffff81000000L, k.start());
            assertEquals(0x1000000L, k.len());
            assertEquals(0xffffffff81000000L, k.pgoff());
            assertEquals("[kernel.kallsyms]_text", k.filename());
            KernelRecord.Mmap mod = assertInstanceOf(KernelRecord.Mmap.class, r.get(1));
            assertEquals("[veth]", mod.filename());
            assertEquals(45056, mod.len());
            KernelRecord.Comm c1 = assertInstanceOf(KernelRecord.Comm.class, r.get(2));
            KernelRecord.Comm c2 = assertInstanceOf(KernelRecord.Comm.class, r.get(3));
            assertEquals(List.of("hot", 42, "worker", 43), List.of(c1.comm(), c1.tid(), c2.comm(), c2.tid()));
            KernelRecord.Mmap2 text = assertInstanceOf(KernelRecord.Mmap2.class, r.get(4));
            assertEquals(List.of(0x55a6bb437000L, 0x1000L, 0x1000L, 0xfe, 0, 5325601L, 5, 2, "/usr/bin/hot"),
                    List.of(text.start(), text.len(), text.pgoff(), text.maj(), text.min(), text.ino(), text.prot(),
                            text.flags(), text.filename()));
            assertEquals("[vdso]", assertInstanceOf(KernelRecord.Mmap2.class, r.get(5)).filename());
            KernelRecord.Mmap2 anon = assertInstanceOf(KernelRecord.Mmap2.class, r.get(6));
            assertEquals(List.of("//anon", 7), List.of(anon.filename(), anon.prot()));
            Sample s1 = assertInstanceOf(Sample.class, r.get(7));
            assertEquals(0, s1.evsel().index());
            assertEquals(List.of(0x55a6bb437123L, 43, 1000L, 250000L), List.of(s1.ip(), s1.tid(), s1.time(), s1.period()));
            Sample s2 = assertInstanceOf(Sample.class, r.get(8));
            assertEquals(1, s2.evsel().index());
        }
    }

    @Test
    void runsOfRecordsInNativeMemoryKeepTheirPlaceAmongBufferedOnes(@TempDir Path dir) throws Exception {
        RecordOptions o = options(false, RecordOptions.CallGraph.NONE);
        EventAttr clock = Recorder.attr(EventSpec.parse("cpu-clock"), o, true, true, true);
        Path file = dir.resolve("out.data");
        List<Long> ips = new ArrayList<>();
        long next = 0x1000;
        try (PerfDataWriter w = new PerfDataWriter(file, List.of(new PerfDataWriter.Event(clock, new long[] {7}, "cpu-clock")));
             java.lang.foreign.Arena a = java.lang.foreign.Arena.ofConfined()) {
            // a run long enough to go straight to the file, one short enough to be buffered, and
            // single records between and after them
            for (int run : new int[] {1, 3000, 1, 10, 1, 2500}) {
                java.lang.foreign.MemorySegment m = a.allocate(48L * run, 8);
                for (int i = 0; i < run; i++) {
                    java.lang.foreign.MemorySegment.copy(sample(7, next, 42, 42, next, 1), 0, m,
                            java.lang.foreign.ValueLayout.JAVA_BYTE, 48L * i, 48);
                    ips.add(next++);
                }
                if (run == 1) {
                    w.write(m.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
                } else {
                    // offset into a larger mapping, as a ring's run is
                    java.lang.foreign.MemorySegment ring = a.allocate(48L * run + 64, 8);
                    java.lang.foreign.MemorySegment.copy(m, 0, ring, 64, 48L * run);
                    w.write(ring, 64, 48L * run);
                }
            }
            assertEquals(48L * ips.size(), w.dataSize());
            w.finishData();
        }
        try (PerfData d = PerfData.open(file)) {
            List<Long> read = new ArrayList<>();
            for (PerfRecord r : records(d)) {
                read.add(assertInstanceOf(Sample.class, r).ip());
            }
            assertEquals(ips.size(), read.size());
            for (int i = 0; i < ips.size(); i++) {
                assertEquals(ips.get(i), read.get(i), "record " + i + " out of place");
            }
        }
    }

    @Test
    void automaticRingsAreEightMebibytesUpTo64MebibytesInAll() {
        assertEquals(2048, RecordOptions.autoPages(1));
        assertEquals(2048, RecordOptions.autoPages(2));
        assertEquals(2048, RecordOptions.autoPages(8));
        assertEquals(1024, RecordOptions.autoPages(9));
        assertEquals(512, RecordOptions.autoPages(17));
        assertEquals(128, RecordOptions.autoPages(128));
        assertEquals(RecordOptions.DEFAULT_PAGES, RecordOptions.autoPages(4096), "never below perf's default");
        for (int cpus = 1; cpus <= 4096; cpus++) {
            int p = RecordOptions.autoPages(cpus);
            assertEquals(1, Integer.bitCount(p));
            assertTrue(p == RecordOptions.DEFAULT_PAGES || (long) p * cpus <= 16384, cpus + " CPUs: " + p);
        }
    }

    @Test
    void attrsFollowPerfRecordsChoices() {
        EventAttr a = Recorder.attr(EventSpec.parse("cpu-clock"), options(true, RecordOptions.CallGraph.FP), true, false, false);
        assertEquals(SampleFormat.IP | SampleFormat.TID | SampleFormat.TIME | SampleFormat.PERIOD | SampleFormat.CPU
                | SampleFormat.CALLCHAIN, a.sampleType());
        assertEquals(4000, a.samplePeriod());
        assertTrue(a.freq() && a.sampleIdAll() && a.flag(0) && a.flag(8) && a.flag(23) && a.flag(29) && a.flag(30));
        assertFalse(a.flag(1), "no inherit system-wide");
        assertFalse(a.flag(12), "no enable_on_exec system-wide");
        assertEquals("cpu-clock", EventNames.defaultName(a));
        EventAttr d = Recorder.attr(EventSpec.parse("task-clock:k"), options(false, RecordOptions.CallGraph.DWARF), false, true, true);
        assertTrue(d.has(SampleFormat.REGS_USER) && d.has(SampleFormat.STACK_USER) && d.has(SampleFormat.IDENTIFIER));
        assertEquals(8192, d.sampleStackUser());
        assertTrue(d.flag(1) && d.flag(12) && d.flag(22) && d.flag(4));
        assertFalse(d.flag(8), "only the first event tracks mmaps");
        assertTrue(d.flag(6), "k alone excludes the hypervisor too, as perf's modifier does");
        assertEquals(EventAttr.SIZE_VER7, d.encode(ByteOrder.LITTLE_ENDIAN, d.size()).length);
        assertEquals(d, EventAttr.read(Bytes.of(d.encode(ByteOrder.BIG_ENDIAN, 128), ByteOrder.BIG_ENDIAN, "t", "attr")));
    }

    @Test
    void eventNamesParse() {
        assertEquals(new EventSpec("cs", 1, 3, false, false, 0), EventSpec.parse("cs"));
        assertEquals(new EventSpec("cycles:upp", 0, 0, false, true, 2), EventSpec.parse("cycles:upp"));
        assertEquals(2, EventSpec.parseList("instructions,page-faults").size());
        assertThrows(IllegalArgumentException.class, () -> EventSpec.parse("no-such-event"));
        assertThrows(IllegalArgumentException.class, () -> EventSpec.parse("cycles:x"));
    }

    @Test
    void cacheAndMemoryTopologyAreReadAsPerfReadsThem(@TempDir Path dir) throws Exception {
        Path sys = dir.resolve("sys");
        String[][] caches = {{"1", "Data", "32K"}, {"1", "Instruction", "32K"}, {"2", "Unified", "1024K"}, {"3", "Unified", "32768K"}};
        for (int cpu = 0; cpu < 2; cpu++) {
            Files.createDirectories(sys.resolve("devices/system/cpu/cpu" + cpu + "/topology"));
            for (int i = 0; i < caches.length; i++) {
                Path d = Files.createDirectories(sys.resolve("devices/system/cpu/cpu" + cpu + "/cache/index" + i));
                Files.writeString(d.resolve("level"), caches[i][0] + "\n");
                Files.writeString(d.resolve("type"), caches[i][1] + "\n");
                Files.writeString(d.resolve("size"), caches[i][2] + "\n");
                Files.writeString(d.resolve("coherency_line_size"), "64\n");
                Files.writeString(d.resolve("number_of_sets"), "64\n");
                Files.writeString(d.resolve("ways_of_associativity"), "8\n");
                Files.writeString(d.resolve("shared_cpu_list"), (i == 3 ? "0-1" : Integer.toString(cpu)) + "\n");
            }
        }
        Files.createDirectories(sys.resolve("devices/system/memory"));
        Files.writeString(sys.resolve("devices/system/memory/block_size_bytes"), "8000000\n");
        for (int b : new int[] {0, 1, 2, 70}) {
            Files.createDirectories(sys.resolve("devices/system/node/node0/memory" + b));
        }
        Files.writeString(sys.resolve("devices/system/node/node0/cpulist"), "0-1\n");
        Map<Integer, Feature> f = new java.util.HashMap<>();
        for (Feature x : new HostFeatures(dir.resolve("proc"), sys).collect()) {
            f.put(x.id(), x);
        }
        Feature.Cache c = (Feature.Cache) f.get(FeatureId.CACHE);
        assertEquals(List.of("1 Data 0", "1 Instruction 0", "1 Data 1", "1 Instruction 1", "2 Unified 0", "2 Unified 1",
                "3 Unified 0-1"), c.levels().stream().map(l -> l.level() + " " + l.type() + " " + l.map()).toList(),
                "each cache once (the shared L3 too), by level, as perf lists them");
        Feature.MemTopology m = (Feature.MemTopology) f.get(FeatureId.MEM_TOPOLOGY);
        assertEquals(0x8000000L, m.blockSize());
        assertEquals(71, m.nodes().getFirst().bits(), "one past the highest block");
        assertEquals(4, m.nodes().getFirst().weight());
    }

    /** CPU_PMU_CAPS and PMU_CAPS from each event source's caps/ directory, as perf 6.1 reads them. */
    @Test
    void pmuCapabilitiesAreReadAsPerfReadsThem(@TempDir Path dir) throws Exception {
        Path devices = Files.createDirectories(dir.resolve("sys/bus/event_source/devices"));
        String[][] pmus = {{"cpu", "4"}, {"ibs_op", "11"}, {"software", "1"}, {"notype", null}};
        for (String[] pmu : pmus) {
            Path d = Files.createDirectories(devices.resolve(pmu[0]));
            if (pmu[1] != null) {
                Files.writeString(d.resolve("type"), pmu[1] + "\n");
            }
        }
        Path cpu = Files.createDirectories(devices.resolve("cpu/caps"));
        Files.writeString(cpu.resolve("branches"), "32\n");
        Files.writeString(cpu.resolve("pmu_name"), "skylake\n");
        Files.writeString(cpu.resolve("empty"), "");
        Path ibs = Files.createDirectories(devices.resolve("ibs_op/caps"));
        Files.writeString(ibs.resolve("zen4_ibs_extensions"), "1\n");
        Files.writeString(ibs.resolve("no_newline"), "12");
        Files.writeString(ibs.resolve("long"), "x".repeat(200) + "\n");
        Files.createDirectories(devices.resolve("software/caps"));
        Files.createDirectories(devices.resolve("notype/caps"));
        Files.writeString(devices.resolve("notype/caps/x"), "1\n");
        Map<Integer, Feature> f = new java.util.HashMap<>();
        for (Feature x : new HostFeatures(dir.resolve("proc"), dir.resolve("sys")).collect()) {
            f.put(x.id(), x);
        }
        Feature.CpuPmuCaps c = (Feature.CpuPmuCaps) f.get(FeatureId.CPU_PMU_CAPS);
        assertEquals(List.of("branches=32", "pmu_name=skylake"), sortedCaps(c.caps()), "an empty file is no capability");
        Feature.PmuCaps p = (Feature.PmuCaps) f.get(FeatureId.PMU_CAPS);
        assertEquals(List.of("ibs_op"), p.pmus().stream().map(Feature.PmuCaps.Pmu::name).toList(),
                "not the cpu PMU (CPU_PMU_CAPS has it), not one without capabilities or without a type");
        assertEquals(List.of("long=" + "x".repeat(126), "no_newline=1", "zen4_ibs_extensions=1"),
                sortedCaps(p.pmus().getFirst().caps()), "fgets of 128 bytes, the last character dropped, as perf does");
        // the layout perf 6.1 reads: u32 PMUs; per PMU u32 capabilities, name/value strings, then the PMU's name
        byte[] b = io.perfj.perfdata.feature.FeatureEncoder.encode(new Feature.PmuCaps(List.of(new Feature.PmuCaps.Pmu(
                "ibs_op", List.of(new Feature.Cap("a", "1"))))), ByteOrder.LITTLE_ENDIAN);
        ByteBuffer bb = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(1, bb.getInt(0));
        assertEquals(1, bb.getInt(4));
        assertEquals(64, bb.getInt(8));
        assertEquals('a', b[12]);
        assertEquals(64, bb.getInt(76));
        assertEquals('1', b[80]);
        assertEquals(64, bb.getInt(144));
        assertEquals("ibs_op", new String(b, 148, 6, java.nio.charset.StandardCharsets.US_ASCII));
        assertEquals(4 + 4 + 3 * 68, b.length);
        List<Feature> none = new HostFeatures(dir.resolve("proc"), dir.resolve("nosys")).collect();
        assertEquals(List.of(new Feature.PmuCaps(List.of())), none.stream().filter(x -> x.id() == FeatureId.PMU_CAPS
                || x.id() == FeatureId.CPU_PMU_CAPS).toList(), "no event sources: PMU_CAPS of none, as perf writes it");
    }

    private static List<String> sortedCaps(List<Feature.Cap> caps) {
        return caps.stream().map(x -> x.name() + "=" + x.value()).sorted().toList();
    }

    @Test
    void theKernelMapRunsFromTextToEtextWithoutIomem(@TempDir Path dir) throws Exception {
        Path proc = fakeProc(dir);
        Files.writeString(proc.resolve("kallsyms"), "0000000000000000 A fixed_percpu_data\n"
                + "ffffffff81000000 T _text\nffffffff81000100 T start_kernel\n"
                + "ffffffff82000000 T _etext\nffffffff82100000 D some_data\nffffffffc0a00000 t veth_open\t[veth]\n"
                + "ffffffffc0b01000 t bpf_prog_0123456789abcdef_hello\t[bpf]\nffffffffc0b02000 T _etext\t[bpf]\n");
        List<byte[]> out = new ArrayList<>();
        Synthesizer s = new Synthesizer(proc, 16, out::add);
        assertTrue(s.kernel());
        ByteBuffer text = ByteBuffer.wrap(out.getFirst()).order(ByteOrder.nativeOrder());
        assertEquals(0xffffffff81000000L, text.getLong(16), "the kernel's _text, not a module's");
        assertEquals(0x1000000L, text.getLong(24), "up to the core kernel's _etext, not a [module] symbol's");
    }

    /**
     * On x86-64 the map's length is iomem's "Kernel code" ([_text, _etext) in physical
     * addresses) and kallsyms is read only up to _text: here the rest has no _etext at all.
     */
    @Test
    void onX86TheKernelCodeRangeOfIomemEndsTheMap(@TempDir Path dir) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(List.of("amd64", "x86_64").contains(System.getProperty("os.arch")),
                "iomem's Kernel code is [_text, _etext) only on x86-64");
        Path proc = fakeProc(dir);
        StringBuilder rest = new StringBuilder("ffffffff81000000 T _text\n");
        for (int i = 0; i < 20_000; i++) {
            rest.append(String.format("ffffffff81%06x t f%d%n", i * 16, i));
        }
        Files.writeString(proc.resolve("kallsyms"), rest);
        Files.writeString(proc.resolve("iomem"), "00000000-00000fff : Reserved\n00100000-bfffffff : System RAM\n"
                + "  01000000-02276987 : Kernel code\n  02400000-02e0afff : Kernel rodata\n");
        List<byte[]> out = new ArrayList<>();
        assertTrue(new Synthesizer(proc, 16, out::add).kernel());
        ByteBuffer text = ByteBuffer.wrap(out.getFirst()).order(ByteOrder.nativeOrder());
        assertEquals(0xffffffff81000000L, text.getLong(16));
        assertEquals(0x1276988L, text.getLong(24), "02276987 - 01000000 + 1");
        Files.writeString(proc.resolve("iomem"), "00000000-00000000 : Kernel code\n");
        assertFalse(new Synthesizer(proc, 16, r -> { }).kernel(), "hidden iomem: the rest of kallsyms, which has no _etext");
    }

    /** The vdso's build-id from a process's own mapping of it, as perf takes it for [vdso] in BUILD_ID. */
    @Test
    void theVdsosBuildIdIsReadFromTheMapping(@TempDir Path dir) throws Exception {
        byte[] elf = Files.readAllBytes(io.perfj.testing.Fixtures.file("bin/hot"));
        Path proc = Files.createDirectories(dir.resolve("self"));
        byte[] mem = new byte[0x1000 + elf.length];
        System.arraycopy(elf, 0, mem, 0x1000, elf.length);
        Files.write(proc.resolve("mem"), mem);
        Files.writeString(proc.resolve("maps"), String.format("%x-%x r-xp 00000000 00:00 0                          [vvar]%n"
                + "%x-%x r-xp 00000000 00:00 0                          [vdso]%n", 0, 0x1000, 0x1000, 0x1000 + elf.length));
        assertEquals("e2db302c322df9b8b21885b46c9d468e43446773",
                java.util.HexFormat.of().formatHex(SampledObjects.runningVdsoBuildId(proc)));
        Files.writeString(proc.resolve("maps"), "");
        assertNull(SampledObjects.runningVdsoBuildId(proc), "no vdso mapped");
        Path self = Path.of("/proc/self/maps");
        if (Files.isReadable(self) && Files.readString(self).contains("[vdso]")) {
            assertEquals(20, SampledObjects.runningVdsoBuildId(Path.of("/proc/self")).length, "this machine's vdso");
        }
    }

    @Test
    void clockidIsPerfs() {
        assertEquals(1, RecordOptions.parseClockid("mono"));
        assertEquals(1, RecordOptions.parseClockid("CLOCK_MONOTONIC"));
        assertEquals(4, RecordOptions.parseClockid("raw"));
        assertEquals(0, RecordOptions.parseClockid("realtime"));
        assertEquals(7, RecordOptions.parseClockid("boot"));
        assertEquals(11, RecordOptions.parseClockid("tai"));
        assertEquals(5, RecordOptions.parseClockid("5"));
        assertThrows(IllegalArgumentException.class, () -> RecordOptions.parseClockid("sundial"));
        RecordOptions o = new RecordOptions(List.of(), false, -1, 999, 0, RecordOptions.CallGraph.NONE, 8192, 128,
                Path.of("x.data"), List.of("true"), List.of("perfj", "record"), 1);
        EventAttr a = Recorder.attr(EventSpec.parse("cpu-clock"), o, true, false, true);
        assertTrue(a.flag(25), "use_clockid");
        assertEquals(1, a.clockid());
        assertFalse(Recorder.attr(EventSpec.parse("cpu-clock"), options(false, RecordOptions.CallGraph.NONE), true, false, true).flag(25));
    }

    @Test
    void synthesizerSkipsWhatPerfSkips(@TempDir Path dir) throws Exception {
        Path proc = dir.resolve("proc");
        Files.createDirectories(proc);
        Files.writeString(proc.resolve("kallsyms"), "0000000000000000 T _text\n0000000000000000 T _etext\n");
        List<byte[]> out = new ArrayList<>();
        Synthesizer s = new Synthesizer(proc, 16, out::add);
        assertFalse(s.kernel(), "addresses hidden by kptr_restrict");
        assertNull(s.mapsLine(1, "55a6bb436000-55a6bb437000 r--p 00000000 fe:00 5325601 /usr/bin/hot"));
        assertNull(s.mapsLine(1, "zzzz-1000 r-xp 00000000 fe:00 5 /x"));
        assertEquals(List.of(1), s.threads(1));
        assertTrue(out.isEmpty());
    }

    /** The SAMPLE records perfj's reader gives (their ips), with its warnings. */
    private static List<Long> sampleIps(Path file, List<String> warnings) throws Exception {
        List<Long> ips = new ArrayList<>();
        try (PerfData d = PerfData.open(file)) {
            warnings.addAll(d.warnings());
            for (PerfRecord r : records(d)) {
                if (r instanceof Sample smp) {
                    ips.add(smp.ip());
                }
            }
        }
        return ips;
    }

    /**
     * A recorder killed at any point leaves a readable file: the header (attrs, data size 0) is
     * on disk before the first record, and each pass's end brings the data size up to it, so a
     * reader (perf 6.1 too, which reads no file of data size 0) stops at the last pass's end,
     * never in the torn records of a pass that was being written.
     */
    @Test
    void aFileLeftAtAnyPointReadsUpToItsLastPass(@TempDir Path dir) throws Exception {
        RecordOptions o = options(false, RecordOptions.CallGraph.NONE);
        EventAttr clock = Recorder.attr(EventSpec.parse("cpu-clock"), o, true, true, true);
        Path file = dir.resolve("left.data");
        try (PerfDataWriter w = new PerfDataWriter(file, List.of(new PerfDataWriter.Event(clock, new long[] {7}, "cpu-clock")))) {
            List<String> warnings = new ArrayList<>();
            assertEquals(List.of(), sampleIps(file, warnings), "before the first record");
            assertTrue(warnings.getFirst().contains("data size field is 0"), warnings.toString());
            w.write(sample(7, 0x1000, 42, 42, 1, 1));
            w.write(sample(7, 0x1001, 42, 42, 2, 1));
            w.write(Synthesizer.finishedRound());
            w.endOfPass();
            // a pass in progress: a record (buffered, it goes out before the run) and a run of
            // records written straight to the file, cut in the middle of its last one
            w.write(sample(7, 0x1002, 42, 42, 3, 1));
            java.lang.foreign.MemorySegment big = java.lang.foreign.Arena.ofAuto().allocate(40L << 10, 8);
            for (long at = 0; at + 48 <= big.byteSize(); at += 48) {
                java.lang.foreign.MemorySegment.copy(sample(7, 0x2000, 42, 42, 5, 1), 0, big,
                        java.lang.foreign.ValueLayout.JAVA_BYTE, at, 48);
            }
            w.write(big, 0, (40L << 10) - 24);
            warnings.clear();
            assertEquals(List.of(0x1000L, 0x1001L), sampleIps(file, warnings), "the last pass");
            assertEquals(List.of(), warnings);
            // a failed write: salvage keeps every whole record, the torn one is cut off
            w.salvage();
            warnings.clear();
            List<Long> ips = sampleIps(file, warnings);
            assertEquals(List.of(), warnings);
            assertEquals(List.of(0x1000L, 0x1001L, 0x1002L), ips.subList(0, 3));
            assertEquals(3 + (int) (((40L << 10) - 24) / 48), ips.size(), "the whole records of the run");
            try (PerfData d = PerfData.open(file)) {
                assertEquals(48L * ips.size() + 8, d.header().data().size());
                assertEquals(Files.size(file), d.header().data().end(), "the file ends with the last whole record");
            }
        }
    }

    /** A write that fails is one line naming the file and the cause, of a type the recorder stops on. */
    @Test
    void aFileThatCannotBeMadeIsOneLine(@TempDir Path dir) {
        RecordOptions o = options(false, RecordOptions.CallGraph.NONE);
        EventAttr clock = Recorder.attr(EventSpec.parse("cpu-clock"), o, true, true, true);
        Path file = dir.resolve("missing/x.data");
        PerfDataWriter.OutputFailed e = assertThrows(PerfDataWriter.OutputFailed.class,
                () -> new PerfDataWriter(file, List.of(new PerfDataWriter.Event(clock, new long[] {7}, "cpu-clock"))));
        assertEquals("cannot write " + file + ": no such directory", e.getMessage());
    }

    /** perf's names for what its paranoid fallback records: u added to the modifiers. */
    @Test
    void aUserOnlyFallbackIsNamedAsPerfNamesIt() {
        assertEquals("cpu-clock:u", EventSpec.parse("cpu-clock").userOnly().name());
        assertEquals("cycles:ppu", EventSpec.parse("cycles:pp").userOnly().name());
        EventSpec u = EventSpec.parse("cpu-clock:p").userOnly();
        assertEquals("cpu-clock:pu", u.name());
        assertTrue(u.excludeKernel() && !u.excludeUser() && u.precise() == 1);
        assertEquals(u, EventSpec.parse("cpu-clock:pu"));
    }
}
