package io.perfj.annotate;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Wraps raw x86-64 machine code in a minimal ELF executable (a .text section at the code's
 * address and one function symbol covering it) so that objdump and llvm-objdump, which both read
 * ELF, disassemble a JIT image with the right addresses and label.
 */
final class CodeElf {
    private CodeElf() {
    }

    static Path write(byte[] code, long base, String symbol) throws IOException {
        byte[] shstrtab = "\0.text\0.symtab\0.strtab\0.shstrtab\0".getBytes(StandardCharsets.US_ASCII);
        byte[] name = symbol.getBytes(StandardCharsets.UTF_8);
        byte[] strtab = new byte[name.length + 2];
        System.arraycopy(name, 0, strtab, 1, name.length);
        int textOff = 64;
        int symOff = align(textOff + code.length, 8);
        int symSize = 2 * 24;
        int strOff = symOff + symSize;
        int shstrOff = strOff + strtab.length;
        int shOff = align(shstrOff + shstrtab.length, 8);
        int nsec = 5;
        ByteBuffer b = ByteBuffer.allocate(shOff + nsec * 64).order(ByteOrder.LITTLE_ENDIAN);
        // ELF header
        b.put(new byte[] {0x7f, 'E', 'L', 'F', 2, 1, 1, 0});
        b.position(16);
        b.putShort((short) 2); // ET_EXEC
        b.putShort((short) 62); // EM_X86_64
        b.putInt(1);
        b.putLong(base); // entry
        b.putLong(0); // phoff
        b.putLong(shOff);
        b.putInt(0);
        b.putShort((short) 64);
        b.putShort((short) 0);
        b.putShort((short) 0);
        b.putShort((short) 64);
        b.putShort((short) nsec);
        b.putShort((short) 4); // shstrndx
        b.position(textOff);
        b.put(code);
        // symbols: null, then the function
        b.position(symOff + 24);
        b.putInt(1); // name
        b.put((byte) 0x12); // STB_GLOBAL, STT_FUNC
        b.put((byte) 0);
        b.putShort((short) 1); // .text
        b.putLong(base);
        b.putLong(code.length);
        b.position(strOff);
        b.put(strtab);
        b.position(shstrOff);
        b.put(shstrtab);
        b.position(shOff + 64);
        section(b, 1, 1, 6, base, textOff, code.length, 0, 0, 16, 0); // .text: PROGBITS, ALLOC|EXEC
        section(b, 7, 2, 0, 0, symOff, symSize, 3, 1, 8, 24); // .symtab -> .strtab, one local
        section(b, 15, 3, 0, 0, strOff, strtab.length, 0, 0, 1, 0); // .strtab
        section(b, 23, 3, 0, 0, shstrOff, shstrtab.length, 0, 0, 1, 0); // .shstrtab
        Path p = Files.createTempFile("perfj-code", ".elf");
        Files.write(p, b.array());
        return p;
    }

    private static void section(ByteBuffer b, int name, int type, long flags, long addr, long off, long size, int link,
                                int info, long align, long entsize) {
        b.putInt(name);
        b.putInt(type);
        b.putLong(flags);
        b.putLong(addr);
        b.putLong(off);
        b.putLong(size);
        b.putInt(link);
        b.putInt(info);
        b.putLong(align);
        b.putLong(entsize);
    }

    private static int align(int v, int a) {
        return (v + a - 1) / a * a;
    }
}
