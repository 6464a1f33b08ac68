package io.perfj.symbols;

import io.perfj.elf.Elf;
import io.perfj.elf.ElfBuilder;
import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NameProbeTest {
    @TempDir
    Path tmp;

    private Path elf(String... names) throws IOException {
        ElfBuilder b = new ElfBuilder(true, ByteOrder.LITTLE_ENDIAN);
        long at = 0x401000;
        for (String n : names) {
            b.sym(n, at, 16, Elf.STT_FUNC, Elf.STB_GLOBAL);
            at += 16;
        }
        Path f = tmp.resolve("obj" + names.length);
        Files.write(f, b.build());
        return f;
    }

    @Test
    void findsPlainNamesAndCxxFunctionsShownWithoutParameters() throws IOException {
        Path f = elf("plain_c", "_Z3fooi", "_ZL3bari", "__libc_start_main@@GLIBC_2.34", "foo.cold");
        assertTrue(NameProbe.elfMayHold(f, Set.of("plain_c")));
        assertTrue(NameProbe.elfMayHold(f, Set.of("nope", "foo")), "foo(int) shows as foo");
        assertTrue(NameProbe.elfMayHold(f, Set.of("bar")), "a static C++ function");
        assertTrue(NameProbe.elfMayHold(f, Set.of("__libc_start_main@@GLIBC_2.34")));
        assertFalse(NameProbe.elfMayHold(f, Set.of("nope")));
        assertFalse(NameProbe.elfMayHold(f, Set.of("plain")), "a prefix of a name is not the name");
        // a suffix may be: linkers store a name that ends another as that name's tail
        assertTrue(NameProbe.elfMayHold(f, Set.of("lain_c")));
        assertFalse(NameProbe.elfMayHold(f, Set.of("printf@plt")));
        // names the probe cannot look for are always possible
        assertTrue(NameProbe.elfMayHold(f, Set.of("foo.cold")));
        assertTrue(NameProbe.elfMayHold(f, Set.of("ns::f<int>")));
        assertFalse(NameProbe.elfMayHold(f, Set.of("ns::f")), "a qualified name is looked for");
    }

    @Test
    void qualifiedNamesAreFoundByTheirMangledTail() throws IOException {
        Path f = elf("_ZNK4Node9dominatesEPS_R8Node_List", "_ZN4core3ptr13drop_in_place17h0123456789abcdefE",
                "_RNvNtCs1234_4core3fmt9write_str", "_ZN3FooC2Ev", "_ZNKSs4sizeEv", "plain::stored");
        assertTrue(NameProbe.probeable("Node::dominates"));
        assertTrue(NameProbe.elfMayHold(f, Set.of("Node::dominates")));
        assertTrue(NameProbe.elfMayHold(f, Set.of("core::ptr::drop_in_place")), "Rust legacy");
        assertTrue(NameProbe.elfMayHold(f, Set.of("core::fmt::write_str")), "Rust v0");
        assertTrue(NameProbe.elfMayHold(f, Set.of("Foo::Foo")), "a constructor spells its class");
        assertTrue(NameProbe.elfMayHold(f, Set.of("std::string::size")), "std::string is Ss");
        assertTrue(NameProbe.elfMayHold(f, Set.of("plain::stored")), "a name stored unmangled");
        assertFalse(NameProbe.elfMayHold(f, Set.of("Node::dominated")));
        assertFalse(NameProbe.elfMayHold(f, Set.of("Other::elsewhere", "x::nope")));
        // not looked for: a v0 identifier starting with '_' gets a separator; operators, templates
        for (String n : List.of("core::_private", "Node::~Node", "A<int>::f", "A::operator new", "::f", "f::")) {
            assertFalse(NameProbe.probeable(n), n);
            assertTrue(NameProbe.elfMayHold(f, Set.of(n)), n);
        }
    }

    @Test
    void kallsymsNamesAreWholeNamesAtTheEndOfALineOrBeforeAModule() throws IOException {
        Path k = tmp.resolve("kallsyms");
        Files.writeString(k, "ffffffff81000000 T _stext\nffffffff81001000 t compute_a_helper\n"
                + "ffffffffc0001000 t xt_find\t[xt_string]\nffffffff81002000 T last_one");
        DsoFinder f = new DsoFinder(MachineDsoFinderTest.opts(null, null, k, false), new DefaultSymbolLoader());
        Dso kernel = new Dso("[kernel.kallsyms]", DsoKind.KERNEL, null, d -> SymbolTable.EMPTY);
        assertTrue(NameProbe.kallsymsMayHold(f, kernel, Set.of("_stext")));
        assertTrue(NameProbe.kallsymsMayHold(f, kernel, Set.of("nope", "xt_find")), "a module's symbol");
        assertFalse(NameProbe.kallsymsMayHold(f, kernel, Set.of("compute_a")), "a prefix of a name is not the name");
        assertFalse(NameProbe.kallsymsMayHold(f, kernel, Set.of("stext")), "nor its tail");
        // the last line without its newline is not found: perf's kallsyms always ends with one
        Files.writeString(k, "");
        assertFalse(NameProbe.kallsymsMayHold(f, kernel, Set.of("_stext")), "an empty file names nothing");
        Files.delete(k);
        assertFalse(NameProbe.kallsymsMayHold(f, kernel, Set.of("_stext")), "no kallsyms: the kernel has no symbols");
    }

    @Test
    void theFirstNameOfATableIsFound() throws IOException {
        Path f = elf("first");
        assertTrue(NameProbe.elfMayHold(f, Set.of("first")));
    }

    /**
     * No false negatives on real objects: every plain name perfj's own loader gives a symbol of
     * a fixture ELF (demangled, PLT entries, versions) is found by the probe.
     */
    /**
     * No false negatives on a large C++ object (libjvm.so from the committed build-id cache): a
     * spread of the qualified names perfj's loader gives its symbols is found by the probe.
     */
    @Test
    void everyQualifiedNameOfLibjvmIsFound() throws IOException {
        Path cache = BuildIdCacheFixture.dir();
        Path f;
        try (Stream<Path> s = Files.walk(cache)) {
            f = s.filter(p -> p.toString().contains("libjvm.so") && p.getFileName().toString().equals("elf"))
                    .findFirst().orElse(null);
        }
        assertNotNull(f, "the committed build-id cache has no libjvm.so");
        List<Symbol> syms = ElfSymbols.loadUser(f, List.of(), false, io.perfj.compat.PerfSymbolTree.RULES, Demangling.PERF_6_1).table().symbols();
        int checked = 0;
        int i = 0;
        for (Symbol sym : syms) {
            if (!sym.name().contains("::") || !NameProbe.probeable(sym.name()) || i++ % 40 != 0) {
                continue;
            }
            assertTrue(NameProbe.elfMayHold(f, Set.of(sym.name())), sym.name());
            checked++;
        }
        assertTrue(checked > 300, "only " + checked + " qualified names");
    }

    @TestFactory
    Stream<DynamicTest> everyLoadedPlainNameIsFound() {
        List<Path> files = Stream.of("bin/hot", "btf-encode/bin/gcc-dwarf5", "btf-encode/bin/clang-dwarf4")
                .map(Fixtures::file).toList();
        return files.stream().map(f -> DynamicTest.dynamicTest(f.getFileName().toString(), () -> {
            List<Symbol> syms = ElfSymbols.loadUser(f, List.of(), false, io.perfj.compat.PerfSymbolTree.RULES, Demangling.PERF_6_1).table().symbols();
            assertFalse(syms.isEmpty());
            int checked = 0;
            for (Symbol s : syms) {
                if (NameProbe.plain(s.name())) {
                    assertTrue(NameProbe.elfMayHold(f, Set.of(s.name())), s.name());
                    checked++;
                }
            }
            assertTrue(checked > 5, "only " + checked + " plain names");
        }));
    }
}
