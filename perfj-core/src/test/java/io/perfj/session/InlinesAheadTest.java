package io.perfj.session;

import io.perfj.symbols.SymbolOptions;
import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The functions inlined at frame-pointer callchain addresses (c-fp.data) are named without
 * addr2line where the objects' DWARF is their own (libc's and ld.so's debug files): no process
 * runs, whether the handler names them or not, under perf 6.1's rules or perf 7.2's.
 */
class InlinesAheadTest {
    private static boolean addr2line() {
        try {
            return new ProcessBuilder("addr2line", "--version").redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor() == 0;
        } catch (Exception e) {
            return false;
        }
    }

    /**
     * The addr2line processes a two-thread session that has read c-fp started and still runs
     * (children of this JVM that were not running before it: other tests' may still be exiting).
     */
    private static List<String> runningAfter(Compat compat, boolean names) {
        java.util.Set<Long> before = ProcessHandle.current().children().map(ProcessHandle::pid)
                .collect(java.util.stream.Collectors.toSet());
        SymbolOptions symbols = SymbolOptions.builder().buildIdDir(BuildIdCacheFixture.dir()).perfMapDir(Path.of("/nonexistent-perfj-maps")).noSystemFiles().build();
        try (Session s = Session.open(Fixtures.recording("c-fp"), SessionOptions.of(symbols).withQuirks(io.perfj.compat.Perf61Quirks.of(compat)))) {
            s.threads(2);
            s.run(new RecordHandler() {
                @Override
                public void sample(SampleRef ref) {
                    ref.sample(); // decoded, nothing asked
                }

                @Override
                public boolean namesInlinedFrames() {
                    return names;
                }
            });
            return ProcessHandle.current().children()
                    .filter(p -> !before.contains(p.pid()))
                    .map(p -> p.info().arguments().map(a -> String.join(" ", a)).orElse(""))
                    .filter(a -> a.startsWith("-f -i -a -e "))
                    .toList();
        }
    }

    @Test
    void framePointerChainsStartNoAddr2line() {
        Assumptions.assumeTrue(addr2line(), "addr2line (binutils) is not installed");
        // libc's debug file (init_cacheinfo inlined in __x86_cacheinfo_ifunc) and ld.so's: read here
        assertEquals(List.of(), runningAfter(Compat.NONE, true));
        assertEquals(List.of(), runningAfter(Compat.NONE, false));
        assertEquals(List.of(), runningAfter(Compat.PERF_6_1, true));
    }
}
