package io.perfj.dwarf;

import io.perfj.elf.SectionContents;
import io.perfj.elf.ElfFile;
import io.perfj.io.Bytes;
import io.perfj.io.Cursor;
import io.perfj.io.Leb128;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The address-to-line mapping of an ELF file: every {@code .debug_line} program (DWARF versions 2
 * to 5, as gcc and clang write them) run into one table of rows sorted by address. File names are
 * built the way binutils' {@code objdump -l} builds them: an absolute name as is, otherwise the
 * directory entry, joined under the unit's compilation directory when that directory is relative.
 */
public final class LineTable {
    /** One row: an address, where it came from, and whether it ends a sequence. */
    public record Row(long address, String file, int line, int column, int discriminator, boolean endSequence) {
    }

    private static final LineTable EMPTY = new LineTable(new Row[0]);

    private final Row[] rows;
    private final long[] addrs;

    private LineTable(Row[] rows) {
        this.rows = rows;
        this.addrs = new long[rows.length];
        for (int i = 0; i < rows.length; i++) {
            addrs[i] = rows[i].address();
        }
    }

    public static LineTable empty() {
        return EMPTY;
    }

    /** Reads every line program of {@code elf}; empty when it has no {@code .debug_line}. */
    public static LineTable of(ElfFile elf) {
        Optional<Bytes> line = SectionContents.section(elf, ".debug_line");
        if (line.isEmpty()) {
            return EMPTY;
        }
        Bytes lineStr = SectionContents.section(elf, ".debug_line_str").orElse(null);
        Bytes str = SectionContents.section(elf, ".debug_str").orElse(null);
        List<UnitRoots.Root> roots = UnitRoots.read(elf, str, lineStr);
        List<Row> rows = new ArrayList<>();
        Bytes b = line.get();
        long off = 0;
        while (off + 4 <= b.size()) {
            String compDir = null;
            for (UnitRoots.Root r : roots) {
                if (r.stmtList() == off) {
                    compDir = r.compDir();
                    break;
                }
            }
            off = readProgram(b, off, compDir, str, lineStr, rows);
        }
        Row[] arr = rows.toArray(new Row[0]);
        // Sequences are sorted by address; a stable sort keeps each sequence's rows in order.
        Arrays.sort(arr, (x, y) -> Long.compareUnsigned(x.address(), y.address()));
        return new LineTable(arr);
    }

    public int size() {
        return rows.length;
    }

    public List<Row> rows() {
        return List.of(rows);
    }

    /** The row covering {@code addr} (the last row at or before it, not an end of sequence), or null. */
    public Row find(long addr) {
        int best = io.perfj.io.UnsignedSearch.floor(addrs, addr);
        if (best < 0) {
            return null;
        }
        // Several rows at one address: the last one describes the instruction there, unless it
        // ends a sequence (then a row of another sequence at the same address may start there).
        Row r = rows[best];
        if (r.endSequence()) {
            for (int i = best - 1; i >= 0 && addrs[i] == addrs[best]; i--) {
                if (!rows[i].endSequence()) {
                    return rows[i];
                }
            }
            return null;
        }
        return r;
    }

    private static final int DW_LNS_copy = 1;
    private static final int DW_LNS_advance_pc = 2;
    private static final int DW_LNS_advance_line = 3;
    private static final int DW_LNS_set_file = 4;
    private static final int DW_LNS_set_column = 5;
    private static final int DW_LNS_negate_stmt = 6;
    private static final int DW_LNS_set_basic_block = 7;
    private static final int DW_LNS_const_add_pc = 8;
    private static final int DW_LNS_fixed_advance_pc = 9;
    private static final int DW_LNE_end_sequence = 1;
    private static final int DW_LNE_set_address = 2;
    private static final int DW_LNE_define_file = 3;
    private static final int DW_LNE_set_discriminator = 4;

    /** Runs the program at {@code start}; returns the offset of the next one. */
    static long readProgram(Bytes b, long start, String compDir, Bytes str, Bytes lineStr, List<Row> out) {
        Cursor c = b.cursor(start);
        InitialLength il = InitialLength.read(c);
        long unitLength = il.length();
        boolean dwarf64 = il.dwarf64();
        if (il.reserved()) {
            throw b.error(start, "reserved unit length 0x" + Long.toHexString(unitLength));
        }
        long end = c.position() + unitLength;
        if (unitLength < 0 || end > b.size() || end < c.position()) {
            throw b.error(start, "line program of " + unitLength + " bytes runs past the section");
        }
        int version = c.u16();
        if (version < 2 || version > 5) {
            throw b.error(start + (dwarf64 ? 12 : 4), "unsupported line table version " + version);
        }
        int addressSize = 8;
        if (version >= 5) {
            addressSize = c.u8();
            c.u8(); // segment selector size
        }
        long headerLength = dwarf64 ? c.u64() : c.u32();
        long programStart = c.position() + headerLength;
        if (headerLength < 0 || programStart > end) {
            throw b.error(start, "line program header length " + headerLength + " runs past the unit");
        }
        int minInst = c.u8();
        if (version >= 4) {
            c.u8(); // maximum operations per instruction (VLIW only)
        }
        boolean defaultIsStmt = c.u8() != 0;
        int lineBase = (byte) c.u8();
        int lineRange = c.u8();
        int opcodeBase = c.u8();
        if (lineRange == 0) {
            throw b.error(c.position() - 2, "line_range of 0");
        }
        int[] stdLengths = new int[Math.max(opcodeBase, 1)];
        for (int i = 1; i < opcodeBase; i++) {
            stdLengths[i] = c.u8();
        }
        List<String> dirs = new ArrayList<>();
        List<String[]> files = new ArrayList<>(); // {name, dirIndex}
        if (version >= 5) {
            readEntries(b, c, dirs, null, str, lineStr, dwarf64);
            readEntries(b, c, null, files, str, lineStr, dwarf64);
            if (compDir == null && !dirs.isEmpty()) {
                compDir = dirs.get(0);
            }
        } else {
            for (String d; !(d = cstr(c, end)).isEmpty(); ) {
                dirs.add(d);
            }
            for (String f; !(f = cstr(c, end)).isEmpty(); ) {
                long dir = Leb128.unsigned(c);
                Leb128.unsigned(c);
                Leb128.unsigned(c);
                files.add(new String[] {f, Long.toString(dir)});
            }
        }
        String[] names = new String[files.size()];
        for (int i = 0; i < names.length; i++) {
            names[i] = fileName(files.get(i)[0], Integer.parseInt(files.get(i)[1]), dirs, version, compDir);
        }

        c.position(programStart);
        long address = 0;
        int file = 1;
        int line = 1;
        int column = 0;
        int discriminator = 0;
        while (c.position() < end) {
            int op = c.u8();
            if (op >= opcodeBase) {
                int adj = op - opcodeBase;
                address += (long) (adj / lineRange) * minInst;
                line += lineBase + adj % lineRange;
                out.add(row(address, names, file, version, line, column, discriminator, false));
                discriminator = 0;
            } else if (op == 0) {
                long len = Leb128.unsigned(c);
                long next = c.position() + len;
                if (len <= 0 || next > end) {
                    throw b.error(c.position(), "extended line opcode of " + len + " bytes");
                }
                int sub = c.u8();
                switch (sub) {
                    case DW_LNE_end_sequence -> {
                        out.add(row(address, names, file, version, line, column, discriminator, true));
                        address = 0;
                        file = 1;
                        line = 1;
                        column = 0;
                        discriminator = 0;
                    }
                    case DW_LNE_set_address -> address = len - 1 == 4 ? c.u32() : c.u64();
                    case DW_LNE_set_discriminator -> discriminator = (int) Leb128.unsigned(c);
                    case DW_LNE_define_file -> {
                        // obsolete (DWARF 2-4): not used by gcc or clang
                    }
                    default -> {
                        // vendor extensions: skipped by length
                    }
                }
                c.position(next);
            } else {
                switch (op) {
                    case DW_LNS_copy -> {
                        out.add(row(address, names, file, version, line, column, discriminator, false));
                        discriminator = 0;
                    }
                    case DW_LNS_advance_pc -> address += Leb128.unsigned(c) * minInst;
                    case DW_LNS_advance_line -> line += (int) Leb128.signed(c);
                    case DW_LNS_set_file -> file = (int) Leb128.unsigned(c);
                    case DW_LNS_set_column -> column = (int) Leb128.unsigned(c);
                    case DW_LNS_negate_stmt, DW_LNS_set_basic_block -> {
                    }
                    case DW_LNS_const_add_pc -> address += (long) ((255 - opcodeBase) / lineRange) * minInst;
                    case DW_LNS_fixed_advance_pc -> address += c.u16();
                    default -> {
                        for (int i = 0; i < stdLengths[op]; i++) {
                            Leb128.unsigned(c);
                        }
                    }
                }
            }
        }
        if (addressSize != 8 && addressSize != 4) {
            throw b.error(start, "address size " + addressSize);
        }
        return end;
    }

    /** A NUL-terminated string at the cursor, which moves past the NUL; it must end before {@code limit}. */
    static String cstr(Cursor c, long limit) {
        Bytes b = c.bytes();
        long start = c.position();
        long p = start;
        while (p < limit && b.u8(p) != 0) {
            p++;
        }
        if (p >= limit) {
            throw c.error("unterminated string");
        }
        String s = b.cstring(start, p - start);
        c.position(p + 1);
        return s;
    }

    private static Row row(long address, String[] names, int file, int version, int line, int column,
                           int discriminator, boolean end) {
        int idx = version >= 5 ? file : file - 1;
        String name = idx >= 0 && idx < names.length ? names[idx] : "<unknown>";
        return new Row(address, name, line, column, discriminator, end);
    }

    private static String fileName(String file, int dirIndex, List<String> dirs, int version, String compDir) {
        if (file.startsWith("/")) {
            return file;
        }
        String dir;
        if (version >= 5) {
            dir = dirIndex >= 0 && dirIndex < dirs.size() ? dirs.get(dirIndex) : null;
            if (dirIndex == 0) {
                // entry 0 is the compilation directory itself
                return dir == null ? file : dir + "/" + file;
            }
        } else {
            dir = dirIndex > 0 && dirIndex <= dirs.size() ? dirs.get(dirIndex - 1) : null;
        }
        if (dir == null) {
            return compDir == null ? file : compDir + "/" + file;
        }
        if (!dir.startsWith("/") && compDir != null) {
            return compDir + "/" + dir + "/" + file;
        }
        return dir + "/" + file;
    }

    private static final int DW_LNCT_path = 1;
    private static final int DW_LNCT_directory_index = 2;

    /** A DWARF 5 entry format: its content types and forms ({@code {types, forms}}). */
    static long[][] entryFormat(Cursor c) {
        int formatCount = c.u8();
        long[] types = new long[formatCount];
        long[] forms = new long[formatCount];
        for (int i = 0; i < formatCount; i++) {
            types[i] = Leb128.unsigned(c);
            forms[i] = Leb128.unsigned(c);
        }
        return new long[][] {types, forms};
    }

    /** DWARF 5 directory or file-name entries, described by (content type, form) pairs. */
    private static void readEntries(Bytes b, Cursor c, List<String> dirs, List<String[]> files, Bytes str,
                                    Bytes lineStr, boolean dwarf64) {
        long[][] format = entryFormat(c);
        long[] types = format[0];
        long[] forms = format[1];
        int formatCount = types.length;
        long count = Leb128.unsigned(c);
        if (count < 0 || count > c.remaining()) {
            throw b.error(c.position(), "absurd entry count " + count);
        }
        for (long n = 0; n < count; n++) {
            String path = null;
            long dir = 0;
            for (int i = 0; i < formatCount; i++) {
                Object v = Forms.read(c, (int) forms[i], dwarf64, 8, str, lineStr);
                if (types[i] == DW_LNCT_path) {
                    path = v instanceof String s ? s : String.valueOf(v);
                } else if (types[i] == DW_LNCT_directory_index && v instanceof Long l) {
                    dir = l;
                }
            }
            if (dirs != null) {
                dirs.add(path == null ? "" : path);
            } else {
                files.add(new String[] {path == null ? "" : path, Long.toString(dir)});
            }
        }
    }

    /** The attribute forms line tables and unit root DIEs use. */
    static final class Forms {
        private Forms() {
        }

        /** Reads one value: a String for string forms, a Long for constants, null for skipped blocks. */
        static Object read(Cursor c, int form, boolean dwarf64, int addrSize, Bytes str, Bytes lineStr) {
            return switch (form) {
                case 0x08 -> cstr(c, c.position() + c.remaining()); // string
                case 0x0e -> stringAt(c, str, dwarf64 ? c.u64() : c.u32(), ".debug_str"); // strp
                case 0x1f -> stringAt(c, lineStr, dwarf64 ? c.u64() : c.u32(), ".debug_line_str"); // line_strp
                case 0x0b -> (long) c.u8(); // data1
                case 0x05 -> (long) c.u16(); // data2
                case 0x06 -> c.u32(); // data4
                case 0x07 -> c.u64(); // data8
                case 0x0f -> Leb128.unsigned(c); // udata
                case 0x0d -> Leb128.signed(c); // sdata
                case 0x1e -> { // data16
                    c.skip(16);
                    yield null;
                }
                case 0x09 -> { // block
                    c.skip(Leb128.unsigned(c));
                    yield null;
                }
                case 0x0a -> { // block1
                    c.skip(c.u8());
                    yield null;
                }
                case 0x03 -> { // block2
                    c.skip(c.u16());
                    yield null;
                }
                case 0x04 -> { // block4
                    c.skip(c.u32());
                    yield null;
                }
                case 0x01 -> addrSize == 4 ? c.u32() : c.u64(); // addr
                case 0x0c, 0x11 -> (long) c.u8(); // flag, ref1
                case 0x12 -> (long) c.u16(); // ref2
                case 0x13 -> c.u32(); // ref4
                case 0x14 -> c.u64(); // ref8
                case 0x15 -> Leb128.unsigned(c); // ref_udata
                case 0x10, 0x17 -> dwarf64 ? c.u64() : c.u32(); // ref_addr, sec_offset
                case 0x19 -> 1L; // flag_present
                case 0x18 -> { // exprloc
                    c.skip(Leb128.unsigned(c));
                    yield null;
                }
                case 0x20 -> c.u64(); // ref_sig8
                case 0x1a, 0x1b, 0x22, 0x23 -> Leb128.unsigned(c); // strx, addrx, loclistx, rnglistx
                case 0x25, 0x29 -> (long) c.u8(); // strx1, addrx1
                case 0x26, 0x2a -> (long) c.u16(); // strx2, addrx2
                case 0x27, 0x2b -> (long) (c.u8() | c.u8() << 8 | c.u8() << 16); // strx3, addrx3
                case 0x28, 0x2c -> c.u32(); // strx4, addrx4
                case 0x1c, 0x1d -> c.u32(); // ref_sup4, strp_sup
                case 0x24 -> c.u64(); // ref_sup8
                case 0x21 -> 0L; // implicit_const: value lives in the abbreviation
                default -> throw c.error("unknown attribute form 0x" + Integer.toHexString(form));
            };
        }

        private static String stringAt(Cursor c, Bytes sec, long off, String name) {
            if (sec == null || off < 0 || off >= sec.size()) {
                throw c.error("string offset 0x" + Long.toHexString(off) + " outside " + name);
            }
            return sec.cstring(off, sec.size() - off);
        }
    }
}
