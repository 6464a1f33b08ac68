package io.perfj.btf.encode;

import io.perfj.btf.Btf;
import io.perfj.btf.BtfType;
import io.perfj.dwarf.info.BtfEncodeFixtures;
import io.perfj.elf.ElfFile;
import io.perfj.elf.ElfSymbol;
import io.perfj.elf.SectionHeader;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --vars all} on relocatable objects (a real module among them): one DATASEC per
 * allocated PROGBITS/NOBITS section, each variable at its symbol's section-relative value,
 * sorted, without overlaps, inside the section.
 */
class RelocatableVarsTest {
    @ParameterizedTest
    @ValueSource(strings = {"gcc-types.o", "crc7.ko", "module.o"})
    void variablesSitAtTheirSymbols(String name) throws Exception {
        try (ElfFile elf = ElfFile.open(BtfEncodeFixtures.bin(name))) {
            Btf btf = Btf.parse(BtfEncoder.encode(elf, new EncodeOptions(EncodeOptions.Vars.ALL, 2)), name);
            Set<String> symbols = new HashSet<>();
            for (ElfSymbol s : elf.symtab()) {
                symbols.add(s.shndx() + " " + s.name() + " " + s.value() + " " + s.size());
            }
            int vars = 0;
            for (BtfType t : btf.ownTypes()) {
                if (!(t instanceof BtfType.Datasec d)) {
                    continue;
                }
                SectionHeader sh = elf.section(d.name()).orElseThrow(() -> new AssertionError(d.name()));
                assertTrue(sh.isAlloc(), d.name() + " is not an allocated section");
                long end = 0;
                for (BtfType.VarSecinfo v : d.vars()) {
                    String var = ((BtfType.Var) btf.type(v.type())).name();
                    if (!d.name().equals(".data..percpu")) {
                        assertTrue(symbols.contains(sh.index() + " " + var + " " + v.offset() + " " + v.size()),
                                var + " at " + v.offset() + " in " + d.name() + " is not where its symbol is");
                    }
                    assertTrue(v.offset() >= end, var + " overlaps the variable before it");
                    end = (long) v.offset() + v.size();
                    assertTrue(end <= sh.size(), var + " runs past " + d.name());
                    vars++;
                }
            }
            assertTrue(vars > 0, "no variables in " + name);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"gcc-types.o"})
    void perCpuOffsetsAreSectionRelative(String name) throws Exception {
        try (ElfFile elf = ElfFile.open(BtfEncodeFixtures.bin(name))) {
            Btf btf = Btf.parse(BtfEncoder.encode(elf, new EncodeOptions(EncodeOptions.Vars.PERCPU, 1)), name);
            StringBuilder got = new StringBuilder();
            for (BtfType t : btf.ownTypes()) {
                if (t instanceof BtfType.Datasec d) {
                    for (BtfType.VarSecinfo v : d.vars()) {
                        got.append(d.name()).append(' ').append(((BtfType.Var) btf.type(v.type())).name())
                                .append(' ').append(v.offset()).append('\n');
                    }
                }
            }
            assertEquals(".data..percpu cpu_local_static 0\n.data..percpu cpu_counter 8\n.data..percpu cpu_stats 16\n",
                    got.toString());
        }
    }
}
