package io.perfj.cli;

import io.perfj.testing.BuildIdCacheFixture;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Damaged symbol sources never stop a report: a corrupt ELF in the build-id cache, a corrupt
 * kallsyms and a garbage perf map each give at most one warning naming the file, and the report
 * goes on with raw addresses for what they would have named.
 */
class ReportBadSymbolsTest {
    @TempDir
    Path tmp;

    private Path copyCache() throws IOException {
        Path src = BuildIdCacheFixture.dir();
        Path dst = tmp.resolve("cache");
        try (Stream<Path> s = Files.walk(src)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                Path t = dst.resolve(src.relativize(p).toString());
                if (Files.isSymbolicLink(p)) {
                    Files.createDirectories(t.getParent());
                    Files.createSymbolicLink(t, Files.readSymbolicLink(p));
                } else if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(p, t);
                }
            }
        }
        return dst;
    }

    private static void damage(Path root, String nameEnd) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.filter(Files::isRegularFile).filter(p -> p.toString().endsWith(nameEnd)).toList()) {
                byte[] b = Files.readAllBytes(p);
                byte[] cut = Arrays.copyOf(b, Math.min(b.length, 200));
                for (int i = 64; i < cut.length; i++) {
                    cut[i] ^= (byte) 0x5a;
                }
                Files.write(p, cut);
            }
        }
    }

    @Test
    void corruptElfKallsymsAndPerfMapAreWarningsNotFailures() throws IOException {
        Path cache = copyCache();
        damage(cache.resolve("work"), "/elf");
        damage(cache.resolve("[kernel.kallsyms]"), "/kallsyms");
        Path maps = tmp.resolve("maps");
        Files.createDirectories(maps);
        Files.write(maps.resolve("perf-9690.map"), new byte[] {1, 2, 3, 'x', '\n', 0, 0, '\n'});
        for (String name : new String[] {"c-fp", "java"}) {
            CliFixtures.Run r = CliFixtures.run("report", "--stdio", "-i", Fixtures.recording(name).toString(),
                    "--buildid-dir", cache.toString(), "--no-system-files", "--perf-map-dir", maps.toString(),
                    "--no-children", "-g", "none");
            assertEquals(0, r.rc(), r.err());
            assertTrue(r.out().contains("# Samples:"), r.out());
            assertFalse(r.err().contains("\tat "), r.err());
            String[] lines = r.err().isBlank() ? new String[0] : r.err().strip().split("\n");
            assertEquals(lines.length, Arrays.stream(lines).distinct().count(), "one warning per file: " + r.err());
            if (name.equals("c-fp")) {
                assertTrue(r.out().contains("[.] 0x000000000000"), "raw addresses stand in for symbols: " + r.out());
                assertTrue(r.err().contains("/elf"), "the corrupt ELF is named: " + r.err());
            }
        }
    }
}
