package io.perfj.trace;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Print fmts evaluated as perf 6.1's libtraceevent evaluates them. */
class TraceFormatterTest {
    private final List<String> warnings = new ArrayList<>();
    private final TraceFormatter fmt = new TraceFormatter(
            new TracingData("0.6", false, 8, 4096, "", "", List.of(), List.of(), "", "", "", List.of()),
            addr -> addr == 0xffffffff81000010L ? new KernelFunctions.Function("do_thing", 0xffffffff81000000L) : null,
            "test.data", warnings::add);

    private String print(EventFormat ev, byte[] raw) {
        ByteSink s = new ByteSink();
        fmt.format(ev, raw, s);
        return s.toString();
    }

    private static ByteBuffer raw(int size) {
        return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static EventFormat schedSwitch() {
        String fmt = new String(java.util.Arrays.copyOf(TraceFixtures.blob("tp-sched"), 0));
        TracingData td = TracingData.parse(TraceFixtures.bytes(TraceFixtures.blob("tp-sched")));
        TracingData.EventFile f = td.eventFiles().getFirst();
        return EventFormat.parse(f.system(), f.text(), "tp-sched.data" + fmt, f.offset());
    }

    private static byte[] switchRaw(String prev, int prevPid, long state, String next, int nextPid) {
        ByteBuffer b = raw(64);
        b.put(8, prev.getBytes(StandardCharsets.US_ASCII));
        b.putInt(24, prevPid).putInt(28, 120).putLong(32, state);
        b.put(40, next.getBytes(StandardCharsets.US_ASCII));
        b.putInt(56, nextPid).putInt(60, 0);
        return b.array();
    }

    @Test
    void schedSwitchStates() {
        EventFormat ev = schedSwitch();
        assertNull(ev.printError());
        assertEquals("prev_comm=bash prev_pid=11 prev_prio=120 prev_state=R ==> next_comm=swapper/0 next_pid=0 next_prio=0",
                print(ev, switchRaw("bash", 11, 0, "swapper/0", 0)));
        assertTrue(print(ev, switchRaw("a", 1, 1, "b", 2)).contains("prev_state=S ==>"));
        assertTrue(print(ev, switchRaw("a", 1, 0x101, "b", 2)).contains("prev_state=S+ ==>"), "preempted");
        assertTrue(print(ev, switchRaw("a", 1, 0x82, "b", 2)).contains("prev_state=D|I ==>"));
        assertTrue(warnings.isEmpty(), warnings.toString());
    }

    @Test
    void operatorsRotateAsLibtraceeventRotatesThem() {
        // timer:timer_start's flags: libtraceevent builds (flags & 0x40000) | 0x80000 | 0x100000 |
        // 0x200000 from flags & (0x40000 | ...), so perf prints D|P|I for flags without those bits.
        EventFormat ev = TraceFixtures.format("timer_start",
                "\"idx=%u flags=%s\", REC->flags >> 22, __print_flags(REC->flags & (0x00040000 | 0x00080000 | 0x00100000 | 0x00200000), \"|\", { 0x00040000, \"M\" }, { 0x00080000, \"D\" }, { 0x00100000, \"P\" }, { 0x00200000, \"I\" })",
                "unsigned int flags;8;4;0");
        assertEquals("idx=11 flags=D|P|I", print(ev, raw(12).putInt(8, 11 << 22).array()));
        assertEquals("idx=0 flags=M|D|P|I", print(ev, raw(12).putInt(8, 0x40000).array()));
    }

    /**
     * A field alone: perf 7.2's libtraceevent prints it by the conversion that prints it (after
     * the format's {@code 0x}, through casts), perf 6.1's by its type; both raw where no
     * conversion prints the field itself.
     */
    @Test
    void aFieldAloneAsItsConversionPrintsIt() {
        EventFormat ev = TraceFixtures.format("sys_exit_read", "\"0x%lx n=%d s=%s\", (unsigned long)REC->ret, REC->n >> 1, REC->s ? \"a\" : \"b\"",
                "long ret;8;8;1", "int n;16;4;1", "int s;20;4;1");
        byte[] data = raw(24).putLong(8, 832).putInt(16, 6).putInt(20, 1).array();
        java.util.function.BiFunction<FormatField, Boolean, String> one = (f, printed) -> {
            ByteSink out = new ByteSink();
            if (printed) {
                fmt.fieldAsPrinted(ev, data, f, out);
            } else {
                fmt.field(ev, data, f, out);
            }
            return out.toString();
        };
        assertEquals("0x340", one.apply(ev.fields().get(ev.fields().size() - 3), true));
        assertEquals("832", one.apply(ev.fields().get(ev.fields().size() - 3), false));
        assertEquals("6", one.apply(ev.fields().get(ev.fields().size() - 2), true), "an expression: raw");
        assertEquals("1", one.apply(ev.fields().getLast(), true), "a ternary: raw");
    }

    @Test
    void symbolsAndTernaries() {
        EventFormat ev = TraceFixtures.format("t",
                "\"vec=%u [action=%s] mode=%s ret=%s\", REC->vec, __print_symbolic(REC->vec, { 0, \"HI\" }, { 1, \"TIMER\" }), __print_symbolic(REC->mode, { HRTIMER_MODE_ABS, \"ABS\" }), REC->ret ? \"handled\" : \"unhandled\"",
                "unsigned int vec;8;4;0", "int mode;12;4;1", "int ret;16;4;1");
        assertEquals("vec=1 [action=TIMER] mode=0x0 ret=handled", print(ev, raw(20).putInt(8, 1).putInt(16, 1).array()));
        assertEquals("vec=5 [action=0x5] mode=0x0 ret=unhandled", print(ev, raw(20).putInt(8, 5).array()));
    }

    @Test
    void numbersStringsAndPointers() {
        EventFormat ev = TraceFixtures.format("t",
                "\"cpu=%03d x=0x%08lx n=%d u=%u p=%p f=%ps F=%pS K=%pK s=%s c=%s\", REC->cpu, ((unsigned long)(REC->x)), REC->n, REC->n, REC->p, REC->f, REC->f, REC->p, __get_str(name), REC->comm",
                "int cpu;8;4;1", "long x;16;8;1", "int n;24;4;1", "void * p;32;8;0", "void * f;40;8;0",
                "__data_loc char[] name;48;4;0", "char comm[8];52;8;0");
        ByteBuffer b = raw(72).putInt(8, 7).putLong(16, -100).putInt(24, -1).putLong(40, 0xffffffff81000010L)
                .putInt(48, (4 << 16) | 60);
        b.put(60, "abc\0".getBytes(StandardCharsets.US_ASCII)).put(52, "perf".getBytes(StandardCharsets.US_ASCII));
        assertEquals("cpu=007 x=0xffffffffffffff9c n=-1 u=4294967295 p=(nil) f=do_thing F=do_thing+0x10 K=(nil)K s=abc c=perf",
                print(ev, b.array()));
    }

    @Test
    void unparsableFormatPrintsTheFieldsAsPerfDoes() {
        EventFormat ev = TraceFixtures.format("t", "\"x=%d\", frobnicate(REC->a)", "int a;8;4;1", "char s[4];12;4;0");
        assertEquals("function frobnicate not defined", ev.printError());
        assertEquals("[FAILED TO PARSE] a=-3 s=abc", print(ev, raw(16).putInt(8, -3).put(12, "abc".getBytes()).array()));
        TraceEvents none = TraceEvents.parse(TraceFixtures.bytes(new byte[3]), "test.data");
        assertEquals(1, none.warnings().size());
    }

    @Test
    void dataShorterThanTheFormatReadsZeroAndWarnsOnce() {
        EventFormat ev = TraceFixtures.format("t", "\"a=%d b=%d\", REC->a, REC->b", "int a;8;4;1", "int b;12;4;1");
        assertEquals("a=5 b=0", print(ev, raw(12).putInt(8, 5).array()));
        assertEquals("a=5 b=0", print(ev, raw(12).putInt(8, 5).array()));
        assertEquals(List.of("test.data: tracing_data event format test:t: field b (offset 0xc, size 4) goes beyond"
                + " the sample's raw data (12 bytes)"), warnings);
    }

    @Test
    void ipAddressesAsTheKernelPrintsThem() {
        EventFormat ev = TraceFixtures.format("t", "\"a=%pI4 z=%pi4 b=%pI6c c=%pI6c d=%pI6 e=%pI6c\", REC->a, REC->a, REC->b, REC->c, REC->c, REC->d",
                "__u8 a[4];8;4;0", "__u8 b[16];12;16;0", "__u8 c[16];28;16;0", "__u8 d[16];44;16;0");
        ByteBuffer r = raw(60);
        r.put(8, new byte[] {10, 0, 0, 7});
        r.put(12, new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff, 1, 2, 3, 4});
        r.put(28, new byte[] {0x20, 0x01, 0x0d, (byte) 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1});
        r.put(44, new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
        assertEquals("a=10.0.0.7 z=010.000.000.007 b=::ffff:1.2.3.4 c=2001:db8::1 "
                + "d=2001:0db8:0000:0000:0000:0000:0000:0001 e=::", print(ev, r.array()));
    }

    /**
     * %pU as libtraceevent prints it (btrfs's fsid: tp-btrfs's golden has the real one): the
     * bytes in stored order, 8-4-4-4-12; a field of another size is INVALIDUUID; the kernel's
     * other byte orders and cases are refused (no event of this machine has them to compare).
     */
    @Test
    void uuidsAsLibtraceeventPrintsThem() {
        EventFormat ev = TraceFixtures.format("t", "\"%pU: %pUb x=%pU\", REC->u, REC->u, REC->n",
                "u8 u[16];8;16;0", "u8 n[4];24;4;0");
        ByteBuffer r = raw(28);
        for (int i = 0; i < 16; i++) {
            r.put(8 + i, (byte) (0xa0 + i));
        }
        assertEquals("a0a1a2a3-a4a5-a6a7-a8a9-aaabacadaeaf: a0a1a2a3-a4a5-a6a7-a8a9-aaabacadaeaf x=INVALIDUUID",
                print(ev, r.array()));
        EventFormat le = TraceFixtures.format("t", "\"%pUl\", REC->u", "u8 u[16];8;16;0");
        assertTrue(le.printError().contains("%pUl is not supported"), le.printError());
    }

    @Test
    void printfConversions() {
        ByteSink s = new ByteSink();
        CFormat.number(s.put('|'), "%03d", 7, 0);
        CFormat.number(s.put('|'), "%-5d", 42, 0);
        CFormat.number(s.put('|'), "%#x", 255, 0);
        CFormat.number(s.put('|'), "%5.3d", 7, 0);
        CFormat.number(s.put('|'), "%hhx", 0x1ff, 0);
        CFormat.number(s.put('|'), "%lld", -5, 0);
        CFormat.number(s.put('|'), "%*d", 3, 4);
        CFormat.number(s.put('|'), "%+d", 3, 0);
        CFormat.number(s.put('|'), "%c", 'A', 0);
        CFormat.string(s.put('|'), "%-6s", "ab".getBytes(), 0);
        CFormat.string(s.put('|'), "%.2s", "abcdef".getBytes(), 0);
        CFormat.pointer(s.put('|'), 0x10);
        assertEquals("|007|42   |0xff|  007|ff|-5|   3|+3|A|ab    |ab|0x10", s.toString());
    }
}
