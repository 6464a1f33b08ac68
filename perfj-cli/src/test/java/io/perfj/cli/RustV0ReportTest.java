package io.perfj.cli;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * perfj report on rust-v0.data (a program whose symbols, std included, are Rust v0 names) shows
 * the names demangled exactly as perf does: the golden is perf's own report. The recording's
 * build-id cache is archive/rust-v0.buildid-cache.tar.xz (see fixtures/make-rust-v0.sh).
 */
class RustV0ReportTest {
    private static Path cache;

    static synchronized Path cache() throws IOException, InterruptedException {
        if (cache == null) {
            Path tar = CliFixtures.dir().resolve("archive").resolve("rust-v0.buildid-cache.tar.xz");
            Assumptions.assumeTrue(Files.isRegularFile(tar), tar + " is absent");
            Path d = Files.createTempDirectory("perfj-rust-v0-cache");
            Process p = new ProcessBuilder("tar", "-xJf", tar.toString(), "-C", d.toString()).redirectErrorStream(true).start();
            String msg = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            Assumptions.assumeTrue(p.waitFor() == 0, "tar could not unpack the cache: " + msg);
            cache = d;
        }
        return cache;
    }

    @Test
    void reportShowsDemangledV0NamesAsPerf() throws Exception {
        String golden = CliFixtures.golden("rust-v0", "report-sym");
        CliFixtures.Run r = CliFixtures.runPerf("report", "--stdio", "--no-children", "-g", "none", "--sort", "symbol",
                "--dsos", "rv0", "-i", CliFixtures.recording("rust-v0").toString(),
                "--buildid-dir", cache().toString(), "--no-system-files");
        assertEquals(0, r.rc(), r.err());
        assertEquals(String.join("\n", ReportGoldenTest.withoutTip(golden)), String.join("\n", ReportGoldenTest.withoutTip(r.out())));
        assertTrue(r.out().contains("[.] rv0lib::módulo::計算::<rv0::main::{closure#0}>"), r.out());
    }

    @Test
    void scriptShowsDemangledV0Names() throws Exception {
        CliFixtures.Run r = CliFixtures.runPerf("script", "-i", CliFixtures.recording("rust-v0").toString(),
                "--buildid-dir", cache().toString(), "--no-system-files");
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.out().contains(" <rv0::Suma as rv0::Visitante>::visitar+0x"), r.out().substring(0, 2000));
        assertTrue(r.out().contains(" std::rt::lang_start_internal+0x"), "std frames are v0 names too");
        assertTrue(!r.out().contains(" _R"), "a v0 name left mangled");
    }
}
