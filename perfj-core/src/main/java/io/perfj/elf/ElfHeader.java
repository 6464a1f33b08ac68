package io.perfj.elf;

import io.perfj.io.Bytes;
import io.perfj.io.FormatException;

import java.nio.ByteOrder;

/**
 * The ELF file header (gABI "ELF Header"), with class and byte order already decoded. The
 * counts are the raw header fields; {@link ElfFile} resolves the extended numbering (e_shnum 0,
 * e_shstrndx SHN_XINDEX, e_phnum PN_XNUM) from section 0.
 */
public record ElfHeader(int elfClass, ByteOrder order, int osAbi, int abiVersion, int type, int machine,
                        long version, long entry, long phoff, long shoff, int flags, int ehsize,
                        int phentsize, int phnum, int shentsize, int shnum, int shstrndx) {

    public boolean is64() {
        return elfClass == Elf.ELFCLASS64;
    }

    /** Size of an address/offset field: 8 for ELF64, 4 for ELF32. */
    public int wordSize() {
        return is64() ? 8 : 4;
    }

    public String typeName() {
        return switch (type) {
            case Elf.ET_NONE -> "NONE";
            case Elf.ET_REL -> "REL";
            case Elf.ET_EXEC -> "EXEC";
            case Elf.ET_DYN -> "DYN";
            case Elf.ET_CORE -> "CORE";
            default -> "0x" + Integer.toHexString(type);
        };
    }

    static boolean hasMagic(Bytes b) {
        return b.has(0, 4) && b.u8(0) == 0x7f && b.u8(1) == 'E' && b.u8(2) == 'L' && b.u8(3) == 'F';
    }

    /** Decodes the header at the start of {@code file}. */
    static ElfHeader read(Bytes file) {
        Bytes b = file.named("ELF header");
        if (!b.has(0, 16)) {
            throw b.error(0, "file is " + b.size() + " bytes, too short for an ELF identification");
        }
        if (!hasMagic(b)) {
            throw b.error(0, "not an ELF file (bad magic)");
        }
        int cls = b.u8(4);
        int data = b.u8(5);
        if (cls != Elf.ELFCLASS32 && cls != Elf.ELFCLASS64) {
            throw b.error(4, "unknown ELF class " + cls);
        }
        ByteOrder order = switch (data) {
            case Elf.ELFDATA2LSB -> ByteOrder.LITTLE_ENDIAN;
            case Elf.ELFDATA2MSB -> ByteOrder.BIG_ENDIAN;
            default -> throw b.error(5, "unknown ELF data encoding " + data);
        };
        b = b.withOrder(order);
        int osAbi = b.u8(7);
        int abiVersion = b.u8(8);
        boolean is64 = cls == Elf.ELFCLASS64;
        int size = is64 ? 64 : 52;
        if (!b.has(0, size)) {
            throw b.error(0, "file is " + b.size() + " bytes, too short for the " + size + "-byte ELF header");
        }
        int type = b.u16(16);
        int machine = b.u16(18);
        long version = b.u32(20);
        long entry;
        long phoff;
        long shoff;
        int p;
        if (is64) {
            entry = b.u64(24);
            phoff = b.u64(32);
            shoff = b.u64(40);
            p = 48;
        } else {
            entry = b.u32(24);
            phoff = b.u32(28);
            shoff = b.u32(32);
            p = 36;
        }
        int flags = b.s32(p);
        int ehsize = b.u16(p + 4);
        int phentsize = b.u16(p + 6);
        int phnum = b.u16(p + 8);
        int shentsize = b.u16(p + 10);
        int shnum = b.u16(p + 12);
        int shstrndx = b.u16(p + 14);
        return new ElfHeader(cls, order, osAbi, abiVersion, type, machine, version, entry, phoff, shoff,
                flags, ehsize, phentsize, phnum, shentsize, shnum, shstrndx);
    }

    static FormatException bad(Bytes b, long off, String detail) {
        return b.error(off, detail);
    }
}
