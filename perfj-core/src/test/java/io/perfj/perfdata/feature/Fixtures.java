package io.perfj.perfdata.feature;

import org.junit.jupiter.api.Assumptions;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Locates the recorded fixtures (system property perfj.fixtures); tests skip when one is absent. */
public final class Fixtures {
    private Fixtures() {
    }

    public static final List<String> NAMES = List.of(
            "c-fp", "bpf-sys", "bpf-dwarf", "pipe", "zstd", "java", "two-events");

    public static Path dir() {
        String p = System.getProperty("perfj.fixtures", "fixtures");
        return Path.of(p);
    }

    /** The fixture's recording, or a skipped test when it is not there. */
    public static Path data(String name) {
        Path f = dir().resolve(name + ".data");
        Assumptions.assumeTrue(Files.isRegularFile(f), "fixture " + f + " is not present");
        return f;
    }

    public static Path golden(String file) {
        Path f = dir().resolve("golden").resolve(file);
        Assumptions.assumeTrue(Files.isRegularFile(f), "golden file " + f + " is not present");
        return f;
    }
}
