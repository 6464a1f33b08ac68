package io.perfj.elf;

import io.perfj.io.Bytes;
import io.perfj.io.FormatException;

import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The relocations a relocatable object ({@code ET_REL}: a {@code .o}, a kernel module) keeps for
 * one of its non-allocated sections, applied to a copy of that section's bytes. In such a file
 * the DWARF sections hold zeros where other sections are referred to (string offsets into
 * {@code .debug_str}, abbreviation offsets, code addresses); the real values are symbol plus
 * addend in the {@code SHT_RELA} section whose {@code sh_info} names the target. Only x86-64's
 * data relocations are known ({@code R_X86_64_64}, {@code _32}, {@code _32S}, {@code _PC32}, as
 * compilers emit them into debug sections); any other type, a symbol index past the symbol
 * table or a place past the section is a {@link FormatException} naming the relocation section
 * and the entry's offset in the file.
 */
public final class SectionRelocations {
    private static final int R_X86_64_NONE = 0;
    private static final int R_X86_64_64 = 1;
    private static final int R_X86_64_PC32 = 2;
    private static final int R_X86_64_32 = 10;
    private static final int R_X86_64_32S = 11;
    private static final int RELA64_SIZE = 24;
    private static final int SYM64_SIZE = 24;

    private SectionRelocations() {
    }

    /** The relocation sections that apply to {@code target}; empty unless the file is {@code ET_REL}. */
    public static List<SectionHeader> of(ElfFile elf, SectionHeader target) {
        if (elf.type() != Elf.ET_REL) {
            return List.of();
        }
        List<SectionHeader> out = new ArrayList<>(1);
        for (SectionHeader s : elf.sections()) {
            if ((s.type() == Elf.SHT_RELA || s.type() == Elf.SHT_REL) && s.info() == target.index()
                    && s.size() > 0) {
                out.add(s);
            }
        }
        return out;
    }

    /**
     * The address of each section (by index) once the file is laid out: a linked file's own
     * {@code sh_addr}s; for {@code ET_REL}, where every section claims address 0, the allocated
     * sections placed one after the other from 0 in section order, each at its alignment, as
     * elfutils' libdwfl places them before it relocates (so pahole's DWARF addresses are these).
     * Without a layout, variables in {@code .data} and {@code .data..percpu} would share addresses.
     */
    public static long[] addresses(ElfFile elf) {
        List<SectionHeader> secs = elf.sections();
        long[] out = new long[secs.size()];
        if (elf.type() != Elf.ET_REL) {
            for (int i = 0; i < out.length; i++) {
                out[i] = secs.get(i).addr();
            }
            return out;
        }
        long end = 0;
        for (int i = 1; i < out.length; i++) {
            SectionHeader s = secs.get(i);
            if (!s.isAlloc()) {
                continue;
            }
            long align = s.addralign() > 1 && Long.bitCount(s.addralign()) == 1 ? s.addralign() : 1;
            out[i] = (end + align - 1) & -align;
            end = out[i] + s.size();
        }
        return out;
    }

    /**
     * Applies every relocation of {@code target} (see {@link #of}) to {@code data}, the target's
     * uncompressed contents, in place, with the sections at {@link #addresses}.
     */
    public static void apply(ElfFile elf, SectionHeader target, byte[] data) {
        List<SectionHeader> rels = of(elf, target);
        if (rels.isEmpty()) {
            return;
        }
        long[] addr = addresses(elf);
        for (SectionHeader rel : rels) {
            applyOne(elf, target, rel, data, addr);
        }
    }

    private static void applyOne(ElfFile elf, SectionHeader target, SectionHeader rel, byte[] data, long[] addr) {
        Bytes r = elf.sectionData(rel);
        String what = "relocation section " + rel.name();
        if (rel.type() != Elf.SHT_RELA || !elf.is64() || elf.machine() != Elf.EM_X86_64) {
            throw new FormatException(elf.name(), what, r.base(), "relocations of "
                    + (rel.type() == Elf.SHT_RELA ? "SHT_RELA" : "SHT_REL") + " type for machine " + elf.machine()
                    + (elf.is64() ? "" : " (ELF32)") + " are not supported (only x86-64 RELA)");
        }
        if (rel.entsize() != 0 && rel.entsize() != RELA64_SIZE) {
            throw new FormatException(elf.name(), what, r.base(),
                    "entry size " + rel.entsize() + " (expected " + RELA64_SIZE + ")");
        }
        Bytes symtab = elf.sectionData(elf.section(rel.link(), "symbol table of " + rel.name()));
        long[] symAddr = symbolAddresses(symtab, addr);
        long n = r.size() / RELA64_SIZE;
        if (n * 3 > Integer.MAX_VALUE - 16) {
            throw new FormatException(elf.name(), what, r.base(), n + " relocations are too many");
        }
        // read in bulk: a kernel module's .debug_info has ~700k of them
        long[] e = r.segment().asSlice(0, n * RELA64_SIZE)
                .toArray(ValueLayout.JAVA_LONG_UNALIGNED.withOrder(elf.order()));
        ByteBuffer out = ByteBuffer.wrap(data).order(elf.order());
        for (int i = 0; i < n; i++) {
            long offset = e[3 * i];
            long info = e[3 * i + 1];
            long addend = e[3 * i + 2];
            int type = (int) info;
            long sym = info >>> 32;
            if (type == R_X86_64_NONE) {
                continue;
            }
            long at = r.base() + (long) i * RELA64_SIZE;
            if (sym >= symAddr.length) {
                throw new FormatException(elf.name(), what, at, "symbol index " + sym
                        + " is past the " + symAddr.length + "-entry symbol table");
            }
            long v = symAddr[(int) sym] + addend;
            int width = switch (type) {
                case R_X86_64_64 -> 8;
                case R_X86_64_32, R_X86_64_32S -> 4;
                case R_X86_64_PC32 -> {
                    v -= addr[target.index()] + offset;
                    yield 4;
                }
                default -> throw new FormatException(elf.name(), what, at,
                        "relocation type " + type + " is not supported in " + target.name());
            };
            if (Long.compareUnsigned(offset, data.length) >= 0 || data.length - offset < width) {
                throw new FormatException(elf.name(), what, at, "relocation at 0x"
                        + Long.toHexString(offset) + " is past the " + data.length + "-byte " + target.name());
            }
            if (width == 8) {
                out.putLong((int) offset, v);
            } else if (fits32(type, v)) {
                out.putInt((int) offset, (int) v);
            } else {
                throw new FormatException(elf.name(), what, at, "value 0x" + Long.toHexString(v)
                        + " does not fit relocation type " + type + " at 0x" + Long.toHexString(offset));
            }
        }
    }

    /**
     * Each symbol's address: in ET_REL a symbol's value is relative to its section, whose laid-out
     * address is added; SHN_UNDEF, SHN_ABS, SHN_COMMON and the other reserved indexes add nothing.
     */
    private static long[] symbolAddresses(Bytes symtab, long[] addr) {
        long count = symtab.size() / SYM64_SIZE;
        if (count > Integer.MAX_VALUE / 2) {
            throw symtab.error(0, count + " symbols are too many");
        }
        long[] out = new long[(int) count];
        for (int i = 1; i < out.length; i++) {
            long e = (long) i * SYM64_SIZE;
            int shndx = symtab.u16(e + 6);
            long value = symtab.u64(e + 8);
            out[i] = shndx > 0 && shndx < addr.length && shndx < Elf.SHN_LORESERVE ? value + addr[shndx] : value;
        }
        return out;
    }

    private static boolean fits32(int type, long v) {
        return type == R_X86_64_32 ? (v >>> 32) == 0 : v == (int) v;
    }
}
