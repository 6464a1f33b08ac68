package io.perfj.elf;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** The entries of a SHT_SYMTAB / SHT_DYNSYM section as objects (decoded by {@link ElfSymbolColumns}). */
final class ElfSymbolReader {
    private ElfSymbolReader() {
    }

    static List<ElfSymbol> read(ElfFile elf, SectionHeader sec) {
        ElfSymbolColumns c = ElfSymbolColumns.read(elf, sec);
        List<ElfSymbol> out = new ArrayList<>(c.count());
        for (int i = 0; i < c.count(); i++) {
            out.add(c.entry(i));
        }
        return Collections.unmodifiableList(out);
    }
}
