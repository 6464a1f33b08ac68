package io.perfj.cli;

import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * perfj report on rust-v0.data (a program whose symbols, std included, are Rust v0 names) shows
 * the names demangled exactly as perf does: the golden is perf's own report. The recording's
 * build-id cache is archive/rust-v0.buildid-cache.tar.xz (see fixtures/make-rust-v0.sh).
 */
class RustV0ReportTest {
    @Test
    void reportShowsDemangledV0NamesAsPerf() throws Exception {
        String golden = Fixtures.golden("rust-v0", "report-sym");
        CliFixtures.Run r = CliFixtures.runPerf("report", "--stdio", "--no-children", "-g", "none", "--sort", "symbol",
                "--dsos", "rv0", "-i", Fixtures.recording("rust-v0").toString(),
                "--buildid-dir", BuildIdCacheFixture.unpacked("rust-v0.buildid-cache").toString(), "--no-system-files");
        assertEquals(0, r.rc(), r.err());
        assertEquals(String.join("\n", ReportGoldenTest.withoutTip(golden)), String.join("\n", ReportGoldenTest.withoutTip(r.out())));
        assertTrue(r.out().contains("[.] rv0lib::módulo::計算::<rv0::main::{closure#0}>"), r.out());
    }

    @Test
    void scriptShowsDemangledV0Names() throws Exception {
        CliFixtures.Run r = CliFixtures.runPerf("script", "-i", Fixtures.recording("rust-v0").toString(),
                "--buildid-dir", BuildIdCacheFixture.unpacked("rust-v0.buildid-cache").toString(), "--no-system-files");
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.out().contains(" <rv0::Suma as rv0::Visitante>::visitar+0x"), r.out().substring(0, 2000));
        assertTrue(r.out().contains(" std::rt::lang_start_internal+0x"), "std frames are v0 names too");
        assertTrue(!r.out().contains(" _R"), "a v0 name left mangled");
    }
}
