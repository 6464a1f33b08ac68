package io.perfj.profile;

import io.perfj.symbols.Dso;
import io.perfj.symbols.DsoKind;
import io.perfj.symbols.Location;
import io.perfj.symbols.Symbol;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

class FrameTableTest {
    private static final Dso PROG = new Dso("/bin/prog", DsoKind.USER, null, d -> null);
    private static final Dso LIB = new Dso("/lib/libx.so", DsoKind.USER, null, d -> null);

    private static Location at(Dso dso, Symbol sym, long ip) {
        return new Location(null, dso, sym, ip, ip, '.');
    }

    /** Inlined frames of one name are one callchain node, whatever function and object they were inlined into. */
    @Test
    void inlinedFramesOfOneNameAreOneChainNode() {
        FrameTable t = new FrameTable();
        Symbol invoke1 = new Symbol(0x1000, 0x1040, "handler1::_M_invoke", 'L');
        Symbol invoke2 = new Symbol(0x1040, 0x1080, "handler2::_M_invoke", 'L');
        int a = t.internChain(at(PROG, new Symbol(0x1000, 0x1040, "_M_invoke", Symbol.INLINED), 0x1010), '.');
        int b = t.internChain(at(PROG, new Symbol(0x1040, 0x1080, "_M_invoke", Symbol.INLINED), 0x1050), '.');
        int c = t.internChain(at(LIB, new Symbol(0x200, 0x300, "_M_invoke", Symbol.INLINED), 0x210), '.');
        assertNotEquals(a, b);
        assertEquals(a, t.chainNode(a));
        assertEquals(a, t.chainNode(b));
        assertEquals(a, t.chainNode(c));
        // functions that are not inlined stay apart, as do inlined ones of other names
        int f1 = t.internChain(at(PROG, invoke1, 0x1010), '.');
        int f2 = t.internChain(at(PROG, invoke2, 0x1050), '.');
        int other = t.internChain(at(PROG, new Symbol(0x1000, 0x1040, "operator()", Symbol.INLINED), 0x1010), '.');
        assertEquals(f1, t.chainNode(f1));
        assertEquals(f2, t.chainNode(f2));
        assertEquals(other, t.chainNode(other));
    }

    /** -g address: each callchain address its own node and name, entries still by function. */
    @Test
    void addressKeyMakesANodePerAddressWithItsLine() {
        FrameTable t = new FrameTable(false, CallchainKey.ADDRESS, l -> "f.c:" + (l.mapIp() - 0x1000));
        Symbol f = new Symbol(0x1000, 0x1040, "f", 'G');
        int a = t.internChain(at(PROG, f, 0x1004), '.');
        int b = t.internChain(at(PROG, f, 0x1008), '.');
        assertNotEquals(t.chainNode(a), t.chainNode(b));
        assertEquals(t.canonical(a), t.canonical(b));
        assertEquals(a, t.internChain(at(PROG, f, 0x1004), '.'));
        assertEquals("f f.c:4", t.chainName(a));
        assertEquals("f f.c:8", t.chainName(b));
        // without a symbol the address alone, as with the function key
        assertEquals("0x2000", t.chainName(t.internChain(at(PROG, null, 0x2000), '.')));
    }

    /**
     * -g srcline: callchain addresses of one line text are one node, whatever function or
     * object they are in (perf compares the texts alone); each frame still prints its own
     * symbol, and a node prints the first frame that reached it.
     */
    @Test
    void srclineKeyMakesANodePerLineText() {
        FrameTable t = new FrameTable(false, CallchainKey.SRCLINE, l -> l.mapIp() < 0x1010 ? "f.c:1" : "??:0");
        Symbol f = new Symbol(0x1000, 0x1040, "f", 'G');
        Symbol g = new Symbol(0x1040, 0x1080, "g", 'G');
        int a = t.internChain(at(PROG, f, 0x1004), '.');
        int b = t.internChain(at(PROG, f, 0x1008), '.');
        int c = t.internChain(at(PROG, f, 0x1020), '.');
        int d = t.internChain(at(PROG, g, 0x1050), '.');
        int e = t.internChain(at(LIB, new Symbol(0x2000, 0x2040, "h", 'G'), 0x2010), '.');
        assertEquals(t.chainNode(a), t.chainNode(b));
        assertNotEquals(t.chainNode(a), t.chainNode(c));
        assertEquals(t.chainNode(c), t.chainNode(d));
        assertEquals(t.chainNode(c), t.chainNode(e));
        assertEquals("f ??:0", t.chainName(c));
        assertEquals("g ??:0", t.chainName(d));
        assertEquals("??:0", t.line(e));
        assertEquals(true, t.nodesShowFirstFrame());
        // an address in no object has no line: a node of its own
        int u = t.internChain(new Location(null, null, null, 0x7000, 0x7000, '.'), '.');
        assertEquals(u, t.chainNode(u));
        assertEquals(null, t.line(u));
    }

    /**
     * The places (hist entries) of an inlined function: one for the frames of its name in
     * functions that overlap or touch (perf's {@code _sort__sym_cmp}), apart in functions further
     * away or in another object.
     */
    @Test
    void inlinedFramesInNeighbouringFunctionsAreOnePlace() {
        FrameTable t = new FrameTable();
        int inRun = t.internChain(at(PROG, new Symbol(0x109d, 0x10d7, "sys3", Symbol.INLINED), 0x10c0), '.');
        int inStart = t.internChain(at(PROG, new Symbol(0x10d7, 0x1100, "sys3", Symbol.INLINED), 0x10e0), '.');
        int far = t.internChain(at(PROG, new Symbol(0x2000, 0x2040, "sys3", Symbol.INLINED), 0x2010), '.');
        int inLib = t.internChain(at(LIB, new Symbol(0x109d, 0x10d7, "sys3", Symbol.INLINED), 0x10c0), '.');
        int run = t.internChain(at(PROG, new Symbol(0x109d, 0x10d7, "run", 'L'), 0x10c0), '.');
        int start = t.internChain(at(PROG, new Symbol(0x10d7, 0x1100, "_start", 'G'), 0x10e0), '.');
        assertNotEquals(inRun, inStart);
        assertEquals(inRun, t.canonical(inStart));
        assertEquals(far, t.canonical(far));
        assertEquals(inLib, t.canonical(inLib));
        assertNotEquals(t.canonical(run), t.canonical(start));
    }
}
