package io.perfj.session;

import io.perfj.io.MissingLibraryException;
import io.perfj.testing.ChildJvm;
import io.perfj.testing.Fixtures;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * perfj-core without zstd-jni (an embedder who left out the optional dependency): a compressed
 * recording must fail with a {@link MissingLibraryException} naming the file and the library,
 * both when its records are iterated and when a session reads it (where the records are decoded
 * on a second thread) — not a {@link NoClassDefFoundError}, and not an empty result.
 */
class MissingZstdTest {
    @Test
    void compressedRecordingWithoutZstdJniIsATypedError() {
        Path file = Fixtures.recording("zstd");
        String full = System.getProperty("java.class.path");
        String without = Arrays.stream(full.split(File.pathSeparator))
                .filter(e -> !e.contains("zstd-jni"))
                .collect(Collectors.joining(File.pathSeparator));
        assertFalse(without.equals(full), "the test class path has no zstd-jni entry to leave out: " + full);
        ChildJvm.Result r = ChildJvm.run(List.of(), without, WithoutZstdMain.class, 120, file.toString());
        assertEquals(0, r.exit(), r.output());
        List<String> lines = r.output().lines().toList();
        assertEquals("zstd-jni absent", lines.get(0), r.output());
        String expected = MissingLibraryException.class.getName() + ": " + file
                + ": zstd-compressed records need " + MissingLibraryException.ZSTD_JNI;
        for (String way : List.of("records: ", "samples: ")) {
            String line = lines.stream().filter(l -> l.startsWith(way)).findFirst().orElse(way + "(no line)");
            assertTrue(line.startsWith(way + expected), line + "\n---\n" + r.output());
        }
    }

    @Test
    void theSameRecordingReadsWithZstdJni() {
        Path file = Fixtures.recording("zstd");
        ChildJvm.Result r = ChildJvm.run(List.of(), WithoutZstdMain.class, 120, file.toString());
        assertEquals(0, r.exit(), r.output());
        assertTrue(r.output().startsWith("zstd-jni present\nrecords: "), r.output());
        assertFalse(r.output().contains("Exception"), r.output());
        assertFalse(r.output().contains("samples: 0\n"), r.output());
    }
}
