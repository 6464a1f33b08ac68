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
 * {@code -k} — is known by its path, size, modification time and file key.
 *
 * <p>The running kernel's {@code /proc/kallsyms} is known without reading it: the kernel
 * formats that file as it is read, 40-70 ms of system time for 120k symbols, more than the rest
 * of a short report. What it lists changes only with the boot, the loaded modules and who may see
 * addresses, so its entry is keyed by the boot's id, the modules as {@code /proc/modules} lists
 * them (name, size, state, address, taint: not the use counts, which change while a module
 * stays), {@code kernel.kptr_restrict}, {@code kernel.perf_event_paranoid} and the reader's
 * user id, and holds the file's bytes as well as its tables (the names are read from them). The
 * lines it may hold that this key does not cover — BPF programs', ftrace's and kprobes'
 * trampolines, under pseudo-modules such as {@code [bpf]} — are ones perf drops (no module map
 * has their name). Where that key cannot be read, the file is known by its content: its length and
 * two checksums (CRC-32C and CRC-32) of the bytes just read, as any other file under {@code
 * /proc} or {@code /sys}. An entry is used only when its key is the file's and everything in it is
 * consistent with the file's size; anything else (missing, stale, cut short, damaged, unwritable
 * directory) means a parse, as without a cache.
 *
 * <p>Where: {@link CacheFiles#directory()}; one file per kallsyms file under {@code kallsyms/},
 * named by a hash of its path.
 */
final class KallsymsCache {
    private static final long MAGIC = 0x3130_534b_4a46_5250L; // "PRFJKS01", little-endian
    /** An entry that holds the file's bytes too (the running kernel's, known by its state). */
    private static final long MAGIC_WITH_BYTES = 0x3130_424b_4a46_5250L; // "PRFJKB01"
    private final Path entry;
    /** The whole key, or for a file known by its content the part before the checksums. */
    private final String keyPrefix;
    private final boolean byContent;
    /** Where the running kernel's state is read ({@code /proc}), for an entry known by it; else null. */
    private final Path proc;
    /** The kallsyms file, for an entry known by the running kernel's state. */
    private Path entryPath;
    private String key;

    private KallsymsCache(Path entry, String key, boolean byContent, Path proc) {
        this.entry = entry;
        this.keyPrefix = key;
        this.byContent = byContent;
        this.proc = proc;
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
        if (abs.equals(Path.of("/proc/kallsyms"))) {
            KallsymsCache c = forRunningKernel(abs, dir, Path.of("/proc"));
            if (c != null) {
                return c;
            }
        }
        if (abs.startsWith("/proc") || abs.startsWith("/sys")) {
            return forContent(abs, dir);
        }
        String key = CacheFiles.fileKey(abs);
        return key == null ? null : new KallsymsCache(CacheFiles.entry(dir, "kallsyms", abs.toString()), key, false, null);
    }

    /**
     * The entry for the running kernel's symbol file {@code file}, known by the state read under
     * {@code proc} (a {@code /proc}, or a test's copy of its files); null when that state cannot
     * be read or {@code dir} is null.
     */
    static KallsymsCache forRunningKernel(Path file, Path dir, Path proc) {
        if (dir == null) {
            return null;
        }
        String state = kernelState(proc);
        if (state == null) {
            return null;
        }
        Path abs = file.toAbsolutePath().normalize();
        KallsymsCache c = new KallsymsCache(CacheFiles.entry(dir, "kallsyms", abs.toString()), runningKey(abs, state), false, proc);
        c.entryPath = abs;
        return c;
    }

    private static String runningKey(Path file, String state) {
        return file + "\nrunning\n" + state;
    }

    /**
     * What decides the lines of the running kernel's kallsyms that perf keeps, read under {@code
     * proc}: the boot's id, the modules (each line's name, size, state, address and taint), and
     * what makes addresses visible to this reader; null when any of it cannot be read.
     */
    static String kernelState(Path proc) {
        try {
            StringBuilder k = new StringBuilder(4096);
            k.append(java.nio.file.Files.readString(proc.resolve("sys/kernel/random/boot_id")).strip()).append('\n');
            k.append("kptr_restrict ").append(java.nio.file.Files.readString(proc.resolve("sys/kernel/kptr_restrict")).strip());
            k.append(" perf_event_paranoid ")
                    .append(java.nio.file.Files.readString(proc.resolve("sys/kernel/perf_event_paranoid")).strip());
            String uid = null;
            for (String line : java.nio.file.Files.readAllLines(proc.resolve("self/status"))) {
                if (line.startsWith("Uid:")) {
                    uid = line.substring(4).strip();
                }
            }
            if (uid == null || k.isEmpty()) {
                return null;
            }
            k.append(" uid ").append(uid).append('\n');
            // "name size uses users state address [taint]": the use count and users change while
            // the module's symbols stay where they are
            java.util.List<String> modules;
            try {
                modules = java.nio.file.Files.readAllLines(proc.resolve("modules"));
            } catch (java.nio.file.NoSuchFileException e) {
                // a kernel built without loadable modules has no such file
                return k.append("no modules\n").toString();
            }
            for (String line : modules) {
                String[] f = line.trim().split("\\s+");
                if (f.length < 6) {
                    return null; // not the format this key understands
                }
                k.append(f[0]).append(' ').append(f[1]);
                for (int i = 4; i < f.length; i++) {
                    k.append(' ').append(f[i]);
                }
                k.append('\n');
            }
            return k.toString();
        } catch (java.io.IOException | RuntimeException e) {
            return null;
        }
    }

    /** Whether this entry is known by the running kernel's state (it holds the file's bytes). */
    boolean withBytes() {
        return proc != null;
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
        return new KallsymsCache(CacheFiles.entry(dir, "kallsyms", abs.toString()), abs + "\ncontent\n", true, null);
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
        if (proc != null) {
            return null; // its entry holds the bytes too: loadWithBytes
        }
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

    /**
     * For an entry {@linkplain #withBytes() with the file's bytes}: the symbols, without reading
     * the file; null when there is no usable entry for the kernel's state now.
     */
    Kallsyms loadWithBytes() {
        if (proc == null) {
            return null;
        }
        ByteBuffer b = CacheFiles.read(entry, MAGIC_WITH_BYTES, key);
        try {
            if (b == null) {
                return null;
            }
            int n = b.getInt();
            if (n < 0 || n > b.remaining()) {
                return null;
            }
            byte[] data = new byte[n];
            b.get(data);
            Kallsyms.Tables t = decode(b, n);
            return t == null ? null : t.kallsyms(data);
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
        if (proc != null && !key.equals(runningKey(entryPath, kernelState(proc)))) {
            return; // the kernel's state changed while the file was read: these bytes may be of either
        }
        long size = 32 + (proc == null ? 0 : 4L + data.length) + (t.warning() == null ? 0 : CacheFiles.size(t.warning()));
        for (Kallsyms.Table x : t.tables()) {
            size += 4 + CacheFiles.size(x.module()) + 26L * x.starts().length;
        }
        ByteBuffer b = CacheFiles.start(proc == null ? MAGIC : MAGIC_WITH_BYTES, key, size);
        if (b == null) {
            return;
        }
        if (proc != null) {
            b.putInt(data.length).put(data);
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
