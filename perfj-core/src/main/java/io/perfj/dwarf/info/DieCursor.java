package io.perfj.dwarf.info;

import io.perfj.io.FormatException;
import io.perfj.io.Leb128;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A forward walk over the DIEs of one unit (DWARF 5 section 7.5.2), in section order. Each
 * {@link #next()} decodes one DIE's attributes into reusable arrays, so a walk allocates nothing
 * per DIE or attribute; values are read through index-based getters ({@link #find} gives the
 * index of an attribute). Null entries, which end a list of siblings, are returned as tag 0.
 *
 * <p>Not thread-safe; use one cursor per thread. Reading past the unit's end or meeting an
 * undefined abbreviation or form fails with a {@link FormatException} naming the DIE's offset.
 *
 * <p>The unit's bytes are copied into a buffer of the cursor's own when the walk begins (a
 * section kept in the file's mapping has those pages released again), so positions inside the
 * cursor are buffer indexes; offsets it returns are section offsets.
 */
public final class DieCursor {
    /** Returned by address getters when there is no address. */
    public static final long NO_ADDRESS = Long.MIN_VALUE;

    private final DwarfInfo dwarf;
    private final UnitHeader unit;
    private final AbbrevTable abbrevs;
    private final DwarfSection section;
    /** The unit's bytes; buf[0] is at section offset {@link #base}. */
    private final byte[] buf;
    private final long base;
    private final int end;
    private final boolean little;
    private final long strKind;
    private long pos;
    /** {@link #pos} while a LEB128 is read. */
    private final int[] at = new int[1];
    private int depth;
    private boolean pendingChildren;

    private long dieOffset = -1;
    private Abbrev abbrev;
    private int count;
    private int[] forms = new int[32];
    private long[] vals = new long[32];
    private long[] lens = new long[32];

    private long strOffsetsBase = -1;
    private long addrBase = -1;

    DieCursor(DwarfInfo dwarf, UnitHeader unit, AbbrevTable abbrevs, DieCursor previous) {
        this.dwarf = dwarf;
        this.unit = unit;
        this.abbrevs = abbrevs;
        this.section = unit.inTypes() ? dwarf.types : dwarf.info;
        this.little = dwarf.little;
        this.strKind = unit.inTypes() ? DwarfInfo.STR_TYPES : DwarfInfo.STR_INFO;
        if (section.heap()) {
            // already an array (a decompressed section): read in place
            this.buf = section.bytes();
            this.base = 0;
        } else {
            int len = (int) (unit.end() - unit.offset());
            byte[] b = previous == null || previous.section.heap() ? null : previous.buf;
            if (b == null || b.length < len) {
                b = new byte[Math.max(len, b == null ? 0 : Math.min(2 * b.length, Integer.MAX_VALUE - 16))];
            }
            MemorySegment.copy(section.data(), ValueLayout.JAVA_BYTE, unit.offset(), b, 0, len);
            section.release(unit.offset(), unit.end());
            this.buf = b;
            this.base = unit.offset();
        }
        this.end = (int) (unit.end() - base);
        this.pos = unit.firstDie() - base;
        if (previous != null && previous.forms.length > forms.length) {
            forms = previous.forms;
            vals = previous.vals;
            lens = previous.lens;
        }
    }

    public UnitHeader unit() {
        return unit;
    }

    public DwarfInfo dwarf() {
        return dwarf;
    }

    /**
     * Reads the next DIE. Returns its tag, 0 for a null entry, or -1 at the end of the unit.
     */
    public int next() {
        if (pendingChildren) {
            depth++;
            pendingChildren = false;
        }
        if (pos >= end) {
            abbrev = null;
            count = 0;
            return -1;
        }
        dieOffset = base + pos;
        try {
            long code = uleb();
            if (code == 0) {
                abbrev = null;
                count = 0;
                depth--;
                return 0;
            }
            Abbrev a = abbrevs.get(code);
            if (a == null) {
                throw error("abbreviation code " + Long.toUnsignedString(code) + " is not defined in the table at 0x"
                        + Long.toHexString(unit.abbrevOffset()));
            }
            abbrev = a;
            int n = a.forms.length;
            if (n > forms.length) {
                forms = new int[n];
                vals = new long[n];
                lens = new long[n];
            }
            count = n;
            for (int i = 0; i < n; i++) {
                readForm(i, a.forms[i], a.implicitConst[i]);
            }
            if (pos > end) {
                throw new IndexOutOfBoundsException();
            }
            pendingChildren = a.hasChildren;
            if (dieOffset == unit.firstDie()) {
                readBases();
            }
            return a.tag;
        } catch (IndexOutOfBoundsException e) {
            throw error("DIE runs past the end of its unit (0x" + Long.toHexString(unit.end()) + ")");
        }
    }

    private void readBases() {
        int i = find(Dw.AT_str_offsets_base);
        if (i >= 0) {
            strOffsetsBase = vals[i];
        }
        i = find(Dw.AT_addr_base);
        if (i >= 0) {
            addrBase = vals[i];
        }
        if (i < 0 && (i = find(0x2133)) >= 0) { // DW_AT_GNU_addr_base
            addrBase = vals[i];
        }
    }

    private void readForm(int i, int form, long implicitConst) {
        forms[i] = form;
        lens[i] = 0;
        long v = 0;
        switch (form) {
            case Dw.FORM_addr -> v = readAddr(unit.addressSize());
            case Dw.FORM_data1, Dw.FORM_ref1, Dw.FORM_flag, Dw.FORM_strx1, Dw.FORM_addrx1 -> v = u8();
            case Dw.FORM_data2, Dw.FORM_ref2, Dw.FORM_strx2, Dw.FORM_addrx2 -> v = u16();
            case Dw.FORM_strx3, Dw.FORM_addrx3 -> {
                int a = u8();
                int b = u8();
                int c = u8();
                v = dwarf.little ? (a | b << 8 | c << 16) : (a << 16 | b << 8 | c);
            }
            case Dw.FORM_data4, Dw.FORM_ref4, Dw.FORM_strx4, Dw.FORM_addrx4, Dw.FORM_ref_sup4 -> v = u32();
            case Dw.FORM_data8, Dw.FORM_ref8, Dw.FORM_ref_sig8, Dw.FORM_ref_sup8 -> v = u64();
            case Dw.FORM_data16 -> {
                v = pos;
                lens[i] = 16;
                skip(16);
            }
            case Dw.FORM_sdata -> v = sleb();
            case Dw.FORM_udata, Dw.FORM_ref_udata, Dw.FORM_strx, Dw.FORM_addrx, Dw.FORM_loclistx,
                 Dw.FORM_rnglistx, Dw.FORM_GNU_addr_index, Dw.FORM_GNU_str_index -> v = uleb();
            case Dw.FORM_string -> {
                v = pos;
                int p = (int) pos;
                byte[] b = buf;
                while (b[p] != 0) {
                    p++;
                }
                pos = p + 1;
            }
            case Dw.FORM_strp, Dw.FORM_line_strp, Dw.FORM_sec_offset, Dw.FORM_strp_sup, Dw.FORM_GNU_strp_alt,
                 Dw.FORM_GNU_ref_alt -> v = readOffset();
            case Dw.FORM_ref_addr -> v = unit.version() <= 2 ? readAddr(unit.addressSize()) : readOffset();
            case Dw.FORM_block1 -> block(i, u8());
            case Dw.FORM_block2 -> block(i, u16());
            case Dw.FORM_block4 -> block(i, u32());
            case Dw.FORM_block, Dw.FORM_exprloc -> block(i, uleb());
            case Dw.FORM_flag_present -> v = 1;
            case Dw.FORM_implicit_const -> v = implicitConst;
            case Dw.FORM_indirect -> {
                long f = uleb();
                if (f == Dw.FORM_indirect || f == Dw.FORM_implicit_const || f > 0xffff) {
                    throw error("DW_FORM_indirect names form 0x" + Long.toHexString(f));
                }
                readForm(i, (int) f, 0);
                return;
            }
            default -> throw error("unknown attribute form 0x" + Integer.toHexString(form));
        }
        if (lens[i] == 0) {
            vals[i] = v;
        }
    }

    private void block(int i, long len) {
        if (len < 0 || len > end - pos) {
            throw error("block of " + Long.toUnsignedString(len) + " bytes runs past the end of its unit");
        }
        vals[i] = pos;
        lens[i] = len == 0 ? -1 : len;
        pos += len;
    }

    /**
     * Reads the DIE at section offset {@code offset} of this cursor's unit (a reference's
     * target), as {@link #next()} does; the walk's depth means nothing afterwards.
     */
    public int readAt(long offset) {
        if (offset < unit.firstDie() || offset >= unit.end()) {
            throw error("a reference to 0x" + Long.toHexString(offset) + " outside its unit");
        }
        pos = offset - base;
        pendingChildren = false;
        return next();
    }

    /** Offset of the current DIE in its section. */
    public long offset() {
        return dieOffset;
    }

    /** Depth of the current DIE (0 for the unit DIE); a null entry has its siblings' depth minus one. */
    public int depth() {
        return depth;
    }

    public int tag() {
        return abbrev == null ? 0 : abbrev.tag;
    }

    public boolean hasChildren() {
        return abbrev != null && abbrev.hasChildren;
    }

    public int abbrevCode() {
        return abbrev == null ? 0 : abbrev.code;
    }

    /** Number of attributes of the current DIE. */
    public int attributeCount() {
        return count;
    }

    public int attributeName(int i) {
        return abbrev.names[i];
    }

    public int form(int i) {
        return forms[i];
    }

    /** The index of attribute {@code at} in the current DIE, or -1. */
    public int find(int at) {
        Abbrev a = abbrev;
        return a == null ? -1 : a.find(at);
    }

    public boolean has(int at) {
        return find(at) >= 0;
    }

    /**
     * The raw value of attribute {@code i}: constants zero-extended (sdata and implicit_const
     * signed), flags 0/1, offsets and indexes as stored; for blocks and inline strings, their
     * position in {@link #unitBytes()}.
     */
    public long value(int i) {
        return vals[i];
    }

    /** Whether attribute {@code i} holds a block (block*, exprloc, data16). */
    public boolean isBlock(int i) {
        return lens[i] != 0;
    }

    public long blockLength(int i) {
        return lens[i] < 0 ? 0 : lens[i];
    }

    /** A constant attribute's value like elfutils' dwarf_formudata; 0 for other forms. */
    public long udata(int i) {
        return switch (forms[i]) {
            case Dw.FORM_data1, Dw.FORM_data2, Dw.FORM_data4, Dw.FORM_data8, Dw.FORM_udata, Dw.FORM_sdata,
                 Dw.FORM_implicit_const, Dw.FORM_flag, Dw.FORM_flag_present, Dw.FORM_addr,
                 Dw.FORM_sec_offset -> vals[i];
            default -> 0;
        };
    }

    /** The constant value of attribute {@code at} (see {@link #udata}), or 0 when absent. */
    public long udataOf(int at) {
        int i = find(at);
        return i < 0 ? 0 : udata(i);
    }

    /** A constant with data1/2/4 sign-extended. */
    public long sdata(int i) {
        return switch (forms[i]) {
            case Dw.FORM_data1 -> (byte) vals[i];
            case Dw.FORM_data2 -> (short) vals[i];
            case Dw.FORM_data4 -> (int) vals[i];
            default -> udata(i);
        };
    }

    /** A flag attribute is present and not false. */
    public boolean flag(int at) {
        int i = find(at);
        return i >= 0 && vals[i] != 0;
    }

    /**
     * The section offset a reference attribute points to, or -1 for type signatures
     * (see {@link #isSignatureRef}) and references into supplementary files.
     */
    public long ref(int i) {
        return switch (forms[i]) {
            case Dw.FORM_ref1, Dw.FORM_ref2, Dw.FORM_ref4, Dw.FORM_ref8, Dw.FORM_ref_udata -> unit.offset() + vals[i];
            case Dw.FORM_ref_addr -> unit.inTypes() ? -1 : vals[i];
            default -> -1;
        };
    }

    /** The referenced offset of attribute {@code at}, or -1 when absent or not a local reference. */
    public long refOf(int at) {
        int i = find(at);
        return i < 0 ? -1 : ref(i);
    }

    public boolean isSignatureRef(int i) {
        return forms[i] == Dw.FORM_ref_sig8;
    }

    /**
     * A packed reference to a string attribute's bytes for {@link DwarfInfo#string} (which also
     * serves as an identity for strings in {@code .debug_str}), or -1 when the attribute is not
     * a string this reader can reach.
     */
    public long stringRef(int i) {
        return switch (forms[i]) {
            case Dw.FORM_string -> strKind | (base + vals[i]);
            case Dw.FORM_strp -> checkedStr(dwarf.str, DwarfInfo.STR_STR, vals[i]);
            case Dw.FORM_line_strp -> checkedStr(dwarf.lineStr, DwarfInfo.STR_LINE_STR, vals[i]);
            case Dw.FORM_strx, Dw.FORM_strx1, Dw.FORM_strx2, Dw.FORM_strx3, Dw.FORM_strx4,
                 Dw.FORM_GNU_str_index -> checkedStr(dwarf.str, DwarfInfo.STR_STR, strOffset(vals[i]));
            default -> -1;
        };
    }

    /**
     * For a string attribute whose bytes are in {@code .debug_str} (strp and strx forms): its
     * offset there, below {@link DwarfInfo#debugStrSize()}; -1 for other forms.
     */
    public long debugStrOffset(int i) {
        long ref = stringRef(i);
        return ref >= 0 && (ref & ~OFFSET_MASK) == DwarfInfo.STR_STR ? ref & OFFSET_MASK : -1;
    }

    private static final long OFFSET_MASK = (1L << 56) - 1;

    public long stringRefOf(int at) {
        int i = find(at);
        return i < 0 ? -1 : stringRef(i);
    }

    /** A string attribute as a Java string, or null. */
    public String string(int i) {
        if (forms[i] == Dw.FORM_string) {
            int from = inlineStringStart(i);
            return new String(buf, from, inlineStringLength(i), java.nio.charset.StandardCharsets.UTF_8);
        }
        return dwarf.string(stringRef(i));
    }

    /** Whether string attribute {@code i} equals the ASCII {@code text}. */
    public boolean stringEquals(int i, String text) {
        if (forms[i] != Dw.FORM_string) {
            return dwarf.stringEquals(stringRef(i), text);
        }
        int from = inlineStringStart(i);
        int n = text.length();
        if (inlineStringLength(i) != n) {
            return false;
        }
        for (int k = 0; k < n; k++) {
            if (buf[from + k] != (byte) text.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The buffer holding the current unit's bytes, for reading {@link Dw#FORM_string} attributes
     * in place ({@link #inlineStringStart}); valid until the cursor's buffer is reused for another
     * unit, and not to be changed.
     */
    public byte[] unitBytes() {
        return buf;
    }

    /** Where the bytes of string attribute {@code i}, a {@link Dw#FORM_string}, start in {@link #unitBytes()}. */
    public int inlineStringStart(int i) {
        return (int) vals[i];
    }

    /** The length of string attribute {@code i}, a {@link Dw#FORM_string}, without its terminating NUL. */
    public int inlineStringLength(int i) {
        int from = (int) vals[i];
        int p = from;
        while (buf[p] != 0) {
            p++;
        }
        return p - from;
    }

    public String stringOf(int at) {
        int i = find(at);
        return i < 0 ? null : string(i);
    }

    private long checkedStr(DwarfSection s, long kind, long off) {
        if (off < 0 || off >= s.size()) {
            throw error("string offset 0x" + Long.toHexString(off) + " is outside the " + s.size() + "-byte "
                    + (s.name().isEmpty() ? "string section" : s.name()));
        }
        return kind | off;
    }

    private long strOffset(long index) {
        int osz = unit.offsetSize();
        long base = strOffsetsBase >= 0 ? strOffsetsBase : (osz == 8 ? 16 : 8);
        long at = base + index * osz;
        byte[] so = dwarf.strOffsets.bytes();
        if (index < 0 || at < 0 || at > so.length - osz) {
            throw error("string index " + index + " is outside .debug_str_offsets");
        }
        return osz == 8 ? get64(so, (int) at) : get32(so, (int) at) & 0xffff_ffffL;
    }

    /** An address attribute (addr or addrx forms), or {@link #NO_ADDRESS}. */
    public long address(int i) {
        return switch (forms[i]) {
            case Dw.FORM_addr -> vals[i];
            case Dw.FORM_addrx, Dw.FORM_addrx1, Dw.FORM_addrx2, Dw.FORM_addrx3, Dw.FORM_addrx4,
                 Dw.FORM_GNU_addr_index -> indexedAddress(vals[i]);
            default -> NO_ADDRESS;
        };
    }

    private long indexedAddress(long index) {
        int asz = unit.addressSize();
        long base = addrBase >= 0 ? addrBase : 8;
        long at = base + index * asz;
        byte[] a = dwarf.addr.bytes();
        if (index < 0 || at < 0 || at > a.length - asz) {
            throw error("address index " + index + " is outside .debug_addr");
        }
        return switch (asz) {
            case 8 -> get64(a, (int) at);
            case 4 -> get32(a, (int) at) & 0xffff_ffffL;
            default -> get16(a, (int) at) & 0xffff;
        };
    }

    /**
     * The static address of a location expression that starts with DW_OP_addr or DW_OP_addrx
     * (a variable with a fixed address), or {@link #NO_ADDRESS}.
     */
    public long staticAddress(int i) {
        if (lens[i] <= 0 || forms[i] == Dw.FORM_data16) {
            return NO_ADDRESS;
        }
        long p = vals[i];
        long end = p + lens[i];
        int op = buf[(int) p] & 0xff;
        long save = pos;
        try {
            pos = p + 1;
            if (op == Dw.OP_addr) {
                if (end - pos < unit.addressSize()) {
                    throw error("DW_OP_addr runs past its expression");
                }
                return readAddr(unit.addressSize());
            }
            if (op == Dw.OP_addrx || op == Dw.OP_GNU_addr_index) {
                return indexedAddress(uleb());
            }
            return NO_ADDRESS;
        } finally {
            pos = save;
        }
    }

    /**
     * A member offset like pahole reads DW_AT_data_member_location: a constant, or an expression
     * DW_OP_plus_uconst/DW_OP_constu N; -1 for any other expression.
     */
    public long memberOffset(int i) {
        if (lens[i] == 0) {
            return udata(i);
        }
        if (lens[i] < 0) {
            return -1;
        }
        long p = vals[i];
        int op = buf[(int) p] & 0xff;
        if (op != Dw.OP_plus_uconst && op != Dw.OP_constu) {
            return -1;
        }
        long save = pos;
        try {
            pos = p + 1;
            return uleb();
        } finally {
            pos = save;
        }
    }

    /** The bytes of a block attribute. */
    public byte[] block(int i) {
        return lens[i] <= 0 ? new byte[0]
                : java.util.Arrays.copyOfRange(buf, (int) vals[i], (int) (vals[i] + lens[i]));
    }

    /**
     * Skips the current DIE's descendants: through DW_AT_sibling when it points forward inside the
     * unit, otherwise by reading them.
     */
    public void skipChildren() {
        if (!pendingChildren) {
            return;
        }
        int s = find(Dw.AT_sibling);
        if (s >= 0) {
            long target = ref(s);
            if (target > dieOffset && target <= unit.end()) {
                pendingChildren = false;
                pos = target - base;
                return;
            }
        }
        int d = depth;
        while (true) {
            int t = skipNext();
            if (t < 0 || (t == 0 && depth == d)) {
                return;
            }
        }
    }

    /**
     * Like {@link #next()} but without decoding attributes (they read as absent afterwards):
     * DIEs whose forms all have fixed sizes are stepped over in one move.
     */
    private int skipNext() {
        if (pendingChildren) {
            depth++;
            pendingChildren = false;
        }
        if (pos >= end) {
            abbrev = null;
            count = 0;
            return -1;
        }
        dieOffset = base + pos;
        try {
            long code = uleb();
            if (code == 0) {
                abbrev = null;
                count = 0;
                depth--;
                return 0;
            }
            Abbrev a = abbrevs.get(code);
            if (a == null) {
                throw error("abbreviation code " + Long.toUnsignedString(code) + " is not defined in the table at 0x"
                        + Long.toHexString(unit.abbrevOffset()));
            }
            int fixed = a.fixedSize(unit.addressSize(), unit.offsetSize(), unit.version());
            if (fixed >= 0) {
                pos += fixed;
            } else {
                int n = a.forms.length;
                if (n > forms.length) {
                    forms = new int[n];
                    vals = new long[n];
                    lens = new long[n];
                }
                for (int i = 0; i < n; i++) {
                    readForm(i, a.forms[i], a.implicitConst[i]);
                }
            }
            if (pos > end) {
                throw new IndexOutOfBoundsException();
            }
            abbrev = a;
            count = 0;
            pendingChildren = a.hasChildren;
            return a.tag;
        } catch (IndexOutOfBoundsException e) {
            throw error("DIE runs past the end of its unit (0x" + Long.toHexString(unit.end()) + ")");
        }
    }

    public FormatException error(String detail) {
        long off = dieOffset >= 0 ? dieOffset : base + pos;
        long abs = section.fileOffset() >= 0 ? section.fileOffset() + off : off;
        return new FormatException(dwarf.source(), "DIE <0x" + Long.toHexString(off) + "> in " + section.name(),
                abs, detail);
    }

    // Plain shifts rather than byte-array VarHandles: btf encode runs on the JIT's first tier,
    // which calls out of line for the VarHandles' byte swapping.
    private short get16(byte[] b, int at) {
        int x = b[at] & 0xff;
        int y = b[at + 1] & 0xff;
        return (short) (little ? x | y << 8 : x << 8 | y);
    }

    private int get32(byte[] b, int at) {
        int x = b[at] & 0xff;
        int y = b[at + 1] & 0xff;
        int z = b[at + 2] & 0xff;
        int t = b[at + 3] & 0xff;
        return little ? x | y << 8 | z << 16 | t << 24 : x << 24 | y << 16 | z << 8 | t;
    }

    private long get64(byte[] b, int at) {
        long lo = get32(b, at) & 0xffff_ffffL;
        long hi = get32(b, at + 4) & 0xffff_ffffL;
        return little ? hi << 32 | lo : lo << 32 | hi;
    }

    private int u8() {
        return buf[(int) pos++] & 0xff;
    }

    private int u16() {
        int v = get16(buf, (int) pos) & 0xffff;
        pos += 2;
        return v;
    }

    private long u32() {
        long v = get32(buf, (int) pos) & 0xffff_ffffL;
        pos += 4;
        return v;
    }

    private long u64() {
        long v = get64(buf, (int) pos);
        pos += 8;
        return v;
    }

    private long readOffset() {
        return unit.offsetSize() == 8 ? u64() : u32();
    }

    private long readAddr(int size) {
        return switch (size) {
            case 8 -> u64();
            case 4 -> u32();
            case 2 -> u16();
            default -> u8();
        };
    }

    private void skip(long n) {
        if (n > end - pos) {
            throw new IndexOutOfBoundsException();
        }
        pos += n;
    }

    private long uleb() {
        int[] a = at;
        a[0] = (int) pos;
        long v = Leb128.unsigned(buf, a);
        pos = a[0];
        return v;
    }

    private long sleb() {
        int[] a = at;
        a[0] = (int) pos;
        long v = Leb128.signed(buf, a);
        pos = a[0];
        return v;
    }
}
