package io.perfj.elf;

import io.perfj.io.Bytes;

/** The contents of .gnu_debuglink: the debug file's base name and the CRC-32 of its contents. */
public record DebugLink(String fileName, long crc) {

    static DebugLink parse(Bytes b) {
        long nul = -1;
        for (long i = 0; i < b.size(); i++) {
            if (b.u8(i) == 0) {
                nul = i;
                break;
            }
        }
        if (nul <= 0) {
            throw b.error(0, "debug link name is empty or not terminated");
        }
        String name = b.cstring(0, nul + 1);
        long crcOff = (nul + 1 + 3) & ~3L;
        long crc = b.has(crcOff, 4) ? b.u32(crcOff) : -1;
        return new DebugLink(name, crc);
    }
}
