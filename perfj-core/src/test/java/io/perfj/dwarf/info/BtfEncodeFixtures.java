package io.perfj.dwarf.info;

import io.perfj.testing.Fixtures;

import java.nio.file.Path;
import java.util.List;

/** The test binaries of {@code fixtures/btf-encode} (see its README). */
public final class BtfEncodeFixtures {
    private BtfEncodeFixtures() {
    }

    /** Binaries with pahole goldens. */
    public static final List<String> ENCODED = List.of("gcc-dwarf4", "gcc-dwarf5", "clang-dwarf4", "clang-dwarf5");
    /** Every binary, including the type-unit and compressed-section ones. */
    public static final List<String> ALL = List.of("gcc-dwarf4", "gcc-dwarf5", "clang-dwarf4", "clang-dwarf5",
            "gcc-types-section", "gcc-zlib");

    public static Path dir() {
        return Fixtures.file("btf-encode");
    }

    public static Path bin(String name) {
        Path p = dir().resolve("bin").resolve(name);
        return Fixtures.require(p);
    }

    public static Path golden(String file) {
        Path p = dir().resolve("golden").resolve(file);
        return Fixtures.require(p);
    }
}
