package io.perfj.symbols;

import java.nio.ByteBuffer;
import java.nio.file.Path;
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
 * <p>Where: {@link CacheFiles#directory()}; one file per kallsyms file under {@code kallsyms/},
 * named by a hash of its path.
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
        return forFile(file, CacheFiles.directory());
    }

    /** {@link #forFile(Path)} with the cache in {@code dir} (null: none). */
    static KallsymsCache forFile(Path file, Path dir) {
        if (dir == null) {
            return null;
        }
        Path abs = file.toAbsolutePath().normalize();
        if (abs.startsWith("/proc") || abs.startsWith("/sys")) {
            return forContent(abs, dir);
        }
        String key = CacheFiles.fileKey(abs);
        return key == null ? null : new KallsymsCache(CacheFiles.entry(dir, "kallsyms", abs.toString()), key, false);
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
        return new KallsymsCache(CacheFiles.entry(dir, "kallsyms", abs.toString()), abs + "\ncontent\n", true);
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

    /** The kept tables, or null when there is no usable entry for the file's bytes as read now. */
    Kallsyms.Tables load(byte[] data) {
        if (byContent) {
            keyOf(data);
        }
        ByteBuffer b = CacheFiles.read(entry, MAGIC, key);
        try {
            return b == null ? null : decode(b, data.length);
        } catch (RuntimeException e) {
            return null; // damaged or cut short: parse again (and overwrite it)
        }
    }

    private Kallsyms.Tables decode(ByteBuffer b, int fileSize) {
        long textStart = b.getLong();
        long textEnd = b.getLong();
        int bad = b.getInt();
        String warning = b.get() == 0 ? null : CacheFiles.string(b);
        int count = b.getInt();
        if (count < 1 || count > b.remaining()) {
            return null;
        }
        List<Kallsyms.Table> tables = new ArrayList<>(count);
        for (int t = 0; t < count; t++) {
            String module = CacheFiles.string(b);
            int n = b.getInt();
            if (n < 0 || (long) n * 26 > b.remaining()) {
                return null;
            }
            long[] starts = CacheFiles.longs(b, n);
            long[] ends = CacheFiles.longs(b, n);
            char[] bindings = CacheFiles.chars(b, n);
            int[] from = CacheFiles.ints(b, n);
            int[] to = CacheFiles.ints(b, n);
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

    /** Keeps the tables of {@code data} for the next run; a failure to write only means no entry. */
    void store(byte[] data, Kallsyms.Tables t) {
        if (byContent) {
            keyOf(data);
        }
        long size = 32 + (t.warning() == null ? 0 : CacheFiles.size(t.warning()));
        for (Kallsyms.Table x : t.tables()) {
            size += 4 + CacheFiles.size(x.module()) + 26L * x.starts().length;
        }
        ByteBuffer b = CacheFiles.start(MAGIC, key, size);
        if (b == null) {
            return;
        }
        b.putLong(t.textStart()).putLong(t.textEnd()).putInt(t.badLines());
        b.put((byte) (t.warning() == null ? 0 : 1));
        if (t.warning() != null) {
            CacheFiles.put(b, t.warning());
        }
        b.putInt(t.tables().size());
        for (Kallsyms.Table x : t.tables()) {
            CacheFiles.put(b, x.module());
            int n = x.starts().length;
            b.putInt(n);
            CacheFiles.putLongs(b, x.starts());
            CacheFiles.putLongs(b, x.ends());
            CacheFiles.putChars(b, x.bindings());
            CacheFiles.putInts(b, x.nameFrom());
            CacheFiles.putInts(b, x.nameTo());
        }
        CacheFiles.write(entry, b);
    }

    /** Where this file's entry is (tests). */
    Path entry() {
        return entry;
    }
}
