package io.perfj.symbols;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The ways of naming symbols: perf 7.2's C++ names with parameter lists, perf 6.1's without (but with -v). */
class DemanglingTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            // libjvm.so (java fixture): perf 7.2 | perf 6.1
            "_ZN24SharedDataRelocationTask4workEii|SharedDataRelocationTask::work(int, int)|SharedDataRelocationTask::work",
            "_ZN11StringTable12create_tableEv|StringTable::create_table()|StringTable::create_table",
            "_ZN15ClassFileParser12parse_streamEPK15ClassFileStreamP10JavaThread.part.0"
                    + "|ClassFileParser::parse_stream(ClassFileStream const*, JavaThread*) [clone .part.0]"
                    + "|ClassFileParser::parse_stream",
            "_ZNK1A1fEv|A::f() const|A::f",
            "_Znwm|operator new(unsigned long)|operator new",
            "_Z1fIiEvT_|void f<int>(int)|f<int>",
            // Rust and OCaml names are the same both ways, so are names that are not mangled
            "_ZN4core3fmt5write17h0123456789abcdefE|core::fmt::write|core::fmt::write",
            "_RNvCs1234_7mycrate3foo|mycrate::foo|mycrate::foo",
            "camlFoo__bar_123|Foo.bar_123|Foo.bar_123",
            "main|main|main",
            // not mangled: perf 7.2's __cxa_demangle reads these as types (float, std::string)
            "f|f|f",
            "Ss|Ss|Ss",
    })
    void namesAsEachPerfPrintsThem(String raw, String perf72, String perf61) {
        assertEquals(perf72, Demangling.CURRENT.demangle(raw));
        assertEquals(perf61, Demangling.PERF_6_1.demangle(raw));
        // perf 6.1 with -v: DMGL_PARAMS | DMGL_ANSI, perf 7.2's names
        assertEquals(perf72, Demangling.PERF_6_1_VERBOSE.demangle(raw));
    }

    @Test
    void perf61WithVerboseNamesWithParameters() {
        assertEquals(Demangling.PERF_6_1_VERBOSE, io.perfj.session.Compat.PERF_6_1.demangling(true));
        assertEquals(Demangling.PERF_6_1, io.perfj.session.Compat.PERF_6_1.demangling(false));
        assertEquals(Demangling.CURRENT, io.perfj.session.Compat.NONE.demangling(true));
        // the same names as perf 7.2's make the same tables
        assertEquals(Demangling.CURRENT.key(), Demangling.PERF_6_1_VERBOSE.key());
    }

    @Test
    void eachWayHasItsOwnKey() {
        assertFalse(Demangling.CURRENT.key().equals(Demangling.PERF_6_1.key()));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "SharedDataRelocationTask::work(int, int)|SharedDataRelocationTask::work",
            "StringTable::create_table()|StringTable::create_table",
            "A<int, long>::f(int) const &&|A<int, long>::f",
            "ClassFileParser::parse_stream(ClassFileStream const*, JavaThread*) [clone .part.0]|ClassFileParser::parse_stream",
            "f(int) [clone .isra.0] [clone .cold]|f",
            "(anonymous namespace)::foo(void (*)(unsigned long))|(anonymous namespace)::foo",
            "main::{lambda(unsigned long)#1}::_M_invoke(std::_Any_data const&)|main::{lambda(unsigned long)#1}::_M_invoke",
    })
    void withoutParametersIsPerf61sName(String perf72, String perf61) {
        assertEquals(perf61, Demangling.withoutParameters(perf72));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "SharedDataRelocationTask::work", "main", "void f<int>(int)", "operator new(unsigned long)",
            "A::operator()(int)", "main::{lambda()#1}::operator()", "long Hot.alpha(long)", "f(int",
            "core::ptr::drop_in_place<alloc::vec::Vec<u8>>", "[clone .cold]",
    })
    void namesWithoutAParameterListToDropHaveNoShorterName(String name) {
        assertNull(Demangling.withoutParameters(name));
    }

    @Test
    void aSymbolAnswersToItsNameAndByDefaultToItWithoutParameters() {
        Set<String> asked = Set.of("SharedDataRelocationTask::work", "StringTable::create_table()");
        assertTrue(Demangling.CURRENT.isAsked(asked, "SharedDataRelocationTask::work(int, int)"));
        assertTrue(Demangling.CURRENT.isAsked(asked, "StringTable::create_table()"));
        assertFalse(Demangling.CURRENT.isAsked(asked, "SharedDataRelocationTask::works(int)"));
        assertTrue(Demangling.PERF_6_1.isAsked(asked, "SharedDataRelocationTask::work"));
        assertFalse(Demangling.PERF_6_1.isAsked(asked, "SharedDataRelocationTask::work(int, int)"),
                "perf 6.1 takes names as they are");
        assertFalse(Demangling.PERF_6_1_VERBOSE.isAsked(asked, "SharedDataRelocationTask::work(int, int)"),
                "with -v too");
        assertTrue(Demangling.PERF_6_1_VERBOSE.isAsked(asked, "StringTable::create_table()"));
    }
}
