package io.perfj.symbols.demangle;

import io.perfj.symbols.Demangler;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Real v0 names (fixtures/golden/rust-v0-demangle.tsv.gz, made by fixtures/make-rust-v0.sh from
 * the fixture program, the toolchain's std and a sample of librustc_driver) against what perf
 * prints for them. The expected forms come from c++filt, adjusted for the documented ways perf
 * differs from it (no crate hashes, untyped constants, "." suffixes kept; see
 * fixtures/src/rustv0/cxxfilt-to-perf.pl), and for the names c++filt cannot read (str and
 * structural constants) from rustc-demangle, the crate perf's C code translates.
 */
class RustV0GoldenTest {
    record Row(String mangled, String perf, String verbose, String source) {
    }

    static List<Row> rows() throws IOException {
        Path f = Fixtures.goldenFile("rust-v0-demangle.tsv.gz");
        List<Row> rows = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(
                new GZIPInputStream(Files.newInputStream(f)), StandardCharsets.UTF_8))) {
            for (String l = r.readLine(); l != null; l = r.readLine()) {
                String[] c = l.split("\t", -1);
                rows.add(new Row(c[0], c[1], c[2], c[3]));
            }
        }
        return rows;
    }

    @Test
    void everyNameAsPerfPrintsIt() throws IOException {
        List<Row> rows = rows();
        assertTrue(rows.size() > 4000, "only " + rows.size() + " names");
        List<String> bad = new ArrayList<>();
        int fromCxxFilt = 0;
        for (Row r : rows) {
            if (r.source().equals("c++filt")) {
                fromCxxFilt++;
            }
            String got = Demangler.demangle(r.mangled());
            if (!got.equals(r.perf()) && bad.size() < 10) {
                bad.add(r.mangled() + "\n  want " + r.perf() + "\n  got  " + got);
            }
        }
        assertEquals(List.of(), bad);
        assertTrue(fromCxxFilt > rows.size() - 20, fromCxxFilt + " rows from c++filt");
    }

    @Test
    void verboseAddsHashesAndConstantTypes() throws IOException {
        List<String> bad = new ArrayList<>();
        for (Row r : rows()) {
            String got = RustV0Demangler.demangle(r.mangled(), true);
            if (!r.verbose().equals(got) && bad.size() < 10) {
                bad.add(r.mangled() + "\n  want " + r.verbose() + "\n  got  " + got);
            }
        }
        assertEquals(List.of(), bad);
    }

    @Test
    void theSetCoversTheGrammar() throws IOException {
        List<Row> rows = rows();
        for (String part : List.of("{closure#", "{shim:", " as ", "dyn ", " = ", "unsafe extern \"C\" fn(", "for<'a>",
                "*const ", "*mut ", "&mut ", "; 2]", "::<", "módulo", "計算", "'\\u{f1}'", "\"hola, mundo\"",
                "{rv0::Punto { x: 2, y: -5 }}", "{rv0::Modo::Lento(4)}", "{(3, true)}", ".0", "-3")) {
            assertTrue(rows.stream().anyMatch(r -> r.perf().contains(part)), "no name with " + part);
        }
        assertTrue(rows.stream().anyMatch(r -> r.mangled().contains(".llvm.")), "no .llvm. suffix");
    }
}
