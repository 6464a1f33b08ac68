package io.perfj.btf.wire;

import io.perfj.io.FormatException;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * {@code struct btf_header} (linux {@code include/uapi/linux/btf.h}) and the checks the kernel's
 * {@code btf_parse_hdr} and libbpf's {@code btf_parse_hdr}/{@code btf_parse_str_sec} make before
 * anything is read through it. Section offsets are relative to the end of the header
 * ({@code hdrLen}); {@link #typeStart()} and {@link #strStart()} are relative to the blob.
 *
 * @param order the blob's byte order, from its magic
 */
public record Header(ByteOrder order, int version, int flags, int hdrLen, int typeOff, int typeLen, int strOff,
                     int strLen) {
    public static final int MAGIC = 0xeB9F;
    public static final int VERSION = 1;
    /** Size of the header this layer writes (and the least it reads). */
    public static final int SIZE = 24;

    private static final String HDR = "btf_header";
    private static final String STR = "btf strings";

    /** Where the type section starts in the blob. */
    public int typeStart() {
        return hdrLen + typeOff;
    }

    /** Where the string section starts in the blob. */
    public int strStart() {
        return hdrLen + strOff;
    }

    /** The byte order of a blob whose first two bytes are {@code b0, b1}, or null when they are no BTF magic. */
    public static ByteOrder orderOf(int b0, int b1) {
        if (((b0 & 0xff) | (b1 & 0xff) << 8) == MAGIC) {
            return ByteOrder.LITTLE_ENDIAN;
        }
        return ((b0 & 0xff) << 8 | (b1 & 0xff)) == MAGIC ? ByteOrder.BIG_ENDIAN : null;
    }

    /**
     * Reads and checks the header of the blob in {@code data} (positions 0 to its limit), and that
     * the string section is NUL-terminated and, unless {@code split}, starts with the empty
     * string. {@code baseStrings} is the length of a split blob's base string sections (0 when not
     * split). Errors name {@code source} and offsets from {@code origin}, the blob's position in it.
     */
    public static Header read(ByteBuffer data, String source, long origin, boolean split, int baseStrings) {
        int length = data.limit();
        if (length < 4) {
            throw new FormatException(source, HDR, origin, "only " + length + " bytes, no BTF header");
        }
        ByteOrder order = orderOf(data.get(0), data.get(1));
        if (order == null) {
            throw new FormatException(source, HDR, origin, String.format("bad magic 0x%02x%02x (expected 0xeb9f)",
                    data.get(0) & 0xff, data.get(1) & 0xff));
        }
        if (length < SIZE) {
            throw new FormatException(source, HDR, origin, "only " + length + " bytes, the header needs 24");
        }
        ByteBuffer b = data.duplicate().order(order);
        int version = b.get(2) & 0xff;
        int flags = b.get(3) & 0xff;
        long hdrLen = Integer.toUnsignedLong(b.getInt(4));
        if (version != VERSION) {
            throw new FormatException(source, HDR, origin + 2, "unsupported BTF version " + version);
        }
        if (hdrLen < SIZE || hdrLen > length) {
            throw new FormatException(source, HDR, origin + 4, "hdr_len " + hdrLen + " is outside [24, " + length + "]");
        }
        for (int i = SIZE; i < hdrLen; i++) {
            if (b.get(i) != 0) {
                throw new FormatException(source, HDR, origin + i, "unknown non-zero header bytes");
            }
        }
        long typeOff = Integer.toUnsignedLong(b.getInt(8));
        long typeLen = Integer.toUnsignedLong(b.getInt(12));
        long strOff = Integer.toUnsignedLong(b.getInt(16));
        long strLen = Integer.toUnsignedLong(b.getInt(20));
        long avail = length - hdrLen;
        if (typeOff + typeLen > avail) {
            throw new FormatException(source, HDR, origin + 8, "type section [0x" + Long.toHexString(typeOff)
                    + ", +0x" + Long.toHexString(typeLen) + ") ends past the " + avail + " bytes after the header");
        }
        if (strOff + strLen > avail) {
            throw new FormatException(source, HDR, origin + 16, "string section [0x" + Long.toHexString(strOff)
                    + ", +0x" + Long.toHexString(strLen) + ") ends past the " + avail + " bytes after the header");
        }
        if ((typeOff & 3) != 0) {
            throw new FormatException(source, HDR, origin + 8, "type section offset is not 4-byte aligned");
        }
        if (typeLen > 0 && strLen > 0 && typeOff < strOff + strLen && strOff < typeOff + typeLen) {
            throw new FormatException(source, HDR, origin + 8, "type and string sections overlap");
        }
        long strAt = hdrLen + strOff;
        if (strLen == 0) {
            if (!split) {
                throw new FormatException(source, STR, origin + strAt, "empty string section");
            }
        } else {
            if (b.get((int) (strAt + strLen - 1)) != 0) {
                throw new FormatException(source, STR, origin + strAt + strLen - 1, "string section does not end with NUL");
            }
            if (!split && b.get((int) strAt) != 0) {
                throw new FormatException(source, STR, origin + strAt,
                        "string section does not start with NUL (split BTF? it needs its base BTF)");
            }
        }
        if ((long) baseStrings + strLen > Integer.MAX_VALUE) {
            throw new FormatException(source, STR, origin + strAt, "string offsets exceed 2^31");
        }
        return new Header(order, version, flags, (int) hdrLen, (int) typeOff, (int) typeLen, (int) strOff, (int) strLen);
    }

    /**
     * A blob of {@code typeLen} bytes of types and {@code strLen} bytes of strings with its header
     * written, laid out as libbpf and pahole write BTF (the type section right after the header,
     * then the string section): the caller puts the types, then the strings.
     */
    public static ByteBuffer allocate(long typeLen, long strLen, ByteOrder order) {
        long total = SIZE + typeLen + strLen;
        if (total > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("BTF of " + total + " bytes is too large");
        }
        ByteBuffer out = ByteBuffer.allocate((int) total).order(order);
        out.putShort((short) MAGIC).put((byte) VERSION).put((byte) 0);
        out.putInt(SIZE).putInt(0).putInt((int) typeLen).putInt((int) typeLen).putInt((int) strLen);
        return out;
    }
}
