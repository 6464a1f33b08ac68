package io.perfj.dwarf.info;

import io.perfj.elf.Elf;
import io.perfj.elf.ElfFile;
import io.perfj.elf.SectionHeader;
import io.perfj.io.Bytes;
import io.perfj.io.FormatException;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The debugging information of an ELF file: the sections DIEs are read from and the list of
 * units in {@code .debug_info} and {@code .debug_types}. Units are independent, so callers may
 * walk them on several threads at once, each with its own {@link DieCursor}; abbreviation tables
 * are parsed once and shared.
 */
public final class DwarfInfo {
    /** Packed string references: the section in the top bits, the offset below. */
    static final long STR_INFO = 1L << 56;
    static final long STR_TYPES = 2L << 56;
    static final long STR_STR = 3L << 56;
    static final long STR_LINE_STR = 4L << 56;
    private static final long OFFSET_MASK = (1L << 56) - 1;

    private final String source;
    private final ByteOrder order;
    final boolean little;
    final DwarfSection info;
    final DwarfSection types;
    final DwarfSection abbrev;
    final DwarfSection str;
    final DwarfSection lineStr;
    final DwarfSection strOffsets;
    final DwarfSection addr;
    private final List<UnitHeader> units;
    /** Tables that more than one unit uses, parsed once; a table of one unit is parsed for its walk only. */
    private final ConcurrentHashMap<Long, AbbrevTable> abbrevs = new ConcurrentHashMap<>();
    private final java.util.Set<Long> sharedAbbrevs;

    private DwarfInfo(String source, ByteOrder order, DwarfSection info, DwarfSection types, DwarfSection abbrev,
                      DwarfSection str, DwarfSection lineStr, DwarfSection strOffsets, DwarfSection addr) {
        this.source = source;
        this.order = order;
        this.little = order == ByteOrder.LITTLE_ENDIAN;
        this.info = info;
        this.types = types;
        this.abbrev = abbrev;
        this.str = str;
        this.lineStr = lineStr;
        this.strOffsets = strOffsets;
        this.addr = addr;
        List<UnitHeader> all = new ArrayList<>();
        readUnits(info, false, all);
        readUnits(types, true, all);
        // the headers' pages are read again only when their units are walked
        info.release(0, info.size());
        types.release(0, types.size());
        this.units = Collections.unmodifiableList(all);
        // A kernel has one table per unit: keeping all 2,000 of them would hold ~100 MB for nothing.
        java.util.Set<Long> seen = new java.util.HashSet<>();
        java.util.Set<Long> shared = new java.util.HashSet<>();
        for (UnitHeader u : all) {
            if (!seen.add(u.abbrevOffset())) {
                shared.add(u.abbrevOffset());
            }
        }
        this.sharedAbbrevs = shared;
    }

    /** The DWARF sections of {@code elf}; an ELF without {@code .debug_info} has no units. */
    public static DwarfInfo of(ElfFile elf) {
        return new DwarfInfo(elf.name(), elf.order(), section(elf, ".debug_info", false),
                section(elf, ".debug_types", false), section(elf, ".debug_abbrev", true),
                section(elf, ".debug_str", true), section(elf, ".debug_line_str", true),
                section(elf, ".debug_str_offsets", true), section(elf, ".debug_addr", true));
    }

    public String source() {
        return source;
    }

    public ByteOrder order() {
        return order;
    }

    /** Size of .debug_info plus .debug_types, a measure of the work ahead. */
    public long infoSize() {
        return info.size() + types.size();
    }

    /** Size of .debug_str, where {@link DieCursor#debugStrOffset} points. */
    public long debugStrSize() {
        return str.size();
    }

    /**
     * The bytes of .debug_str when they are on the heap (as the section of every file is: see
     * {@code SectionContents}), for reading a {@link DieCursor#debugStrOffset} string in place; else null.
     */
    public byte[] debugStrBytes() {
        return str.heap() ? str.bytes() : null;
    }

    /** All units: those of {@code .debug_info} in section order, then those of {@code .debug_types}. */
    public List<UnitHeader> units() {
        return units;
    }

    /** A cursor over {@code unit}'s DIEs, positioned before its first DIE. */
    public DieCursor cursor(UnitHeader unit) {
        return cursor(unit, null);
    }

    /**
     * As {@link #cursor(UnitHeader)}, reusing the unit buffer of {@code previous} (a cursor of this
     * DWARF that is no longer used, or null): a thread walking unit after unit allocates nothing
     * per unit.
     */
    public DieCursor cursor(UnitHeader unit, DieCursor previous) {
        return new DieCursor(this, unit, abbrevTable(unit), previous);
    }

    AbbrevTable abbrevTable(UnitHeader unit) {
        if (!sharedAbbrevs.contains(unit.abbrevOffset())) {
            return AbbrevTable.read(abbrev, unit.abbrevOffset(), source);
        }
        AbbrevTable t = abbrevs.get(unit.abbrevOffset());
        if (t == null) {
            t = AbbrevTable.read(abbrev, unit.abbrevOffset(), source);
            AbbrevTable prev = abbrevs.putIfAbsent(unit.abbrevOffset(), t);
            if (prev != null) {
                t = prev;
            }
        }
        return t;
    }

    /** The string a packed reference (from {@link DieCursor#stringRef}) stands for. */
    public String string(long ref) {
        if (ref < 0) {
            return null;
        }
        DwarfSection sec = sectionOf(ref);
        long off = ref & OFFSET_MASK;
        if (off > sec.size()) {
            throw new FormatException(source, "string", off, "offset is outside the " + sec.size() + "-byte "
                    + sec.name());
        }
        if (!sec.heap()) {
            MemorySegment m = sec.data();
            long end = off;
            while (end < m.byteSize() && m.get(ValueLayout.JAVA_BYTE, end) != 0) {
                end++;
            }
            return new String(m.asSlice(off, end - off).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8);
        }
        byte[] s = sec.bytes();
        int o = (int) off;
        int end = o;
        while (end < s.length && s[end] != 0) {
            end++;
        }
        return new String(s, o, end - o, StandardCharsets.UTF_8);
    }

    /** Whether the string at {@code ref} equals the ASCII {@code text}, without building a String. */
    public boolean stringEquals(long ref, String text) {
        if (ref < 0) {
            return false;
        }
        MemorySegment s = sectionOf(ref).data();
        long off = ref & OFFSET_MASK;
        int n = text.length();
        if (off + n >= s.byteSize()) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (s.get(ValueLayout.JAVA_BYTE, off + i) != (byte) text.charAt(i)) {
                return false;
            }
        }
        return s.get(ValueLayout.JAVA_BYTE, off + n) == 0;
    }

    private DwarfSection sectionOf(long ref) {
        long kind = ref & ~OFFSET_MASK;
        if (kind == STR_INFO) {
            return info;
        } else if (kind == STR_TYPES) {
            return types;
        } else if (kind == STR_STR) {
            return str;
        } else {
            return lineStr;
        }
    }

    private void readUnits(DwarfSection sec, boolean inTypes, List<UnitHeader> out) {
        MemorySegment s = sec.data();
        long size = s.byteSize();
        long pos = 0;
        Bytes b = Bytes.of(s, order, source, "unit header in " + sec.name(), 0);
        while (pos < size) {
            long start = pos;
            long len = b.u32(pos);
            pos += 4;
            int offsetSize = 4;
            if (len == 0xffff_ffffL) {
                len = b.u64(pos);
                pos += 8;
                offsetSize = 8;
            } else if (len >= 0xffff_fff0L) {
                throw b.error(start, "reserved unit length 0x" + Long.toHexString(len));
            }
            if (len < 0 || len > size - pos) {
                throw b.error(start, "unit length 0x" + Long.toHexString(len) + " runs past the end of the "
                        + size + "-byte section");
            }
            long end = pos + len;
            Bytes u = b.slice(0, end);
            int version = u.u16(pos);
            pos += 2;
            if (version < 2 || version > 5) {
                throw b.error(start, "unsupported DWARF version " + version);
            }
            int unitType = inTypes ? Dw.UT_type : Dw.UT_compile;
            long abbrevOffset;
            int addressSize;
            long sig = 0;
            long typeOffset = 0;
            if (version >= 5) {
                unitType = u.u8(pos++);
                addressSize = u.u8(pos++);
                abbrevOffset = offsetSize == 8 ? u.u64(pos) : u.u32(pos);
                pos += offsetSize;
                switch (unitType) {
                    case Dw.UT_type, Dw.UT_split_type -> {
                        sig = u.u64(pos);
                        pos += 8;
                        typeOffset = start + (offsetSize == 8 ? u.u64(pos) : u.u32(pos));
                        pos += offsetSize;
                    }
                    case Dw.UT_skeleton, Dw.UT_split_compile -> {
                        sig = u.u64(pos);
                        pos += 8;
                    }
                    case Dw.UT_compile, Dw.UT_partial -> {
                    }
                    default -> throw b.error(start, "unknown unit type 0x" + Integer.toHexString(unitType));
                }
            } else {
                abbrevOffset = offsetSize == 8 ? u.u64(pos) : u.u32(pos);
                pos += offsetSize;
                addressSize = u.u8(pos++);
                if (inTypes) {
                    sig = u.u64(pos);
                    pos += 8;
                    typeOffset = start + (offsetSize == 8 ? u.u64(pos) : u.u32(pos));
                    pos += offsetSize;
                }
            }
            if (addressSize != 2 && addressSize != 4 && addressSize != 8) {
                throw b.error(start, "unsupported address size " + addressSize);
            }
            if (abbrevOffset < 0 || abbrevOffset >= abbrev.size()) {
                throw b.error(start, "abbreviation offset 0x" + Long.toHexString(abbrevOffset)
                        + " is outside the " + abbrev.size() + "-byte .debug_abbrev");
            }
            if (typeOffset != 0 && (typeOffset < pos || typeOffset >= end)) {
                throw b.error(start, "type offset 0x" + Long.toHexString(typeOffset - start) + " is outside the unit");
            }
            out.add(new UnitHeader(start, end, version, unitType, abbrevOffset, addressSize, offsetSize, sig,
                    typeOffset, pos, inTypes));
            pos = end;
        }
    }

    /**
     * The section {@code name} of {@code elf}; on the heap when {@code toHeap} or when it had to be
     * decompressed or relocated, otherwise where the ELF file holds it.
     */
    static DwarfSection section(ElfFile elf, String name, boolean toHeap) {
        SectionHeader sh = elf.section(name).orElse(null);
        if (sh == null || !sh.hasFileData() || sh.size() == 0) {
            return DwarfSection.EMPTY;
        }
        Bytes raw = elf.sectionData(sh);
        if (raw.size() > Integer.MAX_VALUE - 16) {
            throw raw.error(0, "sections over 2 GiB are not supported");
        }
        byte[] changed = io.perfj.elf.SectionContents.heapCopy(elf, sh, raw);
        if (changed != null) {
            return DwarfSection.ofBytes(name, changed, (sh.flags() & Elf.SHF_COMPRESSED) != 0 ? -1 : sh.offset());
        }
        if (!toHeap) {
            return DwarfSection.ofSegment(name, raw.segment(), sh.offset());
        }
        byte[] data = raw.bytes(0, raw.size());
        MemorySegment seg = raw.segment();
        if (seg.isMapped() && seg.byteSize() > 0) {
            // The heap copy is what gets read; let the mapping's pages go.
            try {
                seg.unload();
            } catch (RuntimeException e) {
                // only a hint
            }
        }
        return DwarfSection.ofBytes(name, data, sh.offset());
    }
}
