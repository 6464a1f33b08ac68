package io.perfj.testing;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The committed perf build-id cache ({@code fixtures/archive/buildid-cache.tar.xz}), unpacked once
 * per build into {@code target/buildid-cache}.
 */
public final class BuildIdCacheFixture {
    private static Path dir;

    private BuildIdCacheFixture() {
    }

    /** The unpacked cache; skips the test when the archive or tar is not available. */
    public static synchronized Path dir() {
        if (dir != null) {
            return dir;
        }
        Path archive = Fixtures.dir().resolve("archive/buildid-cache.tar.xz");
        Assumptions.assumeTrue(Files.isRegularFile(archive), "no " + archive);
        Path target = Path.of("target", "buildid-cache").toAbsolutePath();
        Path marker = target.resolve(".unpacked");
        try {
            if (!Files.exists(marker)) {
                Files.createDirectories(target);
                Process p = new ProcessBuilder("tar", "-xJf", archive.toString(), "-C", target.toString())
                        .redirectErrorStream(true).start();
                String out = new String(p.getInputStream().readAllBytes());
                int rc = p.waitFor();
                Assumptions.assumeTrue(rc == 0, "tar failed: " + out);
                Files.writeString(marker, "ok\n");
            }
        } catch (IOException e) {
            Assumptions.abort("cannot unpack the build-id cache: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        dir = target;
        return dir;
    }

    /** {@code <cache>/<path>/<buildid>/<member>} for the one build-id directory under the path. */
    public static Optional<Path> member(String dsoPath, String member) {
        Path d = dir().resolve(dsoPath.startsWith("/") ? dsoPath.substring(1) : dsoPath);
        if (!Files.isDirectory(d)) {
            return Optional.empty();
        }
        try (Stream<Path> s = Files.list(d)) {
            List<Path> ids = s.filter(Files::isDirectory).toList();
            if (ids.size() != 1) {
                return Optional.empty();
            }
            Path f = ids.getFirst().resolve(member);
            return Files.isRegularFile(f) ? Optional.of(f) : Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
