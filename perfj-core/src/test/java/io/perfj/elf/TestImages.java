package io.perfj.elf;

import java.nio.ByteOrder;

/** Synthetic ELF images for tests outside this package. */
public final class TestImages {
    private TestImages() {
    }

    /** An image with .text at 0x401000 (file offset 0x1000) holding _Z5alphav and beta. */
    public static byte[] synthetic(boolean is64, ByteOrder order, int type) {
        ElfBuilder b = new ElfBuilder(is64, order);
        b.type = type;
        b.sym("_Z5alphav", 0x401010, 0x20, Elf.STT_FUNC, Elf.STB_GLOBAL);
        b.sym("beta", 0x401030, 0x10, Elf.STT_FUNC, Elf.STB_LOCAL);
        return b.build();
    }
}
