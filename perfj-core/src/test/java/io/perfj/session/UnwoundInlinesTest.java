package io.perfj.session;

import io.perfj.perfdata.record.PerfRecord;
import io.perfj.symbols.Dso;
import io.perfj.symbols.DsoKind;
import io.perfj.symbols.Location;
import io.perfj.symbols.Symbol;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

class UnwoundInlinesTest {
    private static final Dso LIBC = new Dso("/usr/lib/libc.so.6", DsoKind.USER, null, d -> null);
    private static final Symbol FORK = new Symbol(0xd4330, 0xd4400, "_Fork", 'G');
    private static final Location FRAME = new Location(null, LIBC, FORK, 0x7f0000d4353L, 0xd4353, '.');

    /** addr2line's levels at _Fork+0x23: arch_fork inlined into __GI__Fork, _Fork's DWARF name. */
    private static final FrameResolver NAMED = new FrameResolver() {
        @Override
        public List<Location> withInlines(Location loc) {
            return List.of(level(loc, "arch_fork", "arch-fork.h:52"), level(loc, "__GI__Fork", "_Fork.c:28"));
        }

        @Override
        public void process(PerfRecord r) {
        }

        @Override
        public Location resolve(int pid, int tid, int cpumode, long ip) {
            return FRAME;
        }

        @Override
        public String comm(int pid, int tid) {
            return "bash";
        }
    };

    private static Location level(Location loc, String name, String srcline) {
        return new Location(loc.map(), loc.dso(), new Symbol(FORK.start(), FORK.end(), name, Symbol.INLINED),
                loc.ip(), loc.mapIp(), loc.level(), srcline);
    }

    @Test
    void defaultKeepsTheFrameAfterTheInlinedFunctions() {
        List<Location> out = UnwoundInlines.of(Compat.NONE, true).frames(NAMED, FRAME);
        assertEquals(2, out.size());
        assertEquals("arch_fork", out.get(0).symbol().name());
        assertSame(FORK, out.get(1).symbol());
        assertSame(LIBC, out.get(1).dso());
        assertEquals(FRAME.mapIp(), out.get(1).mapIp());
        assertEquals("_Fork.c:28", out.get(1).srcline(), "the outer level's line");
    }

    @Test
    void perf61NamesEveryLevel() {
        List<Location> out = UnwoundInlines.of(Compat.PERF_6_1, true).frames(NAMED, FRAME);
        assertEquals(List.of("arch_fork", "__GI__Fork"), out.stream().map(l -> l.symbol().name()).toList());
    }

    @Test
    void noInlineIsTheFrameAlone() {
        assertEquals(List.of(FRAME), UnwoundInlines.of(Compat.NONE, false).frames(NAMED, FRAME));
        assertEquals(List.of(FRAME), UnwoundInlines.of(Compat.PERF_6_1, false).frames(NAMED, FRAME));
    }
}
