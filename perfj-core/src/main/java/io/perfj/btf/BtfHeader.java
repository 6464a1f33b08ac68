package io.perfj.btf;

/**
 * {@code struct btf_header} (linux {@code include/uapi/linux/btf.h}): offsets of the type and
 * string sections are relative to the end of the header ({@code hdrLen}).
 */
public record BtfHeader(int version, int flags, int hdrLen, int typeOff, int typeLen, int strOff, int strLen) {
    public static final int MAGIC = 0xeB9F;
    public static final int VERSION = 1;
    /** Size of the header this model writes. */
    public static final int SIZE = 24;
}
