package io.perfj.testing;

import org.junit.jupiter.api.Assertions;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPInputStream;

/**
 * The repository's committed fixtures ({@code fixtures/}: recordings, perf's golden outputs, BTF
 * objects, build-id caches), for the tests of every module. Everything here is committed, so a
 * file that is missing fails the test that asks for it: it never turns into a skip.
 */
public final class Fixtures {
    private Fixtures() {
    }

    /** The committed recordings that the all-recordings tests walk. */
    public static final List<String> RECORDINGS = List.of(
            "c-fp", "bpf-sys", "bpf-dwarf", "pipe", "zstd", "java", "two-events");

    private static Path dir;

    /**
     * The {@code fixtures} directory: the one Maven names in {@code perfj.fixtures}, else the first
     * found going up from the working directory (a test run from an IDE).
     */
    public static synchronized Path dir() {
        if (dir == null) {
            dir = find();
        }
        return dir;
    }

    private static Path find() {
        String p = System.getProperty("perfj.fixtures");
        if (p != null && Files.isRegularFile(Path.of(p, "README.md"))) {
            return Path.of(p).toAbsolutePath().normalize();
        }
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            if (Files.isRegularFile(d.resolve("fixtures").resolve("README.md"))) {
                return d.resolve("fixtures").normalize();
            }
        }
        return Assertions.fail("no fixtures/ directory (with its README.md) at " + p + " or above "
                + Path.of("").toAbsolutePath());
    }

    /** A committed file or directory, by its path under {@code fixtures/}; fails when it is missing. */
    public static Path file(String relative) {
        return require(dir().resolve(relative));
    }

    /** {@code f}, a path into the fixtures that a test computed; fails when it is missing. */
    public static Path require(Path f) {
        if (!Files.exists(f)) {
            Assertions.fail("committed fixture " + f + " is missing");
        }
        return f;
    }

    /** The recording {@code fixtures/NAME.data}. */
    public static Path recording(String name) {
        return file(name + ".data");
    }

    /** A file under {@code fixtures/golden/}. */
    public static Path goldenFile(String file) {
        return file("golden/" + file);
    }

    /** Every recording of {@link #RECORDINGS}. */
    public static List<Path> recordings() {
        return RECORDINGS.stream().map(Fixtures::recording).toList();
    }

    /** The golden text {@code golden/NAME.KIND.txt}, or its {@code .txt.gz}. */
    public static String golden(String name, String kind) {
        Path plain = dir().resolve("golden").resolve(name + "." + kind + ".txt");
        try {
            if (Files.isRegularFile(plain)) {
                return Files.readString(plain, StandardCharsets.UTF_8);
            }
            Path gz = goldenFile(name + "." + kind + ".txt.gz");
            try (InputStream in = new GZIPInputStream(Files.newInputStream(gz))) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The bytes of a committed file, gunzipped when its name ends in {@code .gz}. */
    public static byte[] bytes(String relative) {
        Path f = file(relative);
        try {
            if (relative.endsWith(".gz")) {
                try (InputStream in = new GZIPInputStream(Files.newInputStream(f))) {
                    return in.readAllBytes();
                }
            }
            return Files.readAllBytes(f);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
