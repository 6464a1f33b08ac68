package io.perfj.export;

import java.util.HexFormat;

/**
 * The identifiers symbol servers and the Firefox Profiler know an ELF object by, derived from
 * its GNU build-id the way the breakpad tools (and samply) derive them: the code id is the
 * build-id itself in lower-case hex; the debug id reads the build-id's first 16 bytes (zero
 * padded) as a little-endian GUID (a u32, two u16s, eight bytes), writes it big-endian in
 * upper-case hex and appends the age, 0.
 */
final class DebugIds {
    private static final HexFormat LOWER = HexFormat.of();
    private static final HexFormat UPPER = HexFormat.of().withUpperCase();

    private DebugIds() {
    }

    /** The build-id in lower-case hex. */
    static String codeId(byte[] buildId) {
        return LOWER.formatHex(buildId);
    }

    /** The breakpad debug id (33 characters) of an object of a little-endian machine. */
    static String breakpadId(byte[] buildId) {
        byte[] guid = new byte[16];
        System.arraycopy(buildId, 0, guid, 0, Math.min(16, buildId.length));
        swap(guid, 0, 3);
        swap(guid, 1, 2);
        swap(guid, 4, 5);
        swap(guid, 6, 7);
        return UPPER.formatHex(guid) + "0";
    }

    private static void swap(byte[] b, int i, int j) {
        byte t = b[i];
        b[i] = b[j];
        b[j] = t;
    }
}
