package io.perfj.cli;

import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Inlined C++ frames of a --call-graph dwarf recording of a static C++ program (perfparser's
 * vector_static_gcc, with its binary in corpus/symfs) carry demangled names, as perf prints them
 * (without parameter lists), not the linkage names the debug info holds.
 */
class CorpusInlineNamesTest {
    @Test
    void inlinedFramesAreDemangled() {
        CliFixtures.Run r = CliFixtures.runPerf("script", "-i", Fixtures.file("corpus/pp-vector-gcc.data").toString(),
                "--symfs", Fixtures.file("corpus/symfs").toString(), "--no-system-files");
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.out().contains("\t            1530 std::vector<double, std::allocator<double> >::push_back+0x50 (inlined)\n"),
                r.out());
        assertFalse(r.out().contains("_ZNSt6vectorIdSaIdEE9push_backEOd"), r.out());
    }
}
