package io.perfj.elf;

import io.perfj.io.Bytes;

import java.nio.charset.StandardCharsets;

/**
 * The entries of a SHT_SYMTAB / SHT_DYNSYM section as columns of primitives, decoded in one pass
 * without making a String per name: a symbol table of 70k entries (libjvm.so) is filtered and
 * indexed by address, and only the names that are asked for are read. Name offsets are checked
 * against the string table when the columns are made, so a bad one fails here, as
 * {@link ElfFile#symbols} does.
 */
public final class ElfSymbolColumns {
    private final int count;
    private final long[] value;
    private final long[] size;
    private final int[] nameOff;
    private final byte[] info;
    private final byte[] other;
    private final int[] shndx;
    private final Bytes strtab;
    private final SymbolVersions versions;

    private ElfSymbolColumns(int count, long[] value, long[] size, int[] nameOff, byte[] info, byte[] other,
                             int[] shndx, Bytes strtab, SymbolVersions versions) {
        this.count = count;
        this.value = value;
        this.size = size;
        this.nameOff = nameOff;
        this.info = info;
        this.other = other;
        this.shndx = shndx;
        this.strtab = strtab;
        this.versions = versions;
    }

    static ElfSymbolColumns read(ElfFile elf, SectionHeader sec) {
        boolean is64 = elf.is64();
        int entsize = is64 ? 24 : 16;
        Bytes data = elf.sectionData(sec);
        if (sec.entsize() != 0 && sec.entsize() != entsize) {
            throw data.error(0, "symbol entry size " + sec.entsize() + " (expected " + entsize + ")");
        }
        long total = data.size() / entsize;
        if (total > Integer.MAX_VALUE / 4) {
            throw data.error(0, total + " symbol entries are too many");
        }
        int n = (int) total;
        Bytes strtab = elf.sectionData(elf.section(sec.link(), "string table of " + sec.name()));
        SymbolVersions versions = sec.type() == Elf.SHT_DYNSYM ? SymbolVersions.read(elf, sec) : null;
        Bytes shndxTable = null;
        for (SectionHeader s : elf.sections()) {
            if (s.type() == Elf.SHT_SYMTAB_SHNDX && s.link() == sec.index()) {
                shndxTable = elf.sectionData(s);
            }
        }
        long[] value = new long[n];
        long[] size = new long[n];
        int[] nameOff = new int[n];
        byte[] info = new byte[n];
        byte[] other = new byte[n];
        int[] shndx = new int[n];
        long strSize = strtab.size();
        for (int i = 0; i < n; i++) {
            long off = (long) i * entsize;
            long name = data.u32(off);
            int sh;
            if (is64) {
                info[i] = (byte) data.u8(off + 4);
                other[i] = (byte) data.u8(off + 5);
                sh = data.u16(off + 6);
                value[i] = data.u64(off + 8);
                size[i] = data.u64(off + 16);
            } else {
                value[i] = data.u32(off + 4);
                size[i] = data.u32(off + 8);
                info[i] = (byte) data.u8(off + 12);
                other[i] = (byte) data.u8(off + 13);
                sh = data.u16(off + 14);
            }
            if (sh == Elf.SHN_XINDEX && shndxTable != null && shndxTable.has(4L * i, 4)) {
                sh = shndxTable.s32(4L * i);
            }
            shndx[i] = sh;
            if (name != 0 && name >= strSize) {
                throw strtab.error(0, "symbol name offset 0x" + Long.toHexString(name) + " is outside the "
                        + strSize + "-byte string table");
            }
            nameOff[i] = (int) name;
        }
        return new ElfSymbolColumns(n, value, size, nameOff, info, other, shndx, strtab, versions);
    }

    public int count() {
        return count;
    }

    public long value(int i) {
        return value[i];
    }

    public long size(int i) {
        return size[i];
    }

    public int type(int i) {
        return info[i] & 0xf;
    }

    public int bind(int i) {
        return (info[i] & 0xff) >>> 4;
    }

    public int visibility(int i) {
        return other[i] & 0x3;
    }

    /** Section index, SHN_XINDEX resolved. */
    public int shndx(int i) {
        return shndx[i];
    }

    /** Offset of the name in the string table ({@link #strings()}); 0 for none. */
    public int nameOffset(int i) {
        return nameOff[i];
    }

    /** Whether the entry has no name (offset 0 or an empty string). */
    public boolean nameEmpty(int i) {
        return nameOff[i] == 0 || strtab.u8(nameOff[i]) == 0;
    }

    /** Byte {@code k} of the name, or 0 past its end. */
    public int nameByte(int i, int k) {
        for (int j = 0; j <= k; j++) {
            long at = (long) nameOff[i] + j;
            if (nameOff[i] == 0 || at >= strtab.size()) {
                return 0;
            }
            int b = strtab.u8(at);
            if (b == 0) {
                return 0;
            }
            if (j == k) {
                return b;
            }
        }
        return 0;
    }

    /** The name as stored. */
    public String name(int i) {
        if (nameOff[i] == 0) {
            return "";
        }
        return strtab.cstring(nameOff[i], strtab.size() - nameOff[i]);
    }

    /** The string table's bytes, to read names from after the file is closed. */
    public byte[] strings() {
        return strtab.bytes(0, strtab.size());
    }

    /** A name read from {@link #strings()}: the bytes at {@code off} up to a NUL or the end. */
    public static String name(byte[] strings, int off) {
        if (off == 0) {
            return "";
        }
        int end = off;
        while (end < strings.length && strings[end] != 0) {
            end++;
        }
        return new String(strings, off, end - off, StandardCharsets.UTF_8);
    }

    /** perf's binding letter for {@link io.perfj.symbols.Symbol}: G, W, L or U. */
    public char bindingChar(int i) {
        return switch (bind(i)) {
            case Elf.STB_GLOBAL, Elf.STB_GNU_UNIQUE -> 'G';
            case Elf.STB_WEAK -> 'W';
            case Elf.STB_LOCAL -> 'L';
            default -> 'U';
        };
    }

    /** Entry {@code i} as an object, with its GNU version for a .dynsym. */
    public ElfSymbol entry(int i) {
        String version = null;
        boolean hidden = false;
        if (versions != null) {
            int raw = versions.raw(i);
            if (raw > 1) {
                version = versions.name(raw & 0x7fff);
                hidden = (raw & Elf.VERSYM_HIDDEN) != 0;
            }
        }
        return new ElfSymbol(i, name(i), value[i], size[i], info[i] & 0xff, other[i] & 0xff, shndx[i], version, hidden);
    }
}
