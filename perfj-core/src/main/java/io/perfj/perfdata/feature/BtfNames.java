package io.perfj.perfdata.feature;

import io.perfj.io.Bytes;
import io.perfj.io.FormatException;

import java.nio.ByteOrder;

/**
 * Just enough of BTF (linux include/uapi/linux/btf.h) to find a type's name by id, as perf
 * does when it names BPF sub-programs from their func_info. The blob's byte order comes from
 * its magic. Returns null instead of failing so callers can fall back the way perf does when
 * {@code btf__new} rejects the data.
 */
public final class BtfNames {
    private static final int MAGIC = 0xeB9F;
    private static final int MAX_KIND = 19;

    private final Bytes types;
    private final Bytes strings;
    private final long[] typeOffsets;

    private BtfNames(Bytes types, Bytes strings, long[] typeOffsets) {
        this.types = types;
        this.strings = strings;
        this.typeOffsets = typeOffsets;
    }

    /** Parses a raw BTF blob; null when it is not valid BTF. */
    public static BtfNames parse(byte[] raw) {
        try {
            Bytes b = Bytes.of(raw, ByteOrder.LITTLE_ENDIAN, "BTF", "btf_header");
            if (b.u16(0) != MAGIC) {
                b = b.withOrder(ByteOrder.BIG_ENDIAN);
                if (b.u16(0) != MAGIC) {
                    return null;
                }
            }
            long hdrLen = b.u32(4);
            long typeOff = b.u32(8);
            long typeLen = b.u32(12);
            long strOff = b.u32(16);
            long strLen = b.u32(20);
            if (hdrLen < 24) {
                return null;
            }
            Bytes types = b.slice(hdrLen + typeOff, typeLen, "btf types");
            Bytes strings = b.slice(hdrLen + strOff, strLen, "btf strings");
            // Index type ids (starting at 1) by walking the variable-length records.
            long[] offs = new long[16];
            int n = 1;
            long pos = 0;
            while (pos < types.size()) {
                long info = types.u32(pos + 4);
                int kind = (int) ((info >>> 24) & 0x1f);
                int vlen = (int) (info & 0xffff);
                long extra = switch (kind) {
                    case 1, 14, 17 -> 4;            // INT, VAR, DECL_TAG
                    case 3 -> 12;                   // ARRAY
                    case 4, 5, 15, 19 -> 12L * vlen; // STRUCT, UNION, DATASEC, ENUM64
                    case 6, 13 -> 8L * vlen;         // ENUM, FUNC_PROTO
                    case 2, 7, 8, 9, 10, 11, 12, 16, 18 -> 0;
                    default -> -1;
                };
                if (extra < 0 || kind > MAX_KIND) {
                    return null;
                }
                if (n == offs.length) {
                    offs = java.util.Arrays.copyOf(offs, n * 2);
                }
                offs[n++] = pos;
                pos += 12 + extra;
            }
            if (pos != types.size()) {
                return null;
            }
            return new BtfNames(types, strings, java.util.Arrays.copyOf(offs, n));
        } catch (FormatException e) {
            return null;
        }
    }

    /** Number of types plus one (ids run from 1). */
    public int typeCount() {
        return typeOffsets.length;
    }

    /** The string at {@code off} of the string section, or null when out of range. */
    public String string(long off) {
        if (off < 0 || off >= strings.size()) {
            return null;
        }
        return strings.cstring(off, strings.size() - off);
    }

    /** The name of type {@code id}, or null when the id or its name offset is out of range. */
    public String typeName(long id) {
        if (id <= 0 || id >= typeOffsets.length) {
            return null;
        }
        return string(types.u32(typeOffsets[(int) id]));
    }
}
