package io.perfj.cli;

import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The functions inlined at frame-pointer callchain addresses (c-fp.data): by default a frame of
 * their own before the address's frame, as perf 7.2 adds them, the frame itself kept; none with
 * {@code --compat perf-6.1} (perf 6.1 adds them to DWARF-unwound frames only) or {@code --no-inline}.
 */
class FpInlinesTest {
    private static final String LIBC = "/usr/lib/x86_64-linux-gnu/libc.so.6";

    private static CliFixtures.Run run(String... cmd) {
        Assumptions.assumeTrue(ScriptGoldenTest.addr2line(), "addr2line (binutils) is not installed");
        List<String> a = new ArrayList<>(Arrays.asList(cmd));
        a.addAll(List.of("-i", Fixtures.recording("c-fp").toString(), "--buildid-dir",
                BuildIdCacheFixture.dir().toString(), "--no-system-files"));
        CliFixtures.Run r = CliFixtures.run(a.toArray(new String[0]));
        assertEquals(0, r.rc(), r.err());
        return r;
    }

    @Test
    void scriptNamesTheFunctionsInlinedAtFramePointerAddresses() {
        String out = run("script").out();
        assertTrue(out.contains("\t    7f53d345aa60 init_cacheinfo+0x0 (inlined)\n"
                + "\t    7f53d345aa60 __x86_cacheinfo_ifunc+0x0 (" + LIBC + ")\n"
                + "\t    7f53d35bce39 dl_main+0x1e79 ("), out);
        assertTrue(out.contains("\t    7f53d35bbbd1 elf_get_dynamic_info+0xc11 (inlined)\n"
                + "\t    7f53d35bbbd1 dl_main+0xc11 ("), out);
        // the function DWARF names __GI___clock_gettime is clock_gettime itself: its frame stays
        assertTrue(out.contains("\t    7f53d3479427 clock_gettime@@GLIBC_2.17+0x7 (" + LIBC + ")\n"), out);
        assertFalse(out.contains("__GI___clock_gettime"), out);
    }

    @Test
    void perf61AndNoInlineNameNone() {
        String compat = run("script", "--compat", "perf-6.1").out();
        assertEquals(Fixtures.golden("c-fp", "script"), compat);
        assertFalse(compat.contains("(inlined)"));
        String noInline = run("script", "--no-inline").out();
        assertFalse(noInline.contains("(inlined)"), noInline);
        assertTrue(noInline.contains("\t    7f53d345aa60 __x86_cacheinfo_ifunc+0x0 (" + LIBC + ")\n"), noInline);
    }

    @Test
    void reportCountsThemAsChildren() {
        String out = run("report", "--stdio").out();
        assertTrue(out.contains("     0.20%     0.00%  hot      libc.so.6             [.] init_cacheinfo (inlined)\n"), out);
        assertFalse(run("report", "--stdio", "--compat", "perf-6.1").out().contains("(inlined)"));
        assertFalse(run("report", "--stdio", "--no-inline").out().contains("(inlined)"));
    }
}
