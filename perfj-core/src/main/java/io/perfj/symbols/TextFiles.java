package io.perfj.symbols;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reading the small text files symbols come from (kallsyms, perf maps). */
final class TextFiles {
    private TextFiles() {
    }

    /** The whole file; a read failure names the file. */
    static byte[] read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException("failed to read " + file + ": " + e.getMessage(), e);
        }
    }
}
