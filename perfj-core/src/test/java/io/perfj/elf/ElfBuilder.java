package io.perfj.elf;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes small synthetic ELF images (either class, either byte order): one PT_LOAD, a .text,
 * a .symtab with its .strtab, a build-id note and the section name table.
 */
public final class ElfBuilder {
    record Sym(String name, long value, long size, int type, int bind) {
    }

    final boolean is64;
    final ByteOrder order;
    int type = Elf.ET_DYN;
    int machine = Elf.EM_X86_64;
    long textAddr = 0x401000;
    long textOffset = 0x1000;
    int textSize = 0x100;
    byte[] buildId = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20};
    final List<Sym> syms = new ArrayList<>();

    public ElfBuilder(boolean is64, ByteOrder order) {
        this.is64 = is64;
        this.order = order;
    }

    public ElfBuilder sym(String name, long value, long size, int type, int bind) {
        syms.add(new Sym(name, value, size, type, bind));
        return this;
    }

    public byte[] build() {
        int ehsize = is64 ? 64 : 52;
        int phentsize = is64 ? 56 : 32;
        int shentsize = is64 ? 64 : 40;
        int symentsize = is64 ? 24 : 16;
        // layout: ehdr, phdr, [pad to textOffset] text, note, strtab, symtab, shstrtab, shdrs
        ByteArrayOutputStream strtab = new ByteArrayOutputStream();
        strtab.write(0);
        List<Integer> nameOffs = new ArrayList<>();
        for (Sym s : syms) {
            nameOffs.add(strtab.size());
            strtab.writeBytes(s.name().getBytes(StandardCharsets.UTF_8));
            strtab.write(0);
        }
        String[] secNames = {"", ".text", ".note.gnu.build-id", ".strtab", ".symtab", ".shstrtab"};
        ByteArrayOutputStream shstr = new ByteArrayOutputStream();
        int[] secNameOff = new int[secNames.length];
        for (int i = 0; i < secNames.length; i++) {
            secNameOff[i] = shstr.size();
            shstr.writeBytes(secNames[i].getBytes(StandardCharsets.UTF_8));
            shstr.write(0);
        }
        int noteSize = 12 + 4 + buildId.length;
        long noteOff = textOffset + textSize;
        long strOff = noteOff + noteSize;
        long symOff = align(strOff + strtab.size(), 8);
        int symSize = (syms.size() + 1) * symentsize;
        long shstrOff = symOff + symSize;
        long shOff = align(shstrOff + shstr.size(), 8);
        int total = (int) (shOff + (long) secNames.length * shentsize);
        ByteBuffer b = ByteBuffer.allocate(total).order(order);
        // ident
        b.put(0, (byte) 0x7f).put(1, (byte) 'E').put(2, (byte) 'L').put(3, (byte) 'F');
        b.put(4, (byte) (is64 ? 2 : 1)).put(5, (byte) (order == ByteOrder.LITTLE_ENDIAN ? 1 : 2)).put(6, (byte) 1);
        b.putShort(16, (short) type).putShort(18, (short) machine).putInt(20, 1);
        int p;
        if (is64) {
            b.putLong(24, textAddr).putLong(32, ehsize).putLong(40, shOff);
            p = 48;
        } else {
            b.putInt(24, (int) textAddr).putInt(28, ehsize).putInt(32, (int) shOff);
            p = 36;
        }
        b.putInt(p, 0).putShort(p + 4, (short) ehsize).putShort(p + 6, (short) phentsize).putShort(p + 8, (short) 1)
                .putShort(p + 10, (short) shentsize).putShort(p + 12, (short) secNames.length).putShort(p + 14, (short) 5);
        // one PT_LOAD covering .text
        int ph = ehsize;
        if (is64) {
            b.putInt(ph, Elf.PT_LOAD).putInt(ph + 4, 5).putLong(ph + 8, textOffset).putLong(ph + 16, textAddr)
                    .putLong(ph + 24, textAddr).putLong(ph + 32, textSize).putLong(ph + 40, textSize).putLong(ph + 48, 0x1000);
        } else {
            b.putInt(ph, Elf.PT_LOAD).putInt(ph + 4, (int) textOffset).putInt(ph + 8, (int) textAddr)
                    .putInt(ph + 12, (int) textAddr).putInt(ph + 16, textSize).putInt(ph + 20, textSize).putInt(ph + 24, 5)
                    .putInt(ph + 28, 0x1000);
        }
        // note
        int n = (int) noteOff;
        b.putInt(n, 4).putInt(n + 4, buildId.length).putInt(n + 8, Elf.NT_GNU_BUILD_ID);
        b.put(n + 12, (byte) 'G').put(n + 13, (byte) 'N').put(n + 14, (byte) 'U').put(n + 15, (byte) 0);
        b.put(n + 16, buildId);
        b.put((int) strOff, strtab.toByteArray());
        for (int i = 0; i < syms.size(); i++) {
            Sym s = syms.get(i);
            int o = (int) symOff + (i + 1) * symentsize;
            int info = (s.bind() << 4) | s.type();
            if (is64) {
                b.putInt(o, nameOffs.get(i)).put(o + 4, (byte) info).put(o + 5, (byte) 0).putShort(o + 6, (short) 1)
                        .putLong(o + 8, s.value()).putLong(o + 16, s.size());
            } else {
                b.putInt(o, nameOffs.get(i)).putInt(o + 4, (int) s.value()).putInt(o + 8, (int) s.size())
                        .put(o + 12, (byte) info).put(o + 13, (byte) 0).putShort(o + 14, (short) 1);
            }
        }
        b.put((int) shstrOff, shstr.toByteArray());
        long[][] shdrs = {
                {0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
                {secNameOff[1], Elf.SHT_PROGBITS, Elf.SHF_ALLOC | Elf.SHF_EXECINSTR, textAddr, textOffset, textSize, 0, 0, 16, 0},
                {secNameOff[2], Elf.SHT_NOTE, Elf.SHF_ALLOC, textAddr + textSize, noteOff, noteSize, 0, 0, 4, 0},
                {secNameOff[3], Elf.SHT_STRTAB, 0, 0, strOff, strtab.size(), 0, 0, 1, 0},
                {secNameOff[4], Elf.SHT_SYMTAB, 0, 0, symOff, symSize, 3, 1, 8, symentsize},
                {secNameOff[5], Elf.SHT_STRTAB, 0, 0, shstrOff, shstr.size(), 0, 0, 1, 0},
        };
        for (int i = 0; i < shdrs.length; i++) {
            long[] s = shdrs[i];
            int o = (int) shOff + i * shentsize;
            if (is64) {
                b.putInt(o, (int) s[0]).putInt(o + 4, (int) s[1]).putLong(o + 8, s[2]).putLong(o + 16, s[3])
                        .putLong(o + 24, s[4]).putLong(o + 32, s[5]).putInt(o + 40, (int) s[6]).putInt(o + 44, (int) s[7])
                        .putLong(o + 48, s[8]).putLong(o + 56, s[9]);
            } else {
                b.putInt(o, (int) s[0]).putInt(o + 4, (int) s[1]).putInt(o + 8, (int) s[2]).putInt(o + 12, (int) s[3])
                        .putInt(o + 16, (int) s[4]).putInt(o + 20, (int) s[5]).putInt(o + 24, (int) s[6])
                        .putInt(o + 28, (int) s[7]).putInt(o + 32, (int) s[8]).putInt(o + 36, (int) s[9]);
            }
        }
        return b.array();
    }

    private static long align(long v, long a) {
        return (v + a - 1) & -a;
    }
}
