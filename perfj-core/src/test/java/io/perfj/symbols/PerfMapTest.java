package io.perfj.symbols;

import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PerfMapTest {

    private static PerfMap parse(String s) {
        return PerfMap.parse(s.getBytes(StandardCharsets.UTF_8), "perf-1.map");
    }

    /** A zero-sized entry inside a sized one (a label in a function) names no address of it. */
    @Test
    void zeroSizedEntryInsideAnotherYieldsToIt() {
        PerfMap m = parse("""
                1000 19c Builtins_JSConstructStubGeneric
                103b 0 construct_stub_create_deopt_addr
                113a 0 construct_stub_invoke_deopt_addr
                2000 0 alone
                """);
        for (long a : new long[] {0x1000, 0x103b, 0x1102, 0x113a, 0x119b}) {
            assertEquals("Builtins_JSConstructStubGeneric", m.table().find(a).name(), Long.toHexString(a));
        }
        assertNull(m.table().find(0x119c));
        assertEquals("alone", m.table().find(0x2000).name());
    }

    @Test
    void forms() {
        PerfMap m = parse("""
                0x7f0000001000 0x40 long Hot.beta(long)
                7f0000002000 20 void Foo.bar()
                  0X7f0000003000   0x10 spaced
                7f0000004000 0 zero
                7f0000005000 10  two
                """);
        assertEquals(0, m.badLines());
        assertNull(m.warning());
        assertEquals("long Hot.beta(long)", m.table().find(0x7f000000103fL).name());
        assertNull(m.table().find(0x7f0000001040L));
        assertEquals("void Foo.bar()", m.table().find(0x7f0000002000L).name());
        // perf skips exactly one separator before the name: further blanks belong to it
        assertEquals("spaced", m.table().find(0x7f0000003000L).name());
        assertEquals(" two", m.table().find(0x7f0000005000L).name());
        // zero-sized entries match only their start (perf applies no fix-ups to map files)
        assertEquals("zero", m.table().find(0x7f0000004000L).name());
        assertNull(m.table().find(0x7f0000004001L));
    }

    @Test
    void badLinesAreCountedWithOneWarning() {
        PerfMap m = parse("""
                zzzz 10 bad start
                1000 qq bad size
                2000 10 good
                3000 10
                4000
                """);
        assertEquals(1, m.table().size());
        assertEquals(4, m.badLines());
        assertTrue(m.warning().contains("skipped 4 malformed lines"), m.warning());
    }

    @Test
    void unterminatedLastLineLosesItsLastCharacterLikePerf() {
        PerfMap m = parse("1000 10 abcdef");
        assertEquals("abcde", m.table().find(0x1000).name());
    }

    @Test
    void fixtureMap() {
        PerfMap m = PerfMap.read(Fixtures.file("perf-maps/perf-9690.map"));
        assertEquals(476, m.table().size());
        assertEquals(0, m.badLines());
        assertEquals("int jdk.internal.vm.Continuation.doYield()", m.table().find(0x7f602bec7980L).name());
    }
}
