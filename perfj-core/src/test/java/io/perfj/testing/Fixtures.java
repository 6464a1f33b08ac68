package io.perfj.testing;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPInputStream;

/** Where the committed recordings and perf's golden outputs are. */
public final class Fixtures {
    private Fixtures() {
    }

    public static final List<String> RECORDINGS = List.of(
            "c-fp", "bpf-sys", "bpf-dwarf", "pipe", "zstd", "java", "two-events");
    public static final List<String> NAMES = RECORDINGS;

    public static Path dir() {
        String p = System.getProperty("perfj.fixtures");
        Path d = p != null ? Path.of(p) : Path.of("../fixtures");
        if (!Files.isDirectory(d)) {
            d = Path.of("fixtures");
        }
        return d.toAbsolutePath().normalize();
    }

    /** Same as {@link #recording(String)}. */
    public static Path data(String name) {
        return recording(name);
    }

    /** A file under {@code golden/}; skips the test when it is not there. */
    public static Path goldenFile(String file) {
        Path f = dir().resolve("golden").resolve(file);
        Assumptions.assumeTrue(Files.isRegularFile(f), "golden file " + f + " is not present");
        return f;
    }

    /** The recording {@code name}.data; skips the test when it is not there. */
    public static Path recording(String name) {
        Path f = dir().resolve(name + ".data");
        Assumptions.assumeTrue(Files.isRegularFile(f), "fixture " + f + " is absent");
        return f;
    }

    /** All recordings that are present. */
    public static List<Path> presentRecordings() {
        return RECORDINGS.stream().map(n -> dir().resolve(n + ".data")).filter(Files::isRegularFile).toList();
    }

    /** A golden text {@code golden/name.kind.txt} or {@code .txt.gz}; skips when absent. */
    public static String golden(String name, String kind) {
        Path plain = dir().resolve("golden").resolve(name + "." + kind + ".txt");
        Path gz = dir().resolve("golden").resolve(name + "." + kind + ".txt.gz");
        try {
            if (Files.isRegularFile(plain)) {
                return Files.readString(plain, StandardCharsets.UTF_8);
            }
            Assumptions.assumeTrue(Files.isRegularFile(gz), "golden " + plain + " is absent");
            try (InputStream in = new GZIPInputStream(Files.newInputStream(gz))) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
