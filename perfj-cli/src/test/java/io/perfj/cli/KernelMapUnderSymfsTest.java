package io.perfj.cli;

import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A recording of another machine's kernel without a build-id (perfparser's
 * pp-parallel-gcc-zstd) read with {@code --symfs}: the kernel's map stays where its MMAP put it
 * and its addresses print under {@code [kernel.kallsyms]}, as perf 6.1 and 7.2 print them. No
 * kallsyms of the reading machine is taken for it, not even the only kernel a build-id cache
 * holds (whose symbols would move the map to that kernel's addresses and leave every sample
 * outside it).
 */
class KernelMapUnderSymfsTest {
    private static final String NAME = "pp-parallel-gcc-zstd";

    @TempDir
    Path tmp;

    /** A build-id cache holding one kernel's kallsyms: this machine's, not the recording's. */
    private Path cacheWithOneKernel() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("cache/[kernel.kallsyms]/0123456789abcdef0123456789abcdef01234567"));
        Files.writeString(dir.resolve("kallsyms"), "ffffffff81000000 T _text\nffffffff81001000 T other_kernel_function\n"
                + "ffffffff81002000 T _etext\n");
        return tmp.resolve("cache");
    }

    private CliFixtures.Run report(String... mode) throws IOException {
        String[] base = {"report", "--stdio", "-i", Fixtures.file("corpus/" + NAME + ".data").toString(),
                "--symfs", Fixtures.file("corpus/symfs").toString(), "--buildid-dir", cacheWithOneKernel().toString(),
                "--perf-map-dir", tmp.toString(), "--no-system-files"};
        String[] args = new String[mode.length + base.length];
        System.arraycopy(base, 0, args, 0, 1);
        System.arraycopy(mode, 0, args, 1, mode.length);
        System.arraycopy(base, 1, args, 1 + mode.length, base.length - 1);
        CliFixtures.Run r = CliFixtures.run(args);
        assertEquals(0, r.rc(), r.err());
        return r;
    }

    @Test
    void compatReportIsPerf61s() throws IOException {
        CliFixtures.Run r = report("--compat", "perf-6.1");
        String path = Fixtures.file("corpus/" + NAME + ".data").toString();
        assertEquals(CorpusGoldenTest.normalize(CorpusGoldenTest.read(CorpusGoldenTest.golden(NAME, "report")),
                "corpus/" + NAME + ".data", "report"), CorpusGoldenTest.normalize(r.out(), path, "report"));
    }

    @Test
    void kernelAddressesKeepTheKernelsName() throws IOException {
        CliFixtures.Run r = report();
        assertTrue(r.out().contains("  [kernel.kallsyms]    [k] 0xffffffffae600080\n"), r.out());
        assertFalse(r.out().contains("[unknown]            [k] 0xffffffff"), r.out());
    }
}
