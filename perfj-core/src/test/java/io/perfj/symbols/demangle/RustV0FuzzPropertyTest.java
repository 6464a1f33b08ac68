package io.perfj.symbols.demangle;

import io.perfj.symbols.Demangler;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Random strings over the v0 alphabet and random edits of real v0 names: the demangler returns
 * a name or null, never throws, and finishes quickly (backreferences can make output
 * exponential; the printer's output and step bounds stop that).
 */
class RustV0FuzzPropertyTest {
    /** Real names from the fixture program and std, including backrefs, consts and punycode. */
    static final List<String> SEEDS = List.of(
            "_RINvMNtNtCsgEmfK2I1SDS_4core4cell4onceINtB3_8OnceCellINtNtB7_6result6ResultINtNtB7_6option6OptionINtNtCslNYArtu3iFV_5alloc5boxed3BoxINtNtCs4X4t9plMPHF_9addr2line4unit7DwoUnitINtNtNtCsduwmD7cSIQq_5gimli4read12endian_slice11EndianSliceNtNtB2T_9endianity12LittleEndianEEEENtB2R_5ErrorEE8try_initNCINvB2_11get_or_initNCNvMB29_INtB29_7ResUnitB2M_E14dwarf_and_units0_0E0zECsjrHSEGnQ3l9_3std",
            "_RINvNtCsa88kF0praE4_6rv0libu9mdulo_0tau7lzzs90aNCNvCs3kDy0y8OaaR_3rv04main0EBN_",
            "_RINvCsa88kF0praE4_6rv0lib9con_constKh7_Kln3_Kb1_Kcf1_ECs3kDy0y8OaaR_3rv0",
            "_RINvCs3kDy0y8OaaR_3rv08genericoThscReAfj2_RSbuEEB2_",
            "_RINvC1a1fKVNtC1a1PS1xj1_1yj2_EE",
            "_RINvC1a1fKRe61225c0a_E",
            "_RINvC1a1fFG0_RL1_hRL0_tEuE",
            "_RINvC1a1fDINtC1a2FnThEEp6OutputhEL_E",
            "_RINvC1a1fFUKCEuE",
            "_RNvNtNtCsjrHSEGnQ3l9_3std2io5stdio19OUTPUT_CAPTURE_USED.0",
            "_RNvXC1aNtC1a3FooNtC1a5Trait4meth",
            "_RINvC1a1fKAj1_j2_EE");

    static final String ALPHABET = "_RNCSvtMXYIBKLDFGUAPQTEpu.0123456789abcdefhijlmnostxyzsrkqgw";

    @Property(tries = 3000)
    void randomStringsNeverThrow(@ForAll("v0ish") String s) {
        check(s);
    }

    @Property(tries = 5000)
    void mutatedNamesNeverThrow(@ForAll("mutated") String s) {
        check(s);
    }

    static void check(String s) {
        long t0 = System.nanoTime();
        String a = RustV0Demangler.demangle(s, false);
        String b = RustV0Demangler.demangle(s, true);
        assertNotNull(Demangler.demangle(s));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(ms < 2000, s + " took " + ms + " ms");
        assertTrue((a == null) == (b == null), s);
    }

    @Provide
    Arbitrary<String> v0ish() {
        Arbitrary<String> body = Arbitraries.strings().withChars(ALPHABET.toCharArray()).ofMinLength(0).ofMaxLength(80);
        return Combinators.combine(Arbitraries.of("_R", "R", "__R", "_RI", "_RN", "_RINvC1a1f"), body).as(String::concat);
    }

    /** Replace, insert, delete, duplicate a slice, or cut, up to three times. */
    @Provide
    Arbitrary<String> mutated() {
        Arbitrary<int[]> edit = Arbitraries.integers().between(0, Integer.MAX_VALUE).array(int[].class).ofSize(4);
        return Combinators.combine(Arbitraries.of(SEEDS), edit.list().ofMinSize(1).ofMaxSize(3)).as((seed, edits) -> {
            StringBuilder s = new StringBuilder(seed);
            for (int[] e : edits) {
                int at = s.isEmpty() ? 0 : e[1] % s.length();
                char c = ALPHABET.charAt(e[2] % ALPHABET.length());
                switch (e[0] % 5) {
                    case 0 -> {
                        if (!s.isEmpty()) {
                            s.setCharAt(at, c);
                        }
                    }
                    case 1 -> s.insert(at, c);
                    case 2 -> {
                        if (!s.isEmpty()) {
                            s.deleteCharAt(at);
                        }
                    }
                    case 3 -> {
                        int len = Math.min(s.length() - at, 1 + e[3] % 40);
                        s.insert(at, s.substring(at, at + len));
                    }
                    default -> s.setLength(at);
                }
            }
            return s.toString();
        });
    }
}
