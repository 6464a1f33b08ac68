package io.perfj.symbols;

import io.perfj.testing.BuildIdCacheFixture;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KallsymsTest {

    private static Kallsyms parse(String s) {
        return Kallsyms.parse(s.getBytes(StandardCharsets.UTF_8), "kallsyms");
    }

    @Test
    void typesEndsAndModules() {
        Kallsyms k = parse("""
                ffffffff81000000 T _stext
                ffffffff81000000 T _text
                ffffffff81000010 t local_fn
                ffffffff81000020 W weak_fn
                ffffffff81000030 r rodata_sym
                ffffffff81000040 D data_sym
                ffffffff81000050 T _etext
                ffffffffc0001000 t mod_fn\t[mymod]
                ffffffffc0001100 T mod_fn2\t[mymod]
                ffffffffc0002000 t bpf_dispatcher_xdp\t[bpf]
                garbage line
                """);
        assertEquals(0xffffffff81000000L, k.textStart());
        assertEquals(0xffffffff81000050L, k.textEnd());
        assertEquals(1, k.badLines());
        assertTrue(k.warning().contains("skipped 1 malformed line"));
        // same address: perf fixes ends before removing duplicates, so the later _text got a size
        // (up to local_fn) while _stext stayed zero-sized; the sized one wins
        assertEquals("_text", k.kernel().find(0xffffffff81000005L).name());
        assertEquals("local_fn", k.kernel().find(0xffffffff81000015L).name());
        // 'r' is not kept, so weak_fn extends over it
        assertEquals("weak_fn", k.kernel().find(0xffffffff81000035L).name());
        assertEquals("data_sym", k.kernel().find(0xffffffff81000045L).name());
        // the last kernel symbol before module symbols ends at the next page boundary past it
        Symbol etext = k.kernel().find(0xffffffff81000050L);
        assertEquals(0xffffffff81002000L, etext.end());
        assertNull(k.kernel().find(0xffffffffc0001000L));
        assertEquals(List.of("[mymod]", "[bpf]"), k.moduleNames());
        assertEquals("mod_fn", k.modules().get("[mymod]").find(0xffffffffc0001050L).name());
        assertEquals("bpf_dispatcher_xdp", k.modules().get("[bpf]").find(0xffffffffc0002000L).name());
    }

    @Test
    void upperCaseHexDroppedNamesAndUnsortedLines() {
        Kallsyms k = parse("""
                FFFFFFFF81000100 T later
                ffffffff81000000 T $x_mapping
                ffffffff81000000 T\s
                ffffffff81000000 b first
                ffffffff81000080 t middle
                """);
        assertEquals(0, k.badLines());
        // '$' names and empty names are dropped, not counted as malformed; lines are sorted
        assertEquals(List.of("first", "middle", "later"), k.kernel().symbols().stream().map(Symbol::name).toList());
        assertEquals(0xffffffff81000080L, k.kernel().find(0xffffffff81000000L).end());
        assertEquals('L', k.kernel().find(0xffffffff81000000L).binding());
        assertEquals(0xffffffff81000100L, k.kernel().find(0xffffffff81000100L).start());
    }

    @Test
    void fixtureKallsyms() {
        Kallsyms k = Kallsyms.read(BuildIdCacheFixture.member("[kernel.kallsyms]", "kallsyms").orElseThrow());
        assertEquals(0, k.badLines());
        assertTrue(k.kernel().size() > 100_000, "kernel symbols: " + k.kernel().size());
        assertEquals(List.of("[__builtin__ftrace]", "[bpf]"), k.moduleNames().stream().sorted().toList());
        assertEquals("__lruvec_stat_mod_folio", k.kernel().find(0xffffffff816a8581L).name());
        assertFalse(k.kernel().symbols().stream().anyMatch(s -> s.name().indexOf('\t') >= 0));
        assertEquals(0xffffffff82276f48L, k.textEnd());
    }
}
