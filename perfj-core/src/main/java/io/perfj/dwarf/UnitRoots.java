package io.perfj.dwarf;

import io.perfj.elf.SectionContents;
import io.perfj.elf.ElfFile;
import io.perfj.io.Bytes;
import io.perfj.io.Cursor;
import io.perfj.io.Leb128;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The root DIE of every compilation unit in {@code .debug_info}, read only for what line tables
 * need: the unit's name, compilation directory and line program offset. Units of other kinds
 * (type, skeleton) are stepped over.
 */
final class UnitRoots {
    record Root(long stmtList, String name, String compDir) {
    }

    private static final int DW_AT_name = 0x03;
    private static final int DW_AT_stmt_list = 0x10;
    private static final int DW_AT_comp_dir = 0x1b;
    private static final int DW_AT_str_offsets_base = 0x72;

    private UnitRoots() {
    }

    static List<Root> read(ElfFile elf, Bytes str, Bytes lineStr) {
        Optional<Bytes> infoSec = SectionContents.section(elf, ".debug_info");
        Optional<Bytes> abbrevSec = SectionContents.section(elf, ".debug_abbrev");
        List<Root> out = new ArrayList<>();
        if (infoSec.isEmpty() || abbrevSec.isEmpty()) {
            return out;
        }
        Bytes info = infoSec.get();
        Bytes abbrev = abbrevSec.get();
        Bytes strOffsets = SectionContents.section(elf, ".debug_str_offsets").orElse(null);
        long off = 0;
        while (off + 11 <= info.size()) {
            Cursor c = info.cursor(off);
            InitialLength il = InitialLength.read(c);
            long len = il.length();
            boolean dwarf64 = il.dwarf64();
            long end = c.position() + len;
            if (len <= 0 || end > info.size()) {
                break;
            }
            int version = c.u16();
            long abbrevOff;
            int addrSize;
            int unitType = 1;
            if (version >= 5) {
                unitType = c.u8();
                addrSize = c.u8();
                abbrevOff = dwarf64 ? c.u64() : c.u32();
                if (unitType == 4 || unitType == 5) { // skeleton, split_compile: dwo id
                    c.skip(8);
                } else if (unitType == 2 || unitType == 6) { // type units
                    c.skip(8 + (dwarf64 ? 8 : 4));
                }
            } else {
                abbrevOff = dwarf64 ? c.u64() : c.u32();
                addrSize = c.u8();
            }
            if (version >= 2 && version <= 5 && (unitType == 1 || unitType == 3)) {
                Root r = root(c, abbrev, abbrevOff, dwarf64, addrSize, str, lineStr, strOffsets);
                if (r != null) {
                    out.add(r);
                }
            }
            off = end;
        }
        return out;
    }

    private static Root root(Cursor c, Bytes abbrev, long abbrevOff, boolean dwarf64, int addrSize, Bytes str,
                             Bytes lineStr, Bytes strOffsets) {
        long code = Leb128.unsigned(c);
        if (code == 0 || abbrevOff < 0 || abbrevOff >= abbrev.size()) {
            return null;
        }
        Cursor a = abbrev.cursor(abbrevOff);
        // find the abbreviation with this code
        while (true) {
            long ac = Leb128.unsigned(a);
            if (ac == 0) {
                return null;
            }
            Leb128.unsigned(a); // tag
            a.u8(); // children
            if (ac == code) {
                break;
            }
            while (true) {
                long at = Leb128.unsigned(a);
                long form = Leb128.unsigned(a);
                if (form == 0x21) {
                    Leb128.signed(a);
                }
                if (at == 0 && form == 0) {
                    break;
                }
            }
        }
        long stmtList = -1;
        Object name = null;
        Object compDir = null;
        long strOffsetsBase = dwarf64 ? 16 : 8;
        Map<Integer, Long> strx = new HashMap<>();
        while (true) {
            long at = Leb128.unsigned(a);
            long form = Leb128.unsigned(a);
            if (form == 0x21) {
                Leb128.signed(a);
            }
            if (at == 0 && form == 0) {
                break;
            }
            Object v = LineTable.Forms.read(c, (int) form, dwarf64, addrSize, str, lineStr);
            boolean isStrx = form == 0x1a || (form >= 0x25 && form <= 0x28);
            switch ((int) at) {
                case DW_AT_stmt_list -> stmtList = v instanceof Long l ? l : -1;
                case DW_AT_name -> {
                    name = v;
                    if (isStrx) {
                        strx.put(DW_AT_name, (Long) v);
                    }
                }
                case DW_AT_comp_dir -> {
                    compDir = v;
                    if (isStrx) {
                        strx.put(DW_AT_comp_dir, (Long) v);
                    }
                }
                case DW_AT_str_offsets_base -> strOffsetsBase = v instanceof Long l ? l : strOffsetsBase;
                default -> {
                }
            }
        }
        if (strx.containsKey(DW_AT_name)) {
            name = indexed(strOffsets, str, strOffsetsBase, strx.get(DW_AT_name), dwarf64);
        }
        if (strx.containsKey(DW_AT_comp_dir)) {
            compDir = indexed(strOffsets, str, strOffsetsBase, strx.get(DW_AT_comp_dir), dwarf64);
        }
        return new Root(stmtList, name instanceof String s ? s : null, compDir instanceof String s ? s : null);
    }

    private static String indexed(Bytes strOffsets, Bytes str, long base, long index, boolean dwarf64) {
        if (strOffsets == null || str == null) {
            return null;
        }
        long at = base + index * (dwarf64 ? 8 : 4);
        if (at < 0 || at + (dwarf64 ? 8 : 4) > strOffsets.size()) {
            return null;
        }
        long off = dwarf64 ? strOffsets.u64(at) : strOffsets.u32(at);
        if (off < 0 || off >= str.size()) {
            return null;
        }
        return str.cstring(off, str.size() - off);
    }
}
