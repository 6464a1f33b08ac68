package io.perfj.bpf;

import io.perfj.btf.Btf;
import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.feature.BpfProg;
import io.perfj.testing.Fixtures;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static io.perfj.bpf.BpfInsn.of;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Damaged programs never make the decoder or printer throw: odd lengths, cut 64-bit loads,
 * undefined opcodes (printed as disasm.c prints them), func_info/line_info/ksyms that point
 * nowhere, BTF that is not BTF.
 */
class XlatedMutationTest {

    private static String dump(BpfProg p, BtfText btf, Syntax s) {
        return XlatedPrinter.toString(p, btf, KernelSymbols.empty(),
                XlatedPrinter.Options.DEFAULT.withSyntax(s).withLinum(true).withOpcodes(true));
    }

    @Property(tries = 300)
    void anyBytesPrint(@ForAll @Size(max = 200) byte[] bytes, @ForAll boolean bigEndian) {
        BpfProg p = TestProgs.prog(bytes);
        for (Syntax s : Syntax.values()) {
            List<XlatedInsn> l = XlatedPrinter.instructions(p, BtfText.NONE, KernelSymbols.empty(),
                    XlatedPrinter.Options.DEFAULT.withSyntax(s)
                            .withOrder(bigEndian ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN));
            int slots = l.stream().mapToInt(XlatedInsn::slots).sum();
            assertTrue(slots == bytes.length / 8 || slots == bytes.length / 8 + 1, "slots " + slots);
            dump(p, BtfText.NONE, s);
        }
    }

    @Test
    void oddLengthIgnoresTrailingBytes() {
        byte[] one = TestProgs.bytes(of(0x95, 0, 0, 0, 0));
        byte[] odd = java.util.Arrays.copyOf(one, 13);
        assertEquals("   0: (95) exit\n", dump(TestProgs.prog(odd), BtfText.NONE, Syntax.KERNEL).lines().findFirst().get() + "\n");
        assertEquals(1, XlatedPrinter.instructions(TestProgs.prog(odd), BtfText.NONE, KernelSymbols.empty(),
                XlatedPrinter.Options.DEFAULT).size());
        assertEquals("", dump(TestProgs.prog(new byte[7]), BtfText.NONE, Syntax.KERNEL));
    }

    @Test
    void truncatedLdImm64() {
        byte[] b = TestProgs.bytes(of(0xb7, 0, 0, 0, 1), of(0x18, 1, 1, 0, 26));
        String out = XlatedPrinter.toString(TestProgs.prog(b), BtfText.NONE, KernelSymbols.empty(),
                XlatedPrinter.Options.DEFAULT);
        assertEquals("   0: (b7) r0 = 1\n   1: BUG_ld_18 (no second slot)\n", out);
        String ops = XlatedPrinter.toString(TestProgs.prog(b), BtfText.NONE, KernelSymbols.empty(),
                XlatedPrinter.Options.DEFAULT.withOpcodes(true));
        assertTrue(ops.endsWith("   1: BUG_ld_18 (no second slot)\n       18 11 00 00 1a 00 00 00\n"), ops);
    }

    @Test
    void badOpcodesPrintLikeTheKernel() {
        byte[] b = TestProgs.bytes(of(0x99, 1, 2, 0, 0), of(0xc1, 0, 0, 0, 0), of(0xe7, 1, 0, 0, 3),
                of(0x22, 0, 0, 0, 0), of(0x00, 0, 0, 0, 0), of(0xdb, 1, 2, 0, 0x77), of(0xd7, 1, 0, 0, 64));
        assertEquals("""
                   0: (99) r1 = *((null) *)(r2 +0)
                   1: BUG_ldx_c1
                   2: (e7) r1 (null) 3
                   3: BUG_st_22
                   4: BUG_ld_00
                   5: BUG_db
                   6: (d7) r1 = bswap64 r1
                """, dump(TestProgs.prog(b), BtfText.NONE, Syntax.KERNEL).replaceAll("\n {7}[0-9a-f ]+\n", "\n"));
    }

    @Test
    void infoPointingNowhere() {
        byte[] b = TestProgs.bytes(of(0x85, 0, 1, 3, 9), of(0x85, 0, 1, -2, -1), of(0x85, 0, 2, 0, 5000),
                of(0x18, 1, 2, 0, 3), of(0, 0, 0, 0, 4), of(0x95, 0, 0, 0, 0));
        List<BpfProg.FuncInfo> funcs = List.of(new BpfProg.FuncInfo(0, 99999), new BpfProg.FuncInfo(0, 1),
                new BpfProg.FuncInfo(1_000_000, 0xffffffffL));
        List<BpfProg.LineInfo> lines = List.of(new BpfProg.LineInfo(3, 0xffffffffL, 1 << 30, 0xffffffffL),
                new BpfProg.LineInfo(1, 0, 0, 0), new BpfProg.LineInfo(0xffffffffL, 5, 5, 5));
        BpfProg p = TestProgs.prog(b, funcs, lines, new long[] {0x1000}, new long[] {0x10, 5},
                List.of(new byte[8]), 1);
        BtfText garbage = BtfSignatures.parse(new byte[] {(byte) 0x9f, (byte) 0xeb, 1, 0, 24, 0, 0, 0}, "garbage");
        for (BtfText btf : List.of(BtfText.NONE, garbage, tinyBtf())) {
            for (Syntax s : Syntax.values()) {
                String out = dump(p, btf, s);
                assertTrue(out.contains("   0: (85) call pc+3#0x9\n"), out);
                assertTrue(out.contains("   1: (85) call pc-2#0xffffffffffffffff\n"), out);
                assertTrue(out.contains("   2: (85) call 0x1388#5000\n"), out);
            }
        }
    }

    @Test
    void flippedBytesOfRealPrograms() throws IOException {
        Path dir = Fixtures.file("bpf-xlated");
        Fixtures.require(dir);
        try (PerfData data = PerfData.open(dir.resolve("xlated.data"))) {
            RecordedBpf bpf = RecordedBpf.read(data);
            BpfProg p0 = bpf.find("perfj_xlated").orElseThrow();
            byte[] good = Files.readAllBytes(dir.resolve("golden/perfj_xlated.xlated.bin"));
            Random r = new Random(42);
            BtfText btf = bpf.btfText(p0);
            for (int k = 0; k < 400; k++) {
                byte[] b = good.clone();
                int n = 1 + r.nextInt(4);
                for (int j = 0; j < n; j++) {
                    b[r.nextInt(b.length)] ^= (byte) (1 << r.nextInt(8));
                }
                int len = r.nextInt(10) == 0 ? r.nextInt(b.length) : b.length;
                BpfProg p = RecordedBpf.withXlated(p0, java.util.Arrays.copyOf(b, len));
                dump(p, btf, k % 2 == 0 ? Syntax.KERNEL : Syntax.BPFTOOL_7_1);
            }
            byte[] raw = bpf.btf(p0.info().btfId()).orElseThrow();
            for (int k = 0; k < 300; k++) {
                byte[] b = raw.clone();
                b[r.nextInt(b.length)] ^= (byte) (1 << r.nextInt(8));
                int len = r.nextInt(5) == 0 ? r.nextInt(b.length) : b.length;
                BtfText t = BtfSignatures.parse(java.util.Arrays.copyOf(b, len), "mutated");
                BpfProg p = RecordedBpf.withXlated(p0, good);
                dump(p, t, Syntax.KERNEL);
            }
        }
    }

    @Property(tries = 200)
    void lfindMatchesLinearDefinition(@ForAll @Size(max = 12) List<@IntRange(max = 30) Integer> offs,
                                      @ForAll @IntRange(max = 40) int insn, @ForAll @IntRange(max = 14) int skip) {
        List<Integer> sorted = new ArrayList<>(offs);
        sorted.sort(null);
        List<BpfProg.LineInfo> lines = sorted.stream().map(o -> new BpfProg.LineInfo(o, 0, 0, 0)).toList();
        int got = XlatedPrinter.lfind(lines, insn, skip);
        int want = -1;
        if (skip < lines.size() && insn >= lines.get(skip).insnOff()) {
            for (int i = skip; i < lines.size() && lines.get(i).insnOff() <= insn; i++) {
                want = i;
            }
        }
        assertEquals(want, got);
    }

    /** A BTF with one FUNC whose prototype refers to a missing type. */
    private static BtfText tinyBtf() {
        // int (id 1), FUNC_PROTO int (*)(missing id 9) (id 2), FUNC f (id 3)
        byte[] strings = "\0int\0f\0x\0".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        java.nio.ByteBuffer t = java.nio.ByteBuffer.allocate(16 + 12 + 8 + 12).order(ByteOrder.LITTLE_ENDIAN);
        t.putInt(1).putInt(1 << 24).putInt(4).putInt(32 | 1 << 24);
        t.putInt(0).putInt(13 << 24 | 1).putInt(1).putInt(7).putInt(9);
        t.putInt(5).putInt(12 << 24).putInt(2);
        byte[] types = t.array();
        java.nio.ByteBuffer b = io.perfj.btf.wire.Header.allocate(types.length, strings.length, ByteOrder.LITTLE_ENDIAN)
                .put(types).put(strings);
        BtfText text = BtfSignatures.parse(b.array(), "tiny");
        if (text instanceof BtfSignatures s) {
            Btf unused = s.btf();
            assertEquals("", text.typeOnly(3));
        }
        return text;
    }
}
