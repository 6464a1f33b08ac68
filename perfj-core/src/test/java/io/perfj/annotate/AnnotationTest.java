package io.perfj.annotate;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** perf's reading of objdump lines: operands, branch targets, markers, percentages. */
class AnnotationTest {
    private static Annotation parse(long start, long end, String... lines) {
        return Annotation.fromListing(List.of(lines), "f", start, end, null,
                a -> a == 0x2000 ? "callee" : a >= start && a < end ? "f" : null);
    }

    private static String stdio2(Annotation a) {
        StringBuilder sb = new StringBuilder();
        AnnotationPrinter.stdio2(a, AnnotationPrinter.Options.defaults(), sb);
        return sb.toString();
    }

    @Test
    void operandsAsPerfPrintsThem() {
        Annotation a = parse(0x1000, 0x1030,
                "    1000:\tmov    0xe5b49(%rip),%rax        # 1b4f70 <_rtld_global_ro@GLIBC_PRIVATE>",
                "    1007:\tcall   2000 <callee>",
                "    100c:\tcall   *%rax",
                "    100e:\tjne    1000 <f>",
                "    1010:\tje     1020 <f+0x20>",
                "    1012:\tjmp    3000 <elsewhere>",
                "    1017:\tlock cmpxchg %rdx,(%rdi)",
                "    101c:\tnopw   0x0(%rax,%rax,1)",
                "    1020:\tret");
        a.account(new long[] {0, 0x20}, new long[] {3, 1}, new long[] {3, 1}, 4, 4);
        String out = stdio2(a);
        // mnemonics padded to the longest one (call, lock: 4)
        assertTrue(out.contains(" 0:   mov  _rtld_global_ro@GLIBC_PRIVATE,%rax\n"), out);
        assertTrue(out.contains("\u2192 call callee"), out);
        assertTrue(out.contains("\u2192 call *%rax"), out);
        assertTrue(out.contains("\u2191 jne  0"), out);
        assertTrue(out.contains("\u2193 je   20"), out);
        assertTrue(out.contains("\u2192 jmp  2000"), out); // outside, no symbol: offset from the start
        assertTrue(out.contains("  lock cmpxchg %rdx,(%rdi)"), out);
        assertTrue(out.contains("  nop  "), out);
        assertTrue(out.contains(" 75.00 "), out);
        assertTrue(out.contains(" 25.00 "), out);
        assertTrue(out.contains(" 25.00  20: \u2190 ret"), out);
    }

    @Test
    void absoluteFileLinesAreConsumedAndOutsideAddressesAreText() {
        Annotation a = parse(0x10, 0x14,
                "/usr/src/x.c:12",
                "      10:\tpush   %rbp",
                "      14:\tret");
        assertEquals(2, a.lines().size());
        assertTrue(a.lines().get(0).isInstruction());
        assertFalse(a.lines().get(1).isInstruction(), "0x14 is past the function");
    }

    /** Percentages of a function's instructions add up to 100 whatever the samples. */
    @Property(tries = 200)
    void localPercentagesAddUp(@ForAll @Size(min = 1, max = 20) List<@net.jqwik.api.constraints.IntRange(min = 0, max = 15) Integer> at) {
        String[] lines = new String[8];
        for (int i = 0; i < 8; i++) {
            lines[i] = String.format("%8x:\tadd    $0x1,%%rax", 0x100 + 2 * i);
        }
        Annotation a = parse(0x100, 0x110, lines);
        long[] offs = new long[at.size()];
        long[] one = new long[at.size()];
        for (int i = 0; i < offs.length; i++) {
            offs[i] = at.get(i);
            one[i] = 1;
        }
        a.account(offs, one, one, at.size(), at.size());
        double sum = 0;
        for (AnnotationLine l : a.lines()) {
            sum += l.percent(PercentType.LOCAL_PERIOD);
        }
        assertEquals(100.0, sum, 1e-9);
    }

    /** Random bytes: every backend lists something for each byte range, bad bytes as (bad), no exception. */
    @Property(tries = 15)
    void garbageMachineCodeNeverCrashes(@ForAll @Size(min = 1, max = 64) byte[] code) throws Exception {
        for (String backend : new String[] {"objdump", "capstone"}) {
            Disassembler d = Disassembler.named(backend, null);
            List<String> listing;
            try {
                listing = d.listing(code, 0xffffffffc0000000L, "bpf_prog_x", Disassembler.Request.plain());
            } catch (Disassembler.MissingException e) {
                continue;
            }
            Annotation a = Annotation.fromListing(listing, "bpf_prog_x", 0xffffffffc0000000L,
                    0xffffffffc0000000L + code.length, null, x -> null);
            a.account(new long[0], new long[0], new long[0], 0, 0);
            stdio2(a);
            assertFalse(listing.isEmpty());
        }
    }

    @Test
    void capstoneMarksUndecodableBytes() throws Exception {
        Disassembler d = Disassembler.named("capstone", null);
        List<String> l;
        try {
            l = d.listing(new byte[] {0x06, (byte) 0x90}, 0x1000, "x", Disassembler.Request.plain());
        } catch (Disassembler.MissingException e) {
            Assumptions.abort("libcapstone is not installed");
            return;
        }
        assertTrue(l.stream().anyMatch(s -> s.contains("1000:\t(bad)")), l.toString());
        assertTrue(l.stream().anyMatch(s -> s.contains("1001:\tnop")), l.toString());
    }
}
