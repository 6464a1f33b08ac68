package io.perfj.symbols;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The vDSO of the kernel this process runs on. It is one image for every process of a kernel, so
 * this process's own copy (its {@code [vdso]} mapping in {@code /proc/self/maps}, read from
 * {@code /proc/self/mem}) is the one a recording made on this kernel sampled. perf reads a
 * {@code [vdso]} object's symbols from such a copy, written to a temporary file, whenever the
 * recording names no build-id for it or names this copy's (the build-id cache comes first).
 *
 * <p>Mirrors: {@code machine__findnew_vdso} and {@code get_file} (tools/perf/util/vdso.c).
 */
public final class RunningVdso {
    /** At most this large: the kernel's vDSO is a few pages. */
    private static final long MAX = 1 << 20;
    private static volatile Path file;
    private static volatile boolean tried;

    private RunningVdso() {
    }

    /** The {@code [vdso]} mapping of the process {@code proc} (a /proc/PID directory), or null. */
    public static byte[] image(Path proc) {
        try {
            for (String l : Files.readAllLines(proc.resolve("maps"))) {
                if (!l.endsWith(" [vdso]")) {
                    continue;
                }
                int dash = l.indexOf('-');
                int sp = l.indexOf(' ');
                long start = Long.parseUnsignedLong(l.substring(0, dash), 16);
                long end = Long.parseUnsignedLong(l.substring(dash + 1, sp), 16);
                if (end <= start || end - start > MAX) {
                    return null;
                }
                ByteBuffer b = ByteBuffer.allocate((int) (end - start));
                try (FileChannel ch = FileChannel.open(proc.resolve("mem"))) {
                    while (b.hasRemaining() && ch.read(b, start + b.position()) > 0) {
                        // the whole mapping
                    }
                }
                return b.hasRemaining() ? null : b.array();
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return null;
    }

    /**
     * This process's vDSO as a file (written once per JVM to a temporary file deleted at exit),
     * or null where it cannot be read.
     */
    public static Path file() {
        if (!tried) {
            synchronized (RunningVdso.class) {
                if (!tried) {
                    file = write(image(Path.of("/proc/self")));
                    tried = true;
                }
            }
        }
        return file;
    }

    private static Path write(byte[] image) {
        if (image == null) {
            return null;
        }
        try {
            Path f = Files.createTempFile("perfj-vdso", ".so");
            f.toFile().deleteOnExit();
            Files.write(f, image);
            return f;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
