package io.perfj.bpf;

import io.perfj.perfdata.feature.BpfProg;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

class BpfInsnTest {

    @Test
    void decodesBothByteOrders() {
        byte[] le = {0x79, 0x12, (byte) 0xe8, (byte) 0xff, 0x78, 0x56, 0x34, 0x12};
        assertEquals(BpfInsn.of(0x79, 2, 1, -24, 0x12345678), BpfInsn.decode(le, 0, ByteOrder.LITTLE_ENDIAN));
        byte[] be = {0x79, 0x21, (byte) 0xff, (byte) 0xe8, 0x12, 0x34, 0x56, 0x78};
        assertEquals(BpfInsn.of(0x79, 2, 1, -24, 0x12345678), BpfInsn.decode(be, 0, ByteOrder.BIG_ENDIAN));
        assertEquals(2, BpfInsn.decodeAll(new byte[23], ByteOrder.LITTLE_ENDIAN).length);
        assertEquals(BpfInsn.of(0x18, 1, 2, 0, 3), BpfInsn.decode(TestProgs.bytes(BpfInsn.of(0x18, 1, 2, 0, 3)), 0,
                ByteOrder.LITTLE_ENDIAN));
    }

    @Test
    void instructionNumbers() {
        XlatedInsn x5 = new XlatedInsn(5, BpfInsn.of(0x95, 0, 0, 0, 0), 1, 0, Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), "(95) exit", "");
        assertEquals("   5: (95) exit", x5.numbered(Syntax.KERNEL));
        assertEquals("   5: (95) exit", x5.numbered(Syntax.BPFTOOL_7_1));
        XlatedInsn x1000 = new XlatedInsn(1000, BpfInsn.of(0x95, 0, 0, 0, 0), 1, 0, Optional.of("int f(void)"),
                Optional.empty(), Optional.empty(), Optional.of("; return 0;"), "(95) exit", "");
        // bpftool 7.1 prints "% 4d": the sign blank appears once the number fills the width
        assertEquals(" 1000: (95) exit", x1000.numbered(Syntax.BPFTOOL_7_1));
        assertEquals("1000: (95) exit", x1000.numbered(Syntax.KERNEL));
        assertEquals(List.of("int f(void):", "; return 0;"), x1000.before());
    }

    @Test
    void sourceLinesAsBpftoolPrintsThem() {
        BtfText strings = new BtfText() {
            @Override
            public Optional<String> string(long offset) {
                return switch ((int) offset) {
                    case 1 -> Optional.of(" \t  x = 1;");
                    case 2 -> Optional.of("./a.c");
                    case 3 -> Optional.of("");
                    default -> Optional.empty();
                };
            }

            @Override
            public String typeOnly(long typeId) {
                return "";
            }

            @Override
            public Optional<String> typeName(long typeId) {
                return Optional.empty();
            }
        };
        BpfProg.LineInfo li = new BpfProg.LineInfo(0, 2, 1, 12 << 10 | 5);
        assertEquals(Optional.of("; x = 1;"), XlatedPrinter.sourceLine(strings, li, false));
        assertEquals(Optional.of("; x = 1; [file:./a.c line_num:12 line_col:5]"), XlatedPrinter.sourceLine(strings, li, true));
        assertEquals(Optional.of("; x = 1; [file: line_num:12 line_col:5]"),
                XlatedPrinter.sourceLine(strings, new BpfProg.LineInfo(0, 99, 1, 12 << 10 | 5), true));
        assertEquals(Optional.of("; "), XlatedPrinter.sourceLine(strings, new BpfProg.LineInfo(0, 2, 3, 0), false));
        assertEquals(Optional.empty(), XlatedPrinter.sourceLine(strings, new BpfProg.LineInfo(0, 2, 77, 0), true));
    }
}
