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
import java.util.ArrayList;
import java.util.List;

/**
 * The parsed columns of a kallsyms file kept between runs, so that the next report, script or
 * annotate over the same file reads its tables instead of scanning 100k+ lines again (a tenth
 * of a short report's CPU time, and most of what stands between a short report and its first
 * kernel symbol). A regular file — a recording's copy in the build-id cache or one named with
 * {@code -k} — is known by its path, size, modification time and file key. A file under
 * {@code /proc} or {@code /sys} ({@code /proc/kallsyms} of the running kernel, whose size and
 * time say nothing) is known by its path and its content: its length and two checksums (CRC-32C
 * and CRC-32) of the bytes just read, so a module or BPF program loaded since the entry was made
 * means a parse. An entry is used only when its key is the file's and everything in it is
 * consistent with the file's size; anything else (missing, stale, cut short, damaged, unwritable
 * directory) means a parse, as without a cache.
 *
 * <p>Where: the directory named by the system property {@code perfj.cache} ({@code off}: no
 * cache), else {@code $XDG_CACHE_HOME/perfj}, else {@code ~/.cache/perfj}; one file per kallsyms
 * file under {@code kallsyms/}, named by a hash of its path.
 */
final class KallsymsCache {
    private static final long MAGIC = 0x3130_534b_4a46_5250L; // "PRFJKS01", little-endian
    private final Path entry;
    /** The whole key, or for a file known by its content the part before the checksums. */
    private final String keyPrefix;
    private final boolean byContent;
    private String key;

    private KallsymsCache(Path entry, String key, boolean byContent) {
        this.entry = entry;
        this.keyPrefix = key;
        this.byContent = byContent;
        this.key = byContent ? null : key;
    }

    /** The cache entry for a kallsyms file, or null when the file is not one to cache. */
    static KallsymsCache forFile(Path file) {
        return forFile(file, directory());
    }

    /** {@link #forFile(Path)} with the cache in {@code dir} (null: none). */
    static KallsymsCache forFile(Path file, Path dir) {
        try {
            if (dir == null) {
                return null;
            }
            Path abs = file.toAbsolutePath().normalize();
            if (abs.startsWith("/proc") || abs.startsWith("/sys")) {
                return forContent(abs, dir);
            }
            BasicFileAttributes a = Files.readAttributes(abs, BasicFileAttributes.class);
            if (!a.isRegularFile()) {
                return null;
            }
            String key = abs + "\n" + a.size() + "\n" + a.lastModifiedTime() + "\n" + a.fileKey();
            return new KallsymsCache(entryFor(abs, dir), key, false);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * The entry for a file known by its content, not by its attributes (what {@link
     * #forFile(Path, Path)} gives for {@code /proc} and {@code /sys}; tests use it on copies).
     */
    static KallsymsCache forContent(Path file, Path dir) {
        if (dir == null) {
            return null;
        }
        Path abs = file.toAbsolutePath().normalize();
        return new KallsymsCache(entryFor(abs, dir), abs + "\ncontent\n", true);
    }

    private static Path entryFor(Path abs, Path dir) {
        return dir.resolve("kallsyms").resolve(Long.toHexString(hash(abs.toString())) + ".bin");
    }

    /** The key of the bytes read, for a file known by its content. */
    private void keyOf(byte[] data) {
        if (key == null) {
            // intrinsics even before the JIT has compiled anything: about 1 ms for 5 MB
            java.util.zip.CRC32C c = new java.util.zip.CRC32C();
            c.update(data, 0, data.length);
            java.util.zip.CRC32 d = new java.util.zip.CRC32();
            d.update(data, 0, data.length);
            key = keyPrefix + data.length + " " + Long.toHexString(c.getValue()) + " " + Long.toHexString(d.getValue());
        }
    }

    private static Path directory() {
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

    /** 64-bit FNV-1a: a file name, not a security boundary (the entry holds the whole key). */
    private static long hash(String s) {
        long h = 0xcbf2_9ce4_8422_2325L;
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            h = (h ^ (b & 0xff)) * 0x100_0000_01b3L;
        }
        return h;
    }

    /** The kept tables, or null when there is no usable entry for the file's bytes as read now. */
    Kallsyms.Tables load(byte[] data) {
        if (byContent) {
            keyOf(data);
        }
        int fileSize = data.length;
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
            return decode(b, fileSize);
        } catch (IOException | RuntimeException e) {
            return null; // damaged or cut short: parse again (and overwrite it)
        }
    }

    private Kallsyms.Tables decode(ByteBuffer b, int fileSize) {
        if (b.getLong() != MAGIC || !key.equals(string(b))) {
            return null;
        }
        long textStart = b.getLong();
        long textEnd = b.getLong();
        int bad = b.getInt();
        String warning = b.get() == 0 ? null : string(b);
        int count = b.getInt();
        if (count < 1 || count > b.remaining()) {
            return null;
        }
        List<Kallsyms.Table> tables = new ArrayList<>(count);
        for (int t = 0; t < count; t++) {
            String module = string(b);
            int n = b.getInt();
            if (n < 0 || (long) n * 26 > b.remaining()) {
                return null;
            }
            long[] starts = new long[n];
            long[] ends = new long[n];
            char[] bindings = new char[n];
            int[] from = new int[n];
            int[] to = new int[n];
            b.asLongBuffer().get(starts);
            b.position(b.position() + 8 * n);
            b.asLongBuffer().get(ends);
            b.position(b.position() + 8 * n);
            b.asCharBuffer().get(bindings);
            b.position(b.position() + 2 * n);
            b.asIntBuffer().get(from);
            b.position(b.position() + 4 * n);
            b.asIntBuffer().get(to);
            b.position(b.position() + 4 * n);
            for (int i = 0; i < n; i++) {
                if (from[i] < 0 || from[i] > to[i] || to[i] > fileSize) {
                    return null;
                }
            }
            tables.add(new Kallsyms.Table(module, starts, ends, bindings, from, to));
        }
        if (b.hasRemaining() || !tables.getFirst().module().isEmpty()) {
            return null;
        }
        return new Kallsyms.Tables(textStart, textEnd, bad, warning, List.copyOf(tables));
    }

    private static String string(ByteBuffer b) {
        int n = b.getInt();
        if (n < 0 || n > b.remaining()) {
            throw new IllegalStateException("string length");
        }
        byte[] s = new byte[n];
        b.get(s);
        return new String(s, StandardCharsets.UTF_8);
    }

    /** Keeps the tables of {@code data} for the next run; a failure to write only means no entry. */
    void store(byte[] data, Kallsyms.Tables t) {
        if (byContent) {
            keyOf(data);
        }
        long size = 64 + key.length() * 3L + (t.warning() == null ? 0 : t.warning().length() * 3L);
        for (Kallsyms.Table x : t.tables()) {
            size += 8 + x.module().length() * 3L + 26L * x.starts().length;
        }
        if (size > Integer.MAX_VALUE - 8) {
            return;
        }
        ByteBuffer b = ByteBuffer.allocate((int) size).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(MAGIC);
        put(b, key);
        b.putLong(t.textStart()).putLong(t.textEnd()).putInt(t.badLines());
        b.put((byte) (t.warning() == null ? 0 : 1));
        if (t.warning() != null) {
            put(b, t.warning());
        }
        b.putInt(t.tables().size());
        for (Kallsyms.Table x : t.tables()) {
            put(b, x.module());
            int n = x.starts().length;
            b.putInt(n);
            b.asLongBuffer().put(x.starts());
            b.position(b.position() + 8 * n);
            b.asLongBuffer().put(x.ends());
            b.position(b.position() + 8 * n);
            b.asCharBuffer().put(x.bindings());
            b.position(b.position() + 2 * n);
            b.asIntBuffer().put(x.nameFrom());
            b.position(b.position() + 4 * n);
            b.asIntBuffer().put(x.nameTo());
            b.position(b.position() + 4 * n);
        }
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
            // readers see the old entry or the new one, never half of one
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

    private static void put(ByteBuffer b, String s) {
        byte[] x = s.getBytes(StandardCharsets.UTF_8);
        b.putInt(x.length).put(x);
    }

    /** Where this file's entry is (tests). */
    Path entry() {
        return entry;
    }
}
