package io.perfj.symbols;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * The files perfj keeps for itself between runs ({@link KallsymsCache}, {@link ElfSymbolCache}):
 * where they live, how a source file is known, and how an entry is read and replaced.
 *
 * <p>Where: the directory named by the system property {@code perfj.cache} ({@code off}: no
 * cache), else {@code $XDG_CACHE_HOME/perfj}, else {@code ~/.cache/perfj}. An entry is one
 * little-endian file whose first bytes are a magic number and the whole key it was made for; it
 * is replaced atomically (readers see the old entry or the new one), and one that is missing,
 * stale, cut short or damaged reads as none: the caller parses, as without a cache.
 */
final class CacheFiles {
    private CacheFiles() {
    }

    /** The cache directory, or null for none. */
    static Path directory() {
        String p = System.getProperty("perfj.cache");
        if (p != null) {
            return p.equals("off") || p.isEmpty() ? null : Path.of(p);
        }
        String xdg = System.getenv("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isEmpty()) {
            return Path.of(xdg, "perfj");
        }
        String home = System.getProperty("user.home");
        return home == null || home.isEmpty() ? null : Path.of(home, ".cache", "perfj");
    }

    /**
     * A file modified this recently (or in the future) is not known by its attributes: a file
     * system's clock ticks in milliseconds, so two writes of the same size within one tick
     * would look alike (git's "racily clean" entries).
     */
    private static final long SETTLED_MILLIS = 2_000;

    /**
     * What identifies a regular file's content without reading it: its absolute path, size,
     * modification time and file key (device and inode); null when it is not a regular file or
     * was modified in the last two seconds.
     */
    static String fileKey(Path file) {
        try {
            Path abs = file.toAbsolutePath().normalize();
            BasicFileAttributes a = Files.readAttributes(abs, BasicFileAttributes.class);
            if (!a.isRegularFile() || System.currentTimeMillis() - a.lastModifiedTime().toMillis() < SETTLED_MILLIS) {
                return null;
            }
            return abs + "\n" + a.size() + "\n" + a.lastModifiedTime() + "\n" + a.fileKey();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** {@code dir/kind/HASH.bin}, HASH a 64-bit FNV-1a of {@code name}. */
    static Path entry(Path dir, String kind, String name) {
        long h = 0xcbf2_9ce4_8422_2325L;
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            h = (h ^ (b & 0xff)) * 0x100_0000_01b3L;
        }
        return dir.resolve(kind).resolve(Long.toHexString(h) + ".bin");
    }

    /**
     * The entry's bytes after its magic and key, positioned there, or null when there is no
     * entry for exactly this key.
     */
    static ByteBuffer read(Path entry, long magic, String key) {
        if (!Files.isRegularFile(entry, LinkOption.NOFOLLOW_LINKS)) {
            return null;
        }
        try (FileChannel ch = FileChannel.open(entry, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size > Integer.MAX_VALUE - 8) {
                return null;
            }
            ByteBuffer b = ByteBuffer.allocate((int) size).order(ByteOrder.LITTLE_ENDIAN);
            while (b.hasRemaining() && ch.read(b) >= 0) {
                // until full or the end
            }
            b.flip();
            if (b.remaining() < 12 || b.getLong() != magic || !key.equals(string(b))) {
                return null;
            }
            return b;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * {@link #read} without copying the entry: its mapping, positioned after the key, or null.
     * An entry is replaced by a rename, never written in place, so the mapped file does not
     * change under its reader.
     */
    static ByteBuffer map(Path entry, long magic, String key) {
        if (!Files.isRegularFile(entry, LinkOption.NOFOLLOW_LINKS)) {
            return null;
        }
        try (FileChannel ch = FileChannel.open(entry, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size > Integer.MAX_VALUE - 8 || size < 12) {
                return null;
            }
            // through a segment: FileChannel.map's buffer form makes its buffer by reflection,
            // whose first use spins method-handle classes (60-130 ms at start-up)
            ByteBuffer b = ch.map(FileChannel.MapMode.READ_ONLY, 0, size, java.lang.foreign.Arena.ofAuto()).asByteBuffer()
                    .order(ByteOrder.LITTLE_ENDIAN);
            if (b.getLong() != magic || !key.equals(string(b))) {
                return null;
            }
            return b;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** A buffer of {@code body} bytes after the magic and key, to fill and {@link #write}. */
    static ByteBuffer start(long magic, String key, long body) {
        byte[] k = key.getBytes(StandardCharsets.UTF_8);
        long size = 12 + k.length + body;
        if (size > Integer.MAX_VALUE - 8) {
            return null;
        }
        ByteBuffer b = ByteBuffer.allocate((int) size).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(magic);
        b.putInt(k.length).put(k);
        return b;
    }

    /** Replaces the entry with what was put in {@code b}; a failure only means no entry. */
    static void write(Path entry, ByteBuffer b) {
        b.flip();
        Path tmp = null;
        try {
            Files.createDirectories(entry.getParent());
            tmp = Files.createTempFile(entry.getParent(), entry.getFileName().toString(), ".tmp");
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                while (b.hasRemaining()) {
                    ch.write(b);
                }
            }
            Files.move(tmp, entry, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            tmp = null;
        } catch (IOException | RuntimeException e) {
            // no entry this time
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException e) {
                    // left for the next run's overwrite
                }
            }
        }
    }

    /** A length-prefixed UTF-8 string; throws on a length past the end (a damaged entry). */
    static String string(ByteBuffer b) {
        int n = b.getInt();
        if (n < 0 || n > b.remaining()) {
            throw new IllegalStateException("string length");
        }
        byte[] s = new byte[n];
        b.get(s);
        return new String(s, StandardCharsets.UTF_8);
    }

    static void put(ByteBuffer b, String s) {
        byte[] x = s.getBytes(StandardCharsets.UTF_8);
        b.putInt(x.length).put(x);
    }

    /** Bytes {@link #put(ByteBuffer, String)} takes for {@code s}, at most. */
    static long size(String s) {
        return 4 + 3L * s.length();
    }

    static void putLongs(ByteBuffer b, long[] x) {
        b.asLongBuffer().put(x);
        b.position(b.position() + 8 * x.length);
    }

    static void putChars(ByteBuffer b, char[] x) {
        b.asCharBuffer().put(x);
        b.position(b.position() + 2 * x.length);
    }

    static void putInts(ByteBuffer b, int[] x) {
        b.asIntBuffer().put(x);
        b.position(b.position() + 4 * x.length);
    }

    /** The next {@code n} longs (the caller has checked that they are there). */
    static long[] longs(ByteBuffer b, int n) {
        long[] x = new long[n];
        b.asLongBuffer().get(x);
        b.position(b.position() + 8 * n);
        return x;
    }

    static char[] chars(ByteBuffer b, int n) {
        char[] x = new char[n];
        b.asCharBuffer().get(x);
        b.position(b.position() + 2 * n);
        return x;
    }

    static int[] ints(ByteBuffer b, int n) {
        int[] x = new int[n];
        b.asIntBuffer().get(x);
        b.position(b.position() + 4 * n);
        return x;
    }
}
