package io.perfj.session;

import io.perfj.symbols.SymbolOptions;
import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The functions inlined at frame-pointer callchain addresses (c-fp.data) are asked of addr2line
 * on the decoding thread, ahead of a handler that names them: its processes run before the
 * handler has asked anything; none runs for a handler that names none or under perf 6.1's rules.
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
        SymbolOptions symbols = new SymbolOptions(null, BuildIdCacheFixture.dir(), null,
                Path.of("/nonexistent-perfj-maps"), false);
        try (Session s = Session.open(Fixtures.recording("c-fp"), SessionOptions.of(symbols).withCompat(compat))) {
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
    void framePointerChainsAreAskedForAhead() {
        Assumptions.assumeTrue(addr2line(), "addr2line (binutils) is not installed");
        List<String> running = runningAfter(Compat.NONE, true);
        // libc's debug file (init_cacheinfo inlined in __x86_cacheinfo_ifunc) and ld.so's
        assertTrue(running.size() >= 2, running.toString());
        assertEquals(List.of(), runningAfter(Compat.NONE, false));
        assertEquals(List.of(), runningAfter(Compat.PERF_6_1, true));
    }
}
