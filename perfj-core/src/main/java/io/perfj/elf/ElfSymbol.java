package io.perfj.elf;

/**
 * One entry of a symbol table (.symtab or .dynsym).
 *
 * @param index          position in its table
 * @param name           the name as stored in the string table (a .symtab may already hold
 *                       names like {@code clock_gettime@@GLIBC_2.17}; .dynsym names never do)
 * @param shndx          section index, with SHN_XINDEX already resolved
 * @param version        the symbol version from .gnu.version/.gnu.version_d/.gnu.version_r, or
 *                       null (no version, local, or not a .dynsym)
 * @param versionHidden  the version is not the default one (printed {@code name@VER}); for a
 *                       default definition {@link #versionedName()} prints {@code name@@VER}
 */
public record ElfSymbol(int index, String name, long value, long size, int info, int other, int shndx,
                        String version, boolean versionHidden) {

    public int bind() {
        return info >>> 4;
    }

    public int type() {
        return info & 0xf;
    }

    public int visibility() {
        return other & 0x3;
    }

    public boolean isDefined() {
        return shndx != Elf.SHN_UNDEF;
    }

    /**
     * The name with its version as readelf and gdb print it: {@code name@@VER} for the default
     * version of a definition, {@code name@VER} for a hidden version or a reference. perf itself
     * never adds versions (it prints the string-table name); see {@link #name()}.
     */
    public String versionedName() {
        if (version == null || version.isEmpty() || name.indexOf('@') >= 0) {
            return name;
        }
        return name + (versionHidden || !isDefined() ? "@" : "@@") + version;
    }

    /** perf's binding letter for {@link io.perfj.symbols.Symbol}: G, W, L or U. */
    public char bindingChar() {
        return switch (bind()) {
            case Elf.STB_GLOBAL, Elf.STB_GNU_UNIQUE -> 'G';
            case Elf.STB_WEAK -> 'W';
            case Elf.STB_LOCAL -> 'L';
            default -> 'U';
        };
    }
}
