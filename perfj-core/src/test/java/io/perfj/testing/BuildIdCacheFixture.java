package io.perfj.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The committed perf build-id caches ({@code fixtures/archive/*.tar.xz}, made by {@code perf
 * archive}), each unpacked once per build into the module's {@code target/} by {@link TarXz}.
 */
public final class BuildIdCacheFixture {
    private static final Map<String, Path> UNPACKED = new HashMap<>();

    private BuildIdCacheFixture() {
    }

    /** The build-id cache of the main recordings ({@code archive/buildid-cache.tar.xz}). */
    public static Path dir() {
        return unpacked("buildid-cache");
    }

    /**
     * {@code fixtures/archive/NAME.tar.xz} unpacked into {@code target/NAME}; unpacked again when
     * the archive changed since. A missing archive fails the test.
     */
    public static synchronized Path unpacked(String name) {
        Path d = UNPACKED.get(name);
        if (d != null) {
            return d;
        }
        Path archive = Fixtures.file("archive/" + name + ".tar.xz");
        Path target = Path.of("target", name).toAbsolutePath();
        Path marker = target.resolve(".unpacked");
        try {
            String stamp = Files.size(archive) + " " + Files.getLastModifiedTime(archive).toMillis() + "\n";
            if (!Files.isRegularFile(marker) || !Files.readString(marker).equals(stamp)) {
                delete(target);
                TarXz.unpack(archive, target);
                Files.writeString(marker, stamp);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot unpack " + archive + ": " + e.getMessage(), e);
        }
        UNPACKED.put(name, target);
        return target;
    }

    private static void delete(Path d) throws IOException {
        if (!Files.exists(d)) {
            return;
        }
        try (Stream<Path> s = Files.walk(d)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    /**
     * The {@code member} ({@code elf}, {@code debug}) of the one object in the cache whose file
     * name is {@code name} (e.g. {@code libc.so.6}), wherever the recording machine had it; fails
     * when there is not exactly one.
     */
    public static Path object(String name, String member) {
        try (Stream<Path> s = Files.walk(dir())) {
            List<Path> found = s.filter(p -> p.getFileName().toString().equals(member) && p.getParent() != null
                            && p.getParent().getParent() != null
                            && p.getParent().getParent().getFileName().toString().equals(name)
                            && Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS))
                    .toList();
            if (found.size() != 1) {
                org.junit.jupiter.api.Assertions.fail("the committed build-id cache has " + found.size() + " "
                        + name + "/*/" + member + ", expected one");
            }
            return found.getFirst();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
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
