package io.perfj.dwarf;

import io.perfj.io.Cursor;
import io.perfj.io.Leb128;

/**
 * {@code DW_EH_PE_*} pointer encodings of {@code .eh_frame} and {@code .eh_frame_hdr} (LSB 5.0,
 * "DWARF Exception Header Encoding"): a value format in the low nibble, an application (pc-,
 * text-, data-, function-relative, aligned) in bits 4-6 and the indirect flag in bit 7.
 */
final class PointerEncoding {
    static final int OMIT = 0xff;
    static final int ABSPTR = 0x00;
    static final int ULEB128 = 0x01;
    static final int UDATA2 = 0x02;
    static final int UDATA4 = 0x03;
    static final int UDATA8 = 0x04;
    static final int SLEB128 = 0x09;
    static final int SDATA2 = 0x0a;
    static final int SDATA4 = 0x0b;
    static final int SDATA8 = 0x0c;
    static final int PCREL = 0x10;
    static final int TEXTREL = 0x20;
    static final int DATAREL = 0x30;
    static final int FUNCREL = 0x40;
    static final int ALIGNED = 0x50;
    static final int INDIRECT = 0x80;

    /**
     * The addresses an encoded pointer may be relative to. {@code sectionAddress} is the virtual
     * address of the first byte of the cursor's view (for pcrel); a base of -1 means unknown.
     */
    record Bases(long sectionAddress, long textBase, long dataBase, int addressSize, Dereferencer deref) {
    }

    /** Reads an address-sized word at a virtual address (for {@link #INDIRECT}). */
    interface Dereferencer {
        long read(long vaddr, int size);
    }

    private PointerEncoding() {
    }

    /** Whether {@code enc} is a known encoding (omit included). */
    static boolean valid(int enc) {
        if (enc == OMIT) {
            return true;
        }
        int fmt = enc & 0x0f;
        int app = enc & 0x70;
        boolean fmtOk = fmt <= UDATA8 || (fmt >= SLEB128 && fmt <= SDATA8);
        return fmtOk && app <= ALIGNED;
    }

    /** Reads only the value part (no application): what an FDE's address range uses. */
    static long readValue(Cursor c, int enc, int addressSize) {
        long start = c.position();
        switch (enc & 0x0f) {
            case ABSPTR:
                return addressSize == 8 ? c.u64() : c.u32();
            case ULEB128:
                return Leb128.unsigned(c);
            case UDATA2:
                return c.u16();
            case UDATA4:
                return c.u32();
            case UDATA8:
            case SDATA8:
                return c.u64();
            case SLEB128:
                return Leb128.signed(c);
            case SDATA2:
                return (short) c.u16();
            case SDATA4:
                return c.s32();
            default:
                throw c.bytes().error(start, "unknown pointer encoding 0x" + Integer.toHexString(enc));
        }
    }

    /**
     * Reads a pointer with its application; with {@code resolveIndirect} an indirect pointer is
     * dereferenced, otherwise its address is returned.
     */
    static long read(Cursor c, int enc, Bases bases, boolean resolveIndirect) {
        long start = c.position();
        if (enc == OMIT) {
            throw c.bytes().error(start, "pointer encoding is DW_EH_PE_omit here");
        }
        if (!valid(enc)) {
            throw c.bytes().error(start, "unknown pointer encoding 0x" + Integer.toHexString(enc));
        }
        long base;
        switch (enc & 0x70) {
            case ABSPTR -> base = 0;
            case PCREL -> base = requireBase(c, start, bases.sectionAddress() + start, bases.sectionAddress(), "pcrel");
            case TEXTREL -> base = requireBase(c, start, bases.textBase(), bases.textBase(), "textrel");
            case DATAREL -> base = requireBase(c, start, bases.dataBase(), bases.dataBase(), "datarel");
            case FUNCREL -> throw c.bytes().error(start, "funcrel pointers are not supported in call frame entries");
            case ALIGNED -> {
                int a = bases.addressSize();
                long pad = (a - (Math.floorMod(bases.sectionAddress() + start, a))) % a;
                c.skip(pad);
                base = 0;
            }
            default -> throw c.bytes().error(start, "unknown pointer application 0x" + Integer.toHexString(enc));
        }
        long v = readValue(c, (enc & 0x70) == ALIGNED ? ABSPTR : enc, bases.addressSize()) + base;
        if (bases.addressSize() == 4) {
            v &= 0xffff_ffffL;
        }
        if ((enc & INDIRECT) != 0 && resolveIndirect) {
            if (bases.deref() == null) {
                throw c.bytes().error(start, "indirect pointer cannot be resolved here");
            }
            v = bases.deref().read(v, bases.addressSize());
        }
        return v;
    }

    private static long requireBase(Cursor c, long start, long value, long known, String what) {
        if (known == -1) {
            throw c.bytes().error(start, what + " pointer but the " + what + " base is unknown");
        }
        return value;
    }
}
