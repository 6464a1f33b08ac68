package io.perfj.symbols;

import io.perfj.elf.DebugLink;
import io.perfj.elf.ElfFile;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.zip.CRC32;

/**
 * Separate debug files named by an object's {@code .gnu_debuglink}, looked for where gdb and
 * perf look (perf's {@code DSO_BINARY_TYPE__DEBUGLINK}): the object's own directory, its
 * {@code .debug/} subdirectory, then the global debug directory ({@code /usr/lib/debug}) followed
 * by the object's directory. As gdb does, a file is used only when the CRC-32 of its contents is
 * the one the link records. Unlike perf, the bare name is not tried relative to the current
 * directory.
 */
public final class DebugLinks {
    private DebugLinks() {
    }

    /** CRC-32 of a file's contents, by path, size and modification time. */
    private record Stamp(Path path, long size, long modified) {
    }

    private static final ConcurrentHashMap<Stamp, Long> CRCS = new ConcurrentHashMap<>();

    /** The link of {@code binary}, when it is a readable ELF file that has one. */
    public static Optional<DebugLink> link(Path binary) {
        if (binary == null || !Files.isRegularFile(binary) || !ElfFile.isElf(binary)) {
            return Optional.empty();
        }
        try (ElfFile elf = ElfFile.open(binary)) {
            return elf.debugLink();
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * The places a debug file named {@code name} is looked for, in order (existence not checked):
     * beside {@code binary} (unless that is the binary itself), in {@code .debug/} beside it,
     * then {@code global.apply(DIR)}, where DIR is the binary's recorded directory.
     *
     * @param binary      the object as opened (under --symfs when given)
     * @param recordedDir the object's directory as recorded ({@code /usr/lib}), or null
     * @param global      the global debug directory's copy of a recorded directory (null: none)
     */
    public static List<Path> places(Path binary, String name, String recordedDir, Function<String, Path> global) {
        List<Path> out = new ArrayList<>();
        Path abs = binary.toAbsolutePath();
        Path dir = abs.getParent();
        if (dir == null || name.isEmpty() || name.contains("/")) {
            return out;
        }
        Path same = dir.resolve(name);
        if (!same.normalize().equals(abs.normalize())) {
            out.add(same);
        }
        out.add(dir.resolve(".debug").resolve(name));
        if (global != null && recordedDir != null && recordedDir.startsWith("/")) {
            out.add(global.apply(recordedDir).resolve(name));
        }
        return out;
    }

    /**
     * The debug files of {@code binary} that exist and whose CRC-32 is its link's, in the order
     * of {@link #places}; empty when it has no link.
     */
    public static List<Path> find(Path binary, String recordedDir, Function<String, Path> global) {
        Optional<DebugLink> link = link(binary);
        if (link.isEmpty()) {
            return List.of();
        }
        List<Path> out = new ArrayList<>();
        for (Path p : places(binary, link.get().fileName(), recordedDir, global)) {
            if (crcMatches(p, link.get().crc())) {
                out.add(p);
            }
        }
        return out;
    }

    /** Whether {@code file} is a regular file whose contents have the CRC-32 {@code crc}. */
    public static boolean crcMatches(Path file, long crc) {
        Long have = crc32(file);
        return have != null && have == (crc & 0xffffffffL);
    }

    /** The CRC-32 (the polynomial of zlib, gdb and the debuglink section) of a file; null if unreadable. */
    static Long crc32(Path file) {
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(file, BasicFileAttributes.class);
        } catch (IOException e) {
            return null;
        }
        if (!a.isRegularFile()) {
            return null;
        }
        Stamp key = new Stamp(file.toAbsolutePath().normalize(), a.size(), a.lastModifiedTime().toMillis());
        Long known = CRCS.get(key);
        if (known != null) {
            return known;
        }
        CRC32 crc = new CRC32();
        byte[] buf = new byte[1 << 16];
        try (InputStream in = Files.newInputStream(file)) {
            for (int n; (n = in.read(buf)) > 0; ) {
                crc.update(buf, 0, n);
            }
        } catch (IOException e) {
            return null;
        }
        CRCS.put(key, crc.getValue());
        return crc.getValue();
    }
}
