package io.perfj.btf.encode;

import io.perfj.elf.ElfFile;
import io.perfj.elf.SectionHeader;
import io.perfj.io.FormatException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * A copy of an ELF file with a {@code .BTF} section holding given bytes, as {@code pahole -J}
 * leaves its input: an existing {@code .BTF} section is pointed at the new bytes, otherwise a
 * section is added (PROGBITS, no flags, alignment 1, like {@code llvm-objcopy --add-section}).
 * New data, the section name table (when it grows) and the section header table are appended;
 * nothing already in the file moves, so segments stay valid.
 */
public final class ElfBtfSection {
    private ElfBtfSection() {
    }

    /** Writes the copy of {@code elf} (read from {@code source}) with {@code btf} to {@code target}. */
    public static void write(ElfFile elf, Path source, byte[] btf, Path target) throws IOException {
        Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
        Files.copy(source, tmp, StandardCopyOption.REPLACE_EXISTING);
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
            Patch patch = plan(elf, btf);
            ch.write(ByteBuffer.wrap(patch.tail), patch.tailOffset);
            ch.write(ByteBuffer.wrap(patch.header), 0);
        }
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
    }

    /** The appended bytes (BTF, names, section headers) and the patched ELF header. */
    record Patch(long tailOffset, byte[] tail, byte[] header) {
    }

    static Patch plan(ElfFile elf, byte[] btf) {
        long origLength = elf.bytes().size();
        boolean is64 = elf.is64();
        ByteOrder order = elf.order();
        List<SectionHeader> secs = elf.sections();
        if (secs.isEmpty()) {
            throw new FormatException(elf.name(), "section header table", 0, "the file has no sections to add .BTF to");
        }
        SectionHeader existing = elf.section(".BTF").orElse(null);
        int shstrndx = elf.header().shstrndx() == 0xffff ? secs.get(0).link() : elf.header().shstrndx();
        if (shstrndx <= 0 || shstrndx >= secs.size()) {
            throw new FormatException(elf.name(), "ELF header", 0, "no section name string table");
        }
        SectionHeader shstr = secs.get(shstrndx);
        int entSize = is64 ? 64 : 40;

        long pos = align(origLength, 8);
        long btfOff = pos;
        pos += btf.length;
        long strOff = -1;
        byte[] newStr = null;
        if (existing == null) {
            byte[] old = elf.sectionData(shstr).bytes(0, shstr.size());
            byte[] name = ".BTF\0".getBytes(StandardCharsets.US_ASCII);
            newStr = new byte[old.length + name.length];
            System.arraycopy(old, 0, newStr, 0, old.length);
            System.arraycopy(name, 0, newStr, old.length, name.length);
            strOff = pos;
            pos += newStr.length;
        }
        pos = align(pos, 8);
        long shoff = pos;
        int shnum = secs.size() + (existing == null ? 1 : 0);
        long total = shoff + (long) shnum * entSize;
        long base = origLength;
        if (total - base > Integer.MAX_VALUE - 16) {
            throw new FormatException(elf.name(), "ELF file", 0, "the BTF is too large");
        }
        ByteBuffer out = ByteBuffer.allocate((int) (total - base)).order(order);
        out.position((int) (btfOff - base));
        out.put(btf);
        if (newStr != null) {
            out.position((int) (strOff - base));
            out.put(newStr);
        }
        for (int i = 0; i < secs.size(); i++) {
            SectionHeader s = secs.get(i);
            long offset = s.offset();
            long size = s.size();
            if (existing != null && i == existing.index()) {
                offset = btfOff;
                size = btf.length;
            }
            if (newStr != null && i == shstrndx) {
                offset = strOff;
                size = newStr.length;
            }
            long sz = size;
            if (i == 0 && shnum >= 0xff00) {
                sz = shnum;
            }
            putSection(out, (int) (shoff - base + (long) i * entSize), is64, s.nameOffset(), s.type(), s.flags(), s.addr(),
                    offset, sz, s.link(), s.info(), s.addralign(), s.entsize());
        }
        if (existing == null) {
            putSection(out, (int) (shoff - base + (long) secs.size() * entSize), is64, shstr.size(), 1, 0, 0, btfOff,
                    btf.length, 0, 0, 1, 0);
        }
        // e_shoff and e_shnum
        int ehsize = is64 ? 64 : 52;
        ByteBuffer h = ByteBuffer.wrap(elf.bytes().bytes(0, ehsize)).order(order);
        if (is64) {
            h.putLong(0x28, shoff);
            h.putShort(0x3c, (short) (shnum >= 0xff00 ? 0 : shnum));
        } else {
            h.putInt(0x20, (int) shoff);
            h.putShort(0x30, (short) (shnum >= 0xff00 ? 0 : shnum));
        }
        return new Patch(base, out.array(), h.array());
    }

    private static long align(long v, int a) {
        return (v + a - 1) / a * a;
    }

    private static void putSection(ByteBuffer b, int at, boolean is64, long name, int type, long flags, long addr,
                                   long offset, long size, int link, int info, long align, long entsize) {
        if (is64) {
            b.putInt(at, (int) name);
            b.putInt(at + 4, type);
            b.putLong(at + 8, flags);
            b.putLong(at + 16, addr);
            b.putLong(at + 24, offset);
            b.putLong(at + 32, size);
            b.putInt(at + 40, link);
            b.putInt(at + 44, info);
            b.putLong(at + 48, align);
            b.putLong(at + 56, entsize);
        } else {
            b.putInt(at, (int) name);
            b.putInt(at + 4, type);
            b.putInt(at + 8, (int) flags);
            b.putInt(at + 12, (int) addr);
            b.putInt(at + 16, (int) offset);
            b.putInt(at + 20, (int) size);
            b.putInt(at + 24, link);
            b.putInt(at + 28, info);
            b.putInt(at + 32, (int) align);
            b.putInt(at + 36, (int) entsize);
        }
    }
}
