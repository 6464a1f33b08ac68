package io.perfj.symbols;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class DemanglerTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            // perf 6.1 prints these (java golden, libjvm.so)
            "_ZN7Threads9create_vmEP14JavaVMInitArgsPb|Threads::create_vm",
            "_ZN12VirtualSpaceC1Ev|VirtualSpace::VirtualSpace",
            "_ZN11ClassLoader19load_jimage_libraryEv.part.0|ClassLoader::load_jimage_library",
            "_ZL16initialize_stubs13StubGenBlobIdiiPKcS1_S1_.constprop.0|initialize_stubs",
            "_Z15perfMemory_initv|perfMemory_init",
            // general forms
            "_ZNSt6vectorIiSaIiEE9push_backERKi|std::vector<int, std::allocator<int> >::push_back",
            "_ZZ4mainENKUlvE_clEv|main::{lambda()#1}::operator()",
            "_ZNKSt8functionIFvvEEclEv|std::function<void ()>::operator()",
            "_ZNSsC1EPKcRKSaIcE|std::basic_string<char, std::char_traits<char>, std::allocator<char> >::basic_string",
            "_ZNSs6appendEPKc|std::string::append",
            "_ZTV1A|vtable for A",
            "_ZTIN4llvm5ErrorE|typeinfo for llvm::Error",
            "_ZThn8_N1A1fEv|non-virtual thunk to A::f()",
            "_ZGVZ1fvE1x|guard variable for f()::x",
            "_Z1fILi5ELb1EEvv|f<5, true>",
            "_Z1fIPFivEEvv|f<int (*)()>",
            "_Z1fIM1AKFivEEvv|f<int (A::*)() const>",
            "_Z1fIA10_iEvv|f<int [10]>",
            "_ZN12_GLOBAL__N_13fooEv|(anonymous namespace)::foo",
            "_ZN9srchilite13globalDataDirB5cxx11E|srchilite::globalDataDir[abi:cxx11]",
            "_ZNKSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEE4sizeEv|std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >::size",
            "_ZN3foo3barE|foo::bar",
            "_ZdlPv|operator delete",
            "_ZN1AcvPKcEv|A::operator char const*",
            // Rust legacy: path without the hash
            "_ZN4core3fmt5write17h0123456789abcdefE|core::fmt::write",
            "_ZN58_$LT$std..io..error..Error$u20$as$u20$core..fmt..Debug$GT$3fmt17h4b7d0b7a10f1cd3eE|<std::io::error::Error as core::fmt::Debug>::fmt",
            // ThinLTO's promoted locals, NAME.llvm.N (rust-lld.data): perf 6.1 (libiberty) and 7.2
            // drop the suffix, as rustc-demangle does; so does any "." suffix after the closing E
            "_ZN9hashbrown3raw21RawTable$LT$T$C$A$GT$14reserve_rehash17hb1ebdf8f0fa85261E.llvm.18170358331414076574"
                    + "|hashbrown::raw::RawTable<T,A>::reserve_rehash",
            "_ZN3std2rt10lang_start28_$u7b$$u7b$closure$u7d$$u7d$17h2036fd289ed1a48cE.llvm.5534330232729329954"
                    + "|std::rt::lang_start::{{closure}}",
            "_ZN4core3fmt5write17h0123456789abcdefE.cold|core::fmt::write",
            "_ZN4core3fmt5write17h0123456789abcdefE.llvm.DEADBEEF@1|core::fmt::write",
            // OCaml
            "camlStdlib__List__map_123|Stdlib.List.map_123",
    })
    void perfStyle(String mangled, String expected) {
        assertEquals(expected, Demangler.demangle(mangled));
    }

    @Test
    void withParameters() {
        assertEquals("f(int, char const*)", Demangler.demangleOrNull("_Z1fiPKc", true, false));
        assertEquals("void f<int>(int) [clone .cold]", Demangler.demangleOrNull("_Z1fIiEvT_.cold", true, false));
        assertEquals("A::f() const", Demangler.demangleOrNull("_ZNK1A1fEv", true, false));
        assertEquals("std::string::size() const", Demangler.demangleOrNull("_ZNKSs4sizeEv", true, false));
    }

    @Test
    void unknownFormsUnchanged() {
        for (String s : new String[]{"main", "clock_gettime@@GLIBC_2.17", "_Z", "_Zfoo", "_ZN3foo", "__libc_start_main",
                "long Hot.beta(long)", "", "_R", "_ZN1AIT_EE"}) {
            assertEquals(s, Demangler.demangle(s));
        }
        assertNull(Demangler.demangleOrNull("_Z1fQ", true, false));
    }

    /** With DMGL_VERBOSE the hash stays, the .llvm.N suffix goes all the same. */
    @Test
    void rustLegacySuffixVerboseKeepsHashOnly() {
        assertEquals("hashbrown::raw::RawTable<T,A>::reserve_rehash::hb1ebdf8f0fa85261", Demangler.demangleOrNull(
                "_ZN9hashbrown3raw21RawTable$LT$T$C$A$GT$14reserve_rehash17hb1ebdf8f0fa85261E.llvm.181703583314",
                false, true));
    }
}
