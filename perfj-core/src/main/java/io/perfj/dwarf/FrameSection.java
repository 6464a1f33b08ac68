package io.perfj.dwarf;

import io.perfj.io.Bytes;
import io.perfj.io.Cursor;
import io.perfj.io.Leb128;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Parses the entries of one {@code .eh_frame} or {@code .debug_frame} section (DWARF 5 section
 * 6.4.1, LSB 5.0 "Exception Frames"). The two differ in the CIE id (0 vs all ones), in how an FDE
 * names its CIE (relative to the pointer field vs offset from the section start) and in address
 * encoding (DW_EH_PE encodings vs plain target addresses).
 */
final class FrameSection {
    /** What the entry at an offset is. */
    enum Kind { CIE, FDE, TERMINATOR }

    /** An entry's header: where its body ends and what it is. */
    record Header(Kind kind, long offset, long next, boolean dwarf64, long idFieldOffset, long id) {
    }

    private final Bytes data;
    private final boolean eh;
    private final PointerEncoding.Bases bases;
    private final Map<Long, Cie> cies = new ConcurrentHashMap<>();
    private final Map<Long, Fde> fdes = new ConcurrentHashMap<>();

    FrameSection(Bytes data, boolean eh, PointerEncoding.Bases bases) {
        this.data = data;
        this.eh = eh;
        this.bases = bases;
    }

    Bytes data() {
        return data;
    }

    boolean isEhFrame() {
        return eh;
    }

    PointerEncoding.Bases bases() {
        return bases;
    }

    /** Whether {@code cie} was parsed from this section. */
    boolean owns(Cie cie) {
        return cies.get(cie.offset()) == cie;
    }

    /** Bases for DW_CFA_set_loc inside {@code instructions} (a view of this section). */
    PointerEncoding.Bases basesFor(Bytes instructions) {
        if (!eh) {
            return null;
        }
        return new PointerEncoding.Bases(bases.sectionAddress() + (instructions.base() - data.base()),
                bases.textBase(), bases.dataBase(), bases.addressSize(), bases.deref());
    }

    /** Reads the length and id of the entry at {@code off}. */
    Header header(long off) {
        Cursor c = data.cursor(off);
        InitialLength il = InitialLength.read(c);
        long len = il.length();
        boolean dwarf64 = il.dwarf64();
        if (il.reserved()) {
            throw data.error(off, "reserved initial length 0x" + Long.toHexString(len));
        }
        long body = c.position();
        if (len == 0) {
            return new Header(Kind.TERMINATOR, off, body, dwarf64, body, 0);
        }
        if (len < 0 || len > data.size() - body) {
            throw data.error(off, "entry length 0x" + Long.toHexString(len) + " runs past the end of the "
                    + data.size() + "-byte section");
        }
        long next = body + len;
        long id = dwarf64 ? c.u64() : c.u32();
        if (c.position() > next) {
            throw data.error(off, "entry of " + len + " bytes is too short for its CIE id");
        }
        boolean isCie = eh ? id == 0 : (dwarf64 ? id == -1L : id == 0xffff_ffffL);
        return new Header(isCie ? Kind.CIE : Kind.FDE, off, next, dwarf64, body, id);
    }

    /** The CIE at {@code off} (cached). */
    Cie cie(long off) {
        Cie cached = cies.get(off);
        if (cached != null) {
            return cached;
        }
        Header h = header(off);
        if (h.kind() != Kind.CIE) {
            throw data.error(off, "expected a CIE here but found " + h.kind());
        }
        Cie cie = parseCie(h);
        Cie raced = cies.putIfAbsent(off, cie); // one instance per CIE, so owns() works across threads
        return raced != null ? raced : cie;
    }

    private Cie parseCie(Header h) {
        Bytes body = data.slice(0, h.next(), data.structure());
        Cursor c = body.cursor(h.idFieldOffset() + (h.dwarf64() ? 8 : 4));
        long versionAt = c.position();
        int version = c.u8();
        if (version != 1 && version != 3 && version != 4) {
            throw data.error(versionAt, "unsupported CIE version " + version);
        }
        StringBuilder aug = new StringBuilder();
        for (int b = c.u8(); b != 0; b = c.u8()) {
            aug.append((char) b);
        }
        String augmentation = aug.toString();
        int addressSize = bases.addressSize();
        int segSize = 0;
        if (version == 4) {
            long at = c.position();
            addressSize = c.u8();
            segSize = c.u8();
            if (addressSize != 4 && addressSize != 8) {
                throw data.error(at, "unsupported address size " + addressSize);
            }
            if (segSize != 0) {
                throw data.error(at + 1, "segment selectors are not supported (size " + segSize + ")");
            }
        }
        if (augmentation.startsWith("eh")) {
            c.skip(addressSize); // old GCC: address of the exception table
        }
        long codeAlign = Leb128.unsigned(c);
        long dataAlign = Leb128.signed(c);
        int ra = version == 1 ? c.u8() : Leb128.unsignedInt(c, "return address register");
        int fdeEnc = PointerEncoding.ABSPTR;
        int lsdaEnc = PointerEncoding.OMIT;
        long personality = 0;
        boolean signal = false;
        if (augmentation.startsWith("z")) {
            long augLen = Leb128.unsigned(c);
            long augStart = c.position();
            if (augLen < 0 || augLen > h.next() - augStart) {
                throw data.error(augStart, "augmentation data length " + augLen + " runs past the entry");
            }
            long augEnd = augStart + augLen;
            Bytes augData = body.slice(0, augEnd, data.structure());
            Cursor a = augData.cursor(augStart);
            for (int i = 1; i < augmentation.length(); i++) {
                char ch = augmentation.charAt(i);
                switch (ch) {
                    case 'R' -> fdeEnc = encoding(a);
                    case 'L' -> lsdaEnc = encoding(a);
                    case 'P' -> {
                        int penc = encoding(a);
                        long p = PointerEncoding.read(a, penc, bases, false);
                        personality = (penc & PointerEncoding.INDIRECT) != 0 ? 0 : p;
                    }
                    case 'S' -> signal = true;
                    case 'B', 'G' -> {
                        // AArch64 BTI / MTE markers: no data
                    }
                    default -> i = augmentation.length(); // unknown: the length lets us skip the rest
                }
            }
            c.position(augEnd);
        } else if (!augmentation.isEmpty() && !augmentation.equals("eh")) {
            throw data.error(versionAt, "unsupported CIE augmentation \"" + augmentation + "\"");
        }
        Bytes instructions = body.slice(c.position(), h.next() - c.position(), "CIE instructions");
        return new Cie(h.offset(), version, augmentation, addressSize, segSize, codeAlign, dataAlign, ra, fdeEnc,
                lsdaEnc, personality, signal, instructions);
    }

    private int encoding(Cursor a) {
        long at = a.position();
        int enc = a.u8();
        if (!PointerEncoding.valid(enc)) {
            throw a.bytes().error(at, "unknown pointer encoding 0x" + Integer.toHexString(enc));
        }
        return enc;
    }

    /** The offset of the CIE an FDE header refers to. */
    long cieOffset(Header h) {
        long cieOff = eh ? h.idFieldOffset() - h.id() : h.id();
        if (cieOff < 0 || cieOff >= data.size()) {
            throw data.error(h.idFieldOffset(), "CIE pointer 0x" + Long.toHexString(h.id())
                    + " points outside the section");
        }
        return cieOff;
    }

    /** The FDE at {@code off} (cached: the index asks for the same few FDEs at every frame). */
    Fde fde(long off) {
        Fde f = fdes.get(off);
        if (f == null) {
            f = readFde(off);
            fdes.putIfAbsent(off, f);
        }
        return f;
    }

    private Fde readFde(long off) {
        Header h = header(off);
        if (h.kind() != Kind.FDE) {
            throw data.error(off, "expected an FDE here but found " + h.kind());
        }
        return parseFde(h);
    }

    Fde parseFde(Header h) {
        Cie cie = cie(cieOffset(h));
        Bytes body = data.slice(0, h.next(), data.structure());
        Cursor c = body.cursor(h.idFieldOffset() + (h.dwarf64() ? 8 : 4));
        long begin;
        long range;
        if (eh) {
            begin = PointerEncoding.read(c, cie.fdeEncoding(), bases, true);
            range = PointerEncoding.readValue(c, cie.fdeEncoding(), cie.addressSize());
        } else {
            begin = PointerEncoding.readValue(c, PointerEncoding.ABSPTR, cie.addressSize());
            range = PointerEncoding.readValue(c, PointerEncoding.ABSPTR, cie.addressSize());
        }
        long end = begin + range;
        if (cie.addressSize() == 4) {
            begin &= 0xffff_ffffL;
            range &= 0xffff_ffffL;
            end = begin + range;
        }
        long lsda = 0;
        if (cie.hasAugmentationData()) {
            long augLen = Leb128.unsigned(c);
            long augStart = c.position();
            if (augLen < 0 || augLen > h.next() - augStart) {
                throw data.error(augStart, "augmentation data length " + augLen + " runs past the entry");
            }
            if (cie.lsdaEncoding() != PointerEncoding.OMIT && augLen > 0) {
                Cursor a = body.slice(0, augStart + augLen, data.structure()).cursor(augStart);
                lsda = PointerEncoding.read(a, cie.lsdaEncoding(), bases, false);
            }
            c.position(augStart + augLen);
        }
        Bytes instructions = body.slice(c.position(), h.next() - c.position(), "FDE instructions");
        return new Fde(h.offset(), cie, begin, end, lsda, instructions);
    }
}
