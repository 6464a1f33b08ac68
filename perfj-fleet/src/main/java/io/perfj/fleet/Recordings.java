package io.perfj.fleet;

import io.perfj.perfdata.FeatureId;
import io.perfj.perfdata.PerfData;
import io.perfj.perfdata.feature.Feature;
import io.perfj.perfdata.feature.Features;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The recordings of a fleet directory: every regular file under it whose name ends in
 * {@code .data} or starts with {@code perf.data}, each with its host: the first directory
 * below the fleet directory that holds it ({@code DIR/HOST/...}), or for a file directly in
 * it, the recording's HOSTNAME feature.
 */
public final class Recordings {
    private Recordings() {
    }

    /** One recording and the host it came from. */
    public record Recording(Path file, String host) {
    }

    public static List<Recording> find(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException(dir + ": not a directory");
        }
        List<Recording> out = new ArrayList<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) files.sorted()::iterator) {
                String name = p.getFileName().toString();
                if (!Files.isRegularFile(p) || !(name.endsWith(".data") || name.startsWith("perf.data"))
                        || name.endsWith(".old") || inHiddenDir(dir, p)) {
                    continue;
                }
                Path rel = dir.relativize(p);
                String host = rel.getNameCount() > 1 ? rel.getName(0).toString() : recordedHost(p);
                out.add(new Recording(p, host));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** A build-id cache ({@code .build-id/}) below the fleet directory is no recording. */
    private static boolean inHiddenDir(Path dir, Path p) {
        for (Path part : dir.relativize(p)) {
            if (part.toString().startsWith(".")) {
                return true;
            }
        }
        return false;
    }

    /** The HOSTNAME feature of a recording, or "" when it has none. */
    static String recordedHost(Path file) {
        try (PerfData d = PerfData.open(file)) {
            var raw = d.features().get(FeatureId.HOSTNAME);
            if (raw != null && Features.decode(FeatureId.HOSTNAME, raw, d) instanceof Feature.Text t) {
                return t.value();
            }
            return "";
        }
    }

    /**
     * The build-id cache of one recording: a {@code perf archive} unpacked beside it (a
     * {@code .build-id} directory in the recording's directory), else the shared one (null:
     * perf's default).
     */
    static Path buildIdDir(Path file, Path shared) {
        Path dir = file.toAbsolutePath().getParent();
        return dir != null && Files.isDirectory(dir.resolve(".build-id")) ? dir : shared;
    }
}
