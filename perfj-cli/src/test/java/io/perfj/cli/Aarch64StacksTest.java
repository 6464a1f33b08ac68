package io.perfj.cli;

import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * An aarch64 {@code --call-graph dwarf}-style stack (simpleperf's {@code -g --no-unwind}) through
 * the commands: perfj unwinds it with the recording's architecture; {@code --compat perf-6.1}
 * prints no user frame, as perf 6.1 built for x86-64 does (the corpus goldens). The frames are the
 * ones {@code io.perfj.dwarf.Aarch64UnwindCrossCheckTest} checks.
 */
class Aarch64StacksTest {
    private static String[] args(String... command) throws IOException {
        Path e = CorpusGoldenTest.empty();
        String[] tail = {"-i", Fixtures.file("corpus/sp-unwind-apk.data").toString(),
            "--symfs", Fixtures.require(Fixtures.file("corpus/symfs")).toString(), "--buildid-dir", e.toString(),
            "--kallsyms", e.resolve("kallsyms").toString(), "--perf-map-dir", e.toString(), "--no-system-files"};
        String[] a = new String[command.length + tail.length];
        System.arraycopy(command, 0, a, 0, command.length);
        System.arraycopy(tail, 0, a, command.length, tail.length);
        return a;
    }

    /** The unwound frames at their virtual addresses, C++ names with their parameters, in perf 7.2's layout (perf 6.1 cannot unwind arm64 stacks on x86-64). */
    @Test
    void scriptUnwindsTheAarch64Stack() throws IOException {
        CliFixtures.Run r = CliFixtures.run(args("script"));
        assertEquals(0, r.rc(), r.err());
        assertEquals("""
                BusyThread    6067 [006] 20345.907755:     770996 cycles:HG: \n\
                \t      73d6b501a4 BusyThreadFunc(void*)+0x6c (/data/app/simpleperf.demo.cpp_api/base.apk!/lib/arm64-v8a/libnative-lib.so)
                \t      74b190933f [unknown] (/bionic/lib64/libc.so)

                """, r.out());
    }

    @Test
    void perfCompatibleScriptHasNoUserFrame() throws IOException {
        CliFixtures.Run r = CliFixtures.runPerf(args("script"));
        assertEquals(0, r.rc(), r.err());
        assertEquals("BusyThread  6067 [006] 20345.907755:     770996 cycles:HG: \n\n", r.out());
    }
}
