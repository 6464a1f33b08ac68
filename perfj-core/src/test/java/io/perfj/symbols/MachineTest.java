package io.perfj.symbols;

import io.perfj.io.Bytes;
import io.perfj.perfdata.RawRecord;
import io.perfj.perfdata.RecordType;
import io.perfj.perfdata.record.KernelRecord;
import io.perfj.perfdata.record.SampleId;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Record processing on hand-made records. */
class MachineTest {
    private static final int USER = KernelRecord.MISC_USER;
    private static final int KERNEL = KernelRecord.MISC_KERNEL;

    @TempDir
    Path tmp;

    static RawRecord raw(int type, int misc) {
        return new RawRecord(0, type, misc, Bytes.of(new byte[8], ByteOrder.LITTLE_ENDIAN, "test", "record"), false);
    }

    static SampleId at(long time) {
        return new SampleId(0, -1, -1, time, -1, -1, -1, 0);
    }

    static KernelRecord.Fork fork(int pid, int ppid, int tid, int ptid) {
        return new KernelRecord.Fork(raw(RecordType.FORK, 0), pid, ppid, tid, ptid, 0, at(1));
    }

    static KernelRecord.Comm comm(int pid, int tid, String name, boolean exec, long time) {
        return new KernelRecord.Comm(raw(RecordType.COMM, exec ? KernelRecord.MISC_COMM_EXEC : 0), pid, tid, name,
                at(time));
    }

    static KernelRecord.Mmap2 mmap2(int pid, long start, long len, long pgoff, String file, byte[] bid) {
        int misc = USER | (bid != null ? KernelRecord.MISC_MMAP_BUILD_ID : 0);
        return new KernelRecord.Mmap2(raw(RecordType.MMAP2, misc), pid, pid, start, len, pgoff, 0, 0, 0, 0, bid,
                Map.PROT_EXEC | 1, 2, file, at(2));
    }

    Machine machine() {
        return new Machine(null, SymbolOptions.builder().buildIdDir(tmp.resolve("cache")).perfMapDir(tmp).noSystemFiles().build());
    }

    @Test
    void threadsShareTheirProcessMapsAndANewProcessGetsACopy() {
        Machine m = machine();
        m.process(comm(100, 100, "app", true, 1));
        m.process(mmap2(100, 0x400000, 0x1000, 0x1000, "/bin/app", null));
        m.process(fork(100, 100, 101, 100)); // a thread
        m.process(fork(200, 100, 200, 100)); // a process
        Thread leader = m.thread(100, 100);
        Thread thread = m.thread(100, 101);
        Thread child = m.thread(200, 200);
        assertSame(leader.maps(), thread.maps());
        assertNotSame(leader.maps(), child.maps());
        assertEquals("app", thread.comm());
        assertEquals("app", child.comm());
        assertEquals(100, child.ppid());
        Location l = m.resolve(child, Machine.CPUMODE_USER, 0x400010);
        assertEquals("/bin/app", l.dso().longName());
        assertEquals(0x1010, l.mapIp());
        assertEquals('.', l.level());
        // the child's exec-time mmaps do not touch the parent
        m.process(mmap2(200, 0x400000, 0x2000, 0, "/bin/other", null));
        assertEquals("/bin/other", m.resolve(child, 2, 0x400010).dso().longName());
        assertEquals("/bin/app", m.resolve(thread, 2, 0x400010).dso().longName());
    }

    @Test
    void aReusedTidIsTheNewThreadAndTidsSharingALookupSlotStayApart() {
        Machine m = machine();
        m.process(comm(100, 100, "app", true, 1));
        m.process(fork(100, 100, 101, 100));
        Thread first = m.findThread(100, 101);
        assertSame(first, m.findThread(100, 101));
        // 101 and 101 + 64k land in the same slot of the recent-threads table
        m.process(fork(100, 100, 101 + 64 * 1024, 100));
        Thread other = m.findThread(100, 101 + 64 * 1024);
        assertEquals(101 + 64 * 1024, other.tid());
        assertSame(first, m.findThread(100, 101));
        assertSame(other, m.findThread(100, 101 + 64 * 1024));
        // the tid comes back in a fork: the old thread is replaced, and no lookup returns it
        m.process(fork(100, 100, 101, 100));
        Thread second = m.findThread(100, 101);
        assertNotSame(first, second);
        assertSame(second, m.thread(100, 101));
        assertTrue(m.threads().contains(second));
        assertFalse(m.threads().contains(first));
    }

    @Test
    void aThreadSeenBeforeItsPidJoinsTheLeadersMaps() {
        Machine m = machine();
        m.process(mmap2(300, 0x1000, 0x1000, 0, "/lib/x.so", null));
        Thread t = m.thread(-1, 301);
        assertEquals(-1, t.pid());
        assertEquals(":301", t.comm());
        Thread again = m.thread(300, 301);
        assertSame(t, again);
        assertSame(m.thread(300, 300).maps(), t.maps());
    }

    @Test
    void commHistoryAndExec() {
        Machine m = machine();
        m.process(comm(5, 5, "sh", false, 10));
        m.process(mmap2(5, 0x1000, 0x1000, 0, "/bin/sh", null));
        m.process(comm(5, 5, "ls", true, 20));
        Thread t = m.thread(5, 5);
        assertEquals("ls", t.comm());
        assertEquals("sh", t.commAt(15));
        assertEquals("ls", t.commAt(25));
        assertTrue(m.commExec());
        assertNotNull(m.resolve(t, 2, 0x1800).map(), "perf keeps the maps across exec");

        Machine clearing = machine();
        clearing.execClearsMaps(true);
        clearing.process(mmap2(5, 0x1000, 0x1000, 0, "/bin/sh", null));
        clearing.process(comm(5, 5, "ls", true, 20));
        assertNull(clearing.resolve(clearing.thread(5, 5), 2, 0x1800).map());
    }

    @Test
    void idleThreadIsSwapper() {
        assertEquals("swapper", machine().thread(0, 0).comm());
    }

    @Test
    void mmap2BuildIdSetsTheDsoBuildId() {
        Machine m = machine();
        byte[] bid = HexFormat.of().parseHex("e2db302c322df9b8b21885b46c9d468e43446773");
        m.process(mmap2(7, 0x5000, 0x1000, 0, "/bin/hot", bid));
        Location l = m.resolve(m.thread(7, 7), 2, 0x5000);
        assertEquals("e2db302c322df9b8b21885b46c9d468e43446773", l.dso().buildIdHex());
    }

    @Test
    void kernelMapsModulesAndBpf() {
        Machine m = machine();
        m.process(new KernelRecord.Mmap(raw(RecordType.MMAP, KERNEL), -1, 0, 0xffffffff81000000L, 0x1000000,
                0xffffffff81000000L, "[kernel.kallsyms]_text", at(0)));
        m.process(new KernelRecord.Mmap(raw(RecordType.MMAP, KERNEL), -1, 0, 0xffffffffc0000000L, 0x4000, 0,
                "/lib/modules/6.1/kernel/fs/foo-bar.ko", at(0)));
        m.process(new KernelRecord.Ksymbol(raw(RecordType.KSYMBOL, KERNEL), 0xffffffffc0010000L, 0x40,
                Machine.KSYMBOL_TYPE_BPF, 0, "bpf_prog_0123456789abcdef_f", at(0)));
        Thread t = m.thread(1, 1);
        Location k = m.resolve(t, Machine.CPUMODE_KERNEL, 0xffffffff81000100L);
        assertEquals("[kernel.kallsyms]", k.dso().longName());
        assertEquals(0xffffffff81000100L, k.mapIp());
        assertEquals('k', k.level());
        Location mod = m.resolve(t, 1, 0xffffffffc0000010L);
        assertEquals(DsoKind.KERNEL_MODULE, mod.dso().kind());
        assertNotNull(m.kernelMaps().findByName("[foo_bar]"));
        Location bpf = m.resolve(t, 1, 0xffffffffc0010008L);
        assertEquals("bpf_prog_0123456789abcdef_f", bpf.dso().longName());
        assertEquals("bpf_prog_0123456789abcdef_f", bpf.symbol().name());
        assertEquals(8, bpf.symbolOffset());
        m.process(new KernelRecord.Ksymbol(raw(RecordType.KSYMBOL, KERNEL), 0xffffffffc0010000L, 0x40,
                Machine.KSYMBOL_TYPE_BPF, Machine.KSYMBOL_FLAGS_UNREGISTER, "bpf_prog_0123456789abcdef_f", at(9)));
        assertNull(m.resolve(t, 1, 0xffffffffc0010008L).map());
        assertNull(m.resolve(t, Machine.CPUMODE_USER, 0xffffffff81000100L).map(), "user mode: thread maps");
        assertEquals('H', m.resolve(t, Machine.CPUMODE_HYPERVISOR, 1).level());
    }

    /** A module without its .ko file gets its symbols from the kallsyms lines tagged with it. */
    @Test
    void moduleSymbolsFromKallsymsWithoutTheKoFile() throws IOException {
        Path kallsyms = tmp.resolve("kallsyms");
        Files.writeString(kallsyms, String.join("\n",
                "ffffffff81000000 T _stext",
                "ffffffff81000100 T start_kernel",
                "ffffffffc0000000 t foo_init\t[foo_bar]",
                "ffffffffc0000040 t foo_work\t[foo_bar]",
                "ffffffffc0001000 t other_fn\t[other]", ""));
        Machine m = new Machine(null, SymbolOptions.builder().buildIdDir(tmp.resolve("cache")).kallsyms(kallsyms).perfMapDir(tmp).noSystemFiles().build());
        m.process(new KernelRecord.Mmap(raw(RecordType.MMAP, KERNEL), -1, 0, 0xffffffff81000000L, 0x1000000,
                0xffffffff81000000L, "[kernel.kallsyms]_text", at(0)));
        m.process(new KernelRecord.Mmap(raw(RecordType.MMAP, KERNEL), -1, 0, 0xffffffffc0000000L, 0x1000, 0,
                "/lib/modules/6.1/kernel/fs/foo-bar.ko", at(0)));
        Location l = m.resolve(m.thread(1, 1), Machine.CPUMODE_KERNEL, 0xffffffffc0000048L);
        assertEquals(DsoKind.KERNEL_MODULE, l.dso().kind());
        assertNotNull(l.symbol(), "module symbol from kallsyms");
        assertEquals("foo_work", l.symbol().name());
        assertEquals(8, l.symbolOffset());
        assertEquals("start_kernel", m.resolve(m.thread(1, 1), Machine.CPUMODE_KERNEL, 0xffffffff81000104L).symbol().name());
    }

    @Test
    void anonymousExecutableMemoryResolvesThroughThePerfMap() throws IOException {
        Files.copy(Fixtures.file("perf-maps/perf-9690.map"), tmp.resolve("perf-9690.map"));
        String first = Files.readAllLines(tmp.resolve("perf-9690.map")).getFirst();
        long addr = Long.parseUnsignedLong(first.split(" ")[0].replace("0x", ""), 16);
        Machine m = machine();
        m.process(new KernelRecord.Mmap2(raw(RecordType.MMAP2, USER), 9690, 9690, addr & ~0xfffL, 0x100000, 0, 0, 0,
                0, 0, null, Map.PROT_EXEC | 3, 0x22, "//anon", at(1)));
        Location l = m.resolve(m.thread(9690, 9691), 2, addr);
        assertEquals("/tmp/perf-9690.map", l.dso().longName());
        assertEquals(DsoKind.JIT_MAP, l.dso().kind());
        assertEquals(addr, l.mapIp());
        assertNotNull(l.symbol());
        assertEquals(first.substring(first.indexOf(' ', first.indexOf(' ') + 1) + 1), l.symbol().name());
    }

    @Test
    void aCorruptFileIsOneWarningAndResolutionGoesOn() throws IOException {
        Path root = tmp.resolve("root");
        Files.createDirectories(root.resolve("lib"));
        Files.writeString(root.resolve("lib/bad.so"), "garbage");
        Machine m = new Machine(null, SymbolOptions.builder().symfs(root).buildIdDir(tmp.resolve("cache")).perfMapDir(tmp).noSystemFiles().build());
        m.process(mmap2(8, 0x1000, 0x1000, 0, "/lib/bad.so", null));
        m.process(mmap2(8, 0x3000, 0x1000, 0, "/lib/missing.so", null));
        Thread t = m.thread(8, 8);
        for (int i = 0; i < 3; i++) {
            assertNull(m.resolve(t, 2, 0x1010).symbol());
            assertEquals("/lib/missing.so", m.resolve(t, 2, 0x3010).dso().longName());
        }
        assertEquals(1, m.warnings().size(), m.warnings().toString());
        assertTrue(m.warnings().getFirst().contains("/lib/bad.so"));
    }
}
