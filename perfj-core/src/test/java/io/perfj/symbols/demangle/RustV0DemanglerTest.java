package io.perfj.symbols.demangle;

import io.perfj.symbols.Demangler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One or more names per rule of RFC 2603's grammar. Every expected string was checked against
 * rustc-demangle (the Rust crate perf's demangle-rust-v0.c translates), "{:#}" for perf's form and
 * "{}" for the verbose one, with one documented difference: perf's C port, unlike the crate,
 * escapes every non-ASCII character of a char or str constant as "\\u{...}".
 */
class RustV0DemanglerTest {
    record Case(String mangled, String perf, String verbose) {
        @Override
        public String toString() {
            return mangled;
        }
    }

    static Case c(String mangled, String perf) {
        return new Case(mangled, perf, perf);
    }

    static Case c(String mangled, String perf, String verbose) {
        return new Case(mangled, perf, verbose);
    }

    static List<Case> cases() {
        return List.of(
                // paths: crate root (verbose shows the disambiguator as hash), namespaces, closures, shims
                c("_RNvC1a3foo", "a::foo"),
                c("_RNvCs_1a3foo", "a::foo", "a[1]::foo"),
                c("_RNvCsabc_1a3foo", "a::foo", "a[98e0]::foo"),
                c("_RNvNtC1a1m1f", "a::m::f"),
                c("_RNCNvC1a4main0_", "a::main::{closure#0}"),
                c("_RNCNvC1a4mains_0_", "a::main::{closure#1}"),
                c("_RNCNvC1a4main4name", "a::main::{closure:name#0}"),
                c("_RNSNvC1a1f6vtable", "a::f::{shim:vtable#0}"),
                c("_RNXNvC1a1f0_", "a::f::{X#0}"),
                c("_RNvNvC1a1f0_", "a::f"),
                // impls: inherent (M), trait impl (X), trait definition (Y); the impl's own path is not shown
                c("_RNvMC1aNtC1a3Foo3new", "<a::Foo>::new"),
                c("_RNvMs0_C1aNtC1a3Foo3new", "<a::Foo>::new"),
                c("_RNvXC1aNtC1a3FooNtC1a5Trait4meth", "<a::Foo as a::Trait>::meth"),
                c("_RNvYNtC1a3FooNtC1a5Trait4meth", "<a::Foo as a::Trait>::meth"),
                // generic arguments: "::<" in a value path, "<" in a type; the instantiating crate is not shown
                c("_RINvC1a1fjE", "a::f::<usize>"),
                c("_RNvMC1aINtC1a3FoojE3new", "<a::Foo<usize>>::new"),
                c("_RINvC1a1fL_E", "a::f::<'_>"),
                c("_RINvC1a1fjEC1b", "a::f::<usize>"),
                // types: basic, refs with lifetimes, raw pointers, arrays, slices, tuples
                c("_RINvC1a1fTabcdefhijlmnostuvxyzEE", "a::f::<(i8, bool, char, f64, str, f32, u8, isize, usize, i32, u32, i128, u128, i16, u16, (), ..., i64, u64, !)>"),
                c("_RINvC1a1fpE", "a::f::<_>"),
                c("_RINvC1a1fRhE", "a::f::<&u8>"),
                c("_RINvC1a1fQhE", "a::f::<&mut u8>"),
                c("_RINvC1a1fRL_hE", "a::f::<&u8>"),
                c("_RINvC1a1fFG_RL0_hEuE", "a::f::<for<'a> fn(&'a u8)>"),
                c("_RINvC1a1fFG0_RL1_hRL0_tEuE", "a::f::<for<'a, 'b> fn(&'a u8, &'b u16)>"),
                c("_RINvC1a1fPhOhE", "a::f::<*const u8, *mut u8>"),
                c("_RINvC1a1fAhj4_E", "a::f::<[u8; 4]>", "a::f::<[u8; 4usize]>"),
                c("_RINvC1a1fShE", "a::f::<[u8]>"),
                c("_RINvC1a1fThETEE", "a::f::<(u8,), ()>"),
                // fn pointers (binders, unsafe, ABIs with _ as -) and dyn traits (associated types, lifetimes)
                c("_RINvC1a1fFEuE", "a::f::<fn()>"),
                c("_RINvC1a1fFhEtE", "a::f::<fn(u8) -> u16>"),
                c("_RINvC1a1fFUKCEuE", "a::f::<unsafe extern \"C\" fn()>"),
                c("_RINvC1a1fFK6systemEuE", "a::f::<extern \"system\" fn()>"),
                c("_RINvC1a1fFK8C_unwindEuE", "a::f::<extern \"C-unwind\" fn()>"),
                c("_RINvC1a1fDNtC1a5TraitEL_E", "a::f::<dyn a::Trait>"),
                c("_RINvC1a1fDINtC1a2FnThEEp6OutputhEL_E", "a::f::<dyn a::Fn<(u8,), Output = u8>>"),
                c("_RINvC1a1fDNtC1a1XNtC1a4SendEL_E", "a::f::<dyn a::X + a::Send>"),
                c("_RINvC1a1fFG_DNtC1a1XEL0_EuE", "a::f::<for<'a> fn(dyn a::X + 'a)>"),
                // backreferences (positions count from after "_R")
                c("_RINvC1a1fNtB2_1SE", "a::f::<a::S>"),
                // constants: integers (typed only when verbose), bool, char (perf escapes every non-ASCII char), placeholder
                c("_RINvC1a1fKj7b_E", "a::f::<123>", "a::f::<123usize>"),
                c("_RINvC1a1fKan7b_E", "a::f::<-123>", "a::f::<-123i8>"),
                c("_RINvC1a1fKb1_Kb0_E", "a::f::<true, false>"),
                c("_RINvC1a1fKc41_E", "a::f::<'A'>"),
                c("_RINvC1a1fKc27_Kca_Kc5c_Kc22_E", "a::f::<'\\'', '\\n', '\\\\', '\"'>"),
                c("_RINvC1a1fKcf1_E", "a::f::<'\\u{f1}'>"),
                c("_RINvC1a1fKoffffffffffffffffffffffffffffffff_E", "a::f::<0xffffffffffffffffffffffffffffffff>", "a::f::<0xffffffffffffffffffffffffffffffffu128>"),
                c("_RINvC1a1fKyffffffffffffffff_E", "a::f::<18446744073709551615>", "a::f::<18446744073709551615u64>"),
                c("_RINvC1a1fKj_E", "a::f::<0>", "a::f::<0usize>"),
                c("_RINvC1a1fKpE", "a::f::<_>"),
                // constants: str, and the structural ones in braces outside an expression
                c("_RINvC1a1fKRe616263_E", "a::f::<\"abc\">"),
                c("_RINvC1a1fKe616263_E", "a::f::<{*\"abc\"}>"),
                c("_RINvC1a1fKRe61225c0a_E", "a::f::<\"a\\\"\\\\\\n\">"),
                c("_RINvC1a1fKRec3b1_E", "a::f::<\"\\u{f1}\">"),
                c("_RINvC1a1fKAj1_j2_EE", "a::f::<{[1, 2]}>", "a::f::<{[1usize, 2usize]}>"),
                c("_RINvC1a1fKTj1_b0_EE", "a::f::<{(1, false)}>", "a::f::<{(1usize, false)}>"),
                c("_RINvC1a1fKTj1_EE", "a::f::<{(1,)}>", "a::f::<{(1usize,)}>"),
                c("_RINvC1a1fKVNtC1a1SUE", "a::f::<{a::S}>"),
                c("_RINvC1a1fKVNtC1a1ETj1_EE", "a::f::<{a::E(1)}>", "a::f::<{a::E(1usize)}>"),
                c("_RINvC1a1fKVNtC1a1PS1xj1_1yj2_EE", "a::f::<{a::P { x: 1, y: 2 }}>", "a::f::<{a::P { x: 1usize, y: 2usize }}>"),
                c("_RINvC1a1fKRj1_E", "a::f::<{&1}>", "a::f::<{&1usize}>"),
                c("_RINvC1a1fKQj1_E", "a::f::<{&mut 1}>", "a::f::<{&mut 1usize}>"),
                // an array length is a const without the K tag
                c("_RINvC1a1fAhKj4_E", null),
                // suffixes: .llvm.<HEX or @> dropped, others kept; the R and __R prefixes perf also accepts
                c("_RNvC1a1b.llvm.1234ABCD", "a::b"),
                c("_RNvC1a1b.llvm.12@4", "a::b"),
                c("_RNvC1a1b.llvm.", "a::b"),
                c("_RNvC1a1b.llvm.xyz", "a::b.llvm.xyz"),
                c("_RNvC1a1b.0", "a::b.0"),
                c("_RNvC1a1b.cold.1", "a::b.cold.1"),
                c("RNvC1a1b", "a::b"),
                c("__RNvC1a1b", "a::b"),
                // found bad only while printing (lifetimes are not checked before): perf's inline markers
                c("_RINvC1a1fRL0_hE", "a::f::<&'{invalid syntax} ?>"),
                c("_RINvC1a1fFG_RL1_hEuE", "a::f::<for<'a> fn(&'{invalid syntax} ?) -> ?>"),
                c("_RINvC1a1fDNtC1a1XEL0_E", "a::f::<dyn a::X + '{invalid syntax}>"),
                // punycode identifiers; undecodable punycode is shown raw
                c("_RNvC1au9mdulo_0ta", "a::módulo"),
                c("_RNvC1au7lzzs90a", "a::計算"),
                c("_RNvC1au6abc_99", "a::punycode{abc-99}"),
                c("_RNvC1au4abc_", null)
        );
    }

    @ParameterizedTest
    @MethodSource("cases")
    void demanglesLikePerf(Case c) {
        assertEquals(c.perf(), RustV0Demangler.demangle(c.mangled(), false));
        assertEquals(c.verbose(), RustV0Demangler.demangle(c.mangled(), true));
    }

    @ParameterizedTest
    @MethodSource("cases")
    void demanglerFallsBackToTheRawName(Case c) {
        assertEquals(c.perf() == null ? c.mangled() : c.perf(), Demangler.demangle(c.mangled()));
    }

    @Test
    void malformedNamesAreNotRust() {
        for (String s : List.of("_R", "R", "__R", "_Rv", "_R1", "_RNvC1a", "_RNvC1a1", "_RNvC1a2b", "_RC", "_RNvC1a1b_x",
                "_RNvC1a1b. x", "_RNvC1a1b.\u00e9", "_RNvC1a1b\u00e9", "_RNvCs1a1b", "_RNvC1a1bX", "_RINvC1a1fKb2_E",
                "_RINvC1a1fKcd800_E", "_RINvC1a1fKRe6_E", "_RINvC1a1fKRec3_E", "_RINvC1a1fKj7B_E", "_RINvC1a1fBz_E",
                "_RINvC1a1fKVNtC1a1SZE", "_RINvC1a1fFKu2abEuE", "_RNvC1a18446744073709551616x",
                "_RINvC1a1fL123456789012_E", "_RNvCsZZZZZZZZZZZZZ_1a1b")) {
            assertNull(RustV0Demangler.demangle(s, false), s);
            assertEquals(s, Demangler.demangle(s), s);
        }
    }

    @Test
    void cNamesThatStartWithRStayAsTheyAre() {
        for (String s : List.of("RC4_set_key", "RAND_bytes", "R_X86_64_PC32", "__RUST_PROBESTACK", "Rf", "_Rf")) {
            assertEquals(s, Demangler.demangle(s));
        }
    }

    @Test
    void nestingPastTheLimitIsNotRust() {
        String deep = "_R" + "Nv".repeat(V0Printer.MAX_DEPTH + 10) + "C1a" + "1b".repeat(V0Printer.MAX_DEPTH + 10);
        assertNull(RustV0Demangler.demangle(deep, false));
        String ok = "_R" + "Nv".repeat(V0Printer.MAX_DEPTH - 10) + "C1a" + "1b".repeat(V0Printer.MAX_DEPTH - 10);
        assertEquals("a" + "::b".repeat(V0Printer.MAX_DEPTH - 10), RustV0Demangler.demangle(ok, false));
    }

    @Test
    void selfReferenceStopsAtTheRecursionLimitAsPerfDoes() {
        // B_ points back at the whole name: f<f<f<...>>> until perf's depth limit of 500
        // (rustc-demangle prints the same: 124 levels of four depth steps each)
        assertEquals("a::f::<" + "a::f<".repeat(124) + "{recursion limit reached}" + ">".repeat(125),
                RustV0Demangler.demangle("_RINvC1a1fB_E", false));
    }

    @Test
    void exponentialBackreferencesGiveUpQuickly() {
        // each tuple holds the previous one twice: 2^60 characters if printed
        StringBuilder s = new StringBuilder("INvC1a1f");
        int prev = s.length();
        s.append("ThhE");
        for (int k = 0; k < 60; k++) {
            int at = s.length();
            s.append('T').append(backref(prev)).append(backref(prev)).append('E');
            prev = at;
        }
        s.append('E');
        String name = "_R" + s;
        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> assertNull(RustV0Demangler.demangle(name, false)));
        assertEquals(name, Demangler.demangle(name));
    }

    static String backref(int pos) {
        return "B" + (pos == 0 ? "" : base62(pos - 1)) + "_";
    }

    static String base62(long v) {
        String digits = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
        StringBuilder b = new StringBuilder();
        do {
            b.insert(0, digits.charAt((int) (v % 62)));
            v /= 62;
        } while (v > 0);
        return b.toString();
    }

    @Test
    void punycodeDecodesToAtMost128Characters() {
        assertEquals("a::" + "a".repeat(127) + "\u00e9", RustV0Demangler.demangle("_RNvC1au131" + "a".repeat(127) + "_wcl", false));
        assertEquals("a::punycode{" + "a".repeat(128) + "-xfl}", RustV0Demangler.demangle("_RNvC1au132" + "a".repeat(128) + "_xfl", false));
    }
}
