package io.perfj.symbols;

import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** The fixtures' build-id cache, unpacked once per build under target/ (libjvm's 30 MB elf left out). */
final class BuildIdCacheFixture {
    private static Path dir;

    private BuildIdCacheFixture() {
    }

    static synchronized Path dir() {
        if (dir != null) {
            return dir;
        }
        Path tar = Fixtures.dir().resolve("archive/buildid-cache.tar.xz");
        Assumptions.assumeTrue(Files.isRegularFile(tar), "no build-id cache archive");
        Path out = Path.of("target", "buildid-cache").toAbsolutePath();
        Path done = out.resolve(".unpacked");
        try {
            if (!Files.exists(done)) {
                Files.createDirectories(out);
                Process p = new ProcessBuilder("tar", "xJf", tar.toString(), "-C", out.toString(),
                        "--exclude=usr/lib/jvm/temurin-25-jdk-amd64/lib/server/libjvm.so/*/elf")
                        .redirectErrorStream(true).start();
                String log = new String(p.getInputStream().readAllBytes());
                Assumptions.assumeTrue(p.waitFor(120, TimeUnit.SECONDS) && p.exitValue() == 0, "tar failed: " + log);
                Files.createFile(done);
            }
        } catch (IOException e) {
            Assumptions.abort("cannot unpack the build-id cache: " + e);
        } catch (InterruptedException e) {
            java.lang.Thread.currentThread().interrupt();
            Assumptions.abort("interrupted");
        }
        dir = out;
        return dir;
    }
}
