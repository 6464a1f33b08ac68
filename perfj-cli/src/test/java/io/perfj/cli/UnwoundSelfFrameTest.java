package io.perfj.cli;

import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * bpf-dwarf.data's {@code --call-graph dwarf} stacks through libc's fork: at {@code _Fork}'s
 * address addr2line names {@code arch_fork} (really inlined there) and {@code __GI__Fork} (the
 * function itself, by its DWARF name). perf 6.1 and 7.2 print both as inlined functions and drop
 * the frame; the default prints the inlined one, then the frame with its symbol and object
 * (class {@code self-as-inlined} of fixtures/README.md), as it does on frame-pointer chains;
 * {@code --compat perf-6.1} prints perf 6.1's names, {@code --no-inline} the frame alone.
 */
class UnwoundSelfFrameTest {
    private static final String LIBC = "(/usr/lib/x86_64-linux-gnu/libc.so.6)";

    private static String run(String... args) {
        Assumptions.assumeTrue(ScriptGoldenTest.addr2line(), "addr2line (binutils) is not installed");
        List<String> a = new ArrayList<>(List.of(args));
        a.addAll(List.of("-i", Fixtures.recording("bpf-dwarf").toString(), "--buildid-dir",
                BuildIdCacheFixture.dir().toString(), "--no-system-files",
                "--perf-map-dir", Fixtures.file("perf-maps").toString()));
        CliFixtures.Run r = CliFixtures.run(a.toArray(String[]::new));
        assertEquals(0, r.rc(), r.err());
        return r.out();
    }

    @Test
    void scriptKeepsTheFrameAfterItsInlinedFunction() {
        String out = run("script");
        assertTrue(out.contains("\t    7f49e1374353 arch_fork+0x23 (inlined)\n\t    7f49e1374353 _Fork+0x23 " + LIBC + "\n"
                + "\t    7f49e1373eca __libc_fork+0x4a " + LIBC + "\n"), "arch_fork, then _Fork's frame");
        assertTrue(out.contains("\t    7f49e12c7304 __libc_start_main@@GLIBC_2.34+0x84 " + LIBC + "\n"), "a frame of no inlined function");
        assertFalse(out.contains("__GI__Fork") || out.contains("__libc_start_main_impl"), "no function as inlined in itself");
    }

    @Test
    void reportGraphKeepsTheFrame() {
        String out = run("report", "--stdio", "--no-children");
        assertTrue(out.contains("               arch_fork (inlined)\n               _Fork\n               __libc_fork\n"), out);
        assertFalse(out.contains("__GI__Fork (inlined)"), "no function as inlined in itself");
    }

    @Test
    void compatPrintsPerf61sNames() {
        assertTrue(run("script", "--compat", "perf-6.1").contains(
                "\t           d4353 arch_fork+0x23 (inlined)\n\t           d4353 __GI__Fork+0x23 (inlined)\n"), "perf 6.1's");
        assertTrue(run("report", "--stdio", "--no-children", "--compat", "perf-6.1").contains(
                "               arch_fork (inlined)\n               __GI__Fork (inlined)\n               __libc_fork\n"), "perf 6.1's");
    }

    @Test
    void noInlineLeavesTheFrameAlone() {
        String out = run("script", "--no-inline");
        assertTrue(out.contains("\t    7f49e1374353 _Fork+0x23 " + LIBC + "\n\t    7f49e1373eca __libc_fork+0x4a "), "the frame alone");
        assertFalse(out.contains("(inlined)"), "no inlined functions");
    }
}
