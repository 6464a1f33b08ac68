package io.perfj.symbols;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The parsed columns of a kallsyms file kept between runs, so that the next report, script or
 * annotate over the same file reads its tables instead of scanning 100k+ lines again (a tenth
 * of a short report's CPU time, and most of what stands between a short report and its first
 * kernel symbol). An entry holds the tables' columns and the kept symbols' names, so that a file
 * known without reading it is not read at all; it is mapped, and only the columns are copied
 * out (the few hundred names a report meets are read from the mapping). A regular file — a
 * recording's copy in the build-id cache or one named with {@code -k} — is known by its path,
 * size, modification time and file key.
 *
 * <p>The running kernel's {@code /proc/kallsyms} is known without reading it: the kernel
 * formats that file as it is read, 40-70 ms of system time for 120k symbols, more than the rest
 * of a short report. What it lists changes only with the boot, the loaded modules and who may see
 * addresses, so its entry is keyed by the boot's id, the modules as {@code /proc/modules} lists
 * them (name, size, state, address, taint: not the use counts, which change while a module
 * stays), {@code kernel.kptr_restrict}, {@code kernel.perf_event_paranoid} and the reader's
 * user id. The
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
    private static final long MAGIC = 0x3230_534b_4a46_5250L; // "PRFJKS02", little-endian
    private final Path entry;
    /** The whole key, or for a file known by its content the part before the checksums. */
    private final String keyPrefix;
    private final boolean byContent;
    /** For the running kernel's file: where its state is read ({@code /proc}) and the file; else null. */
    private final Path proc;
    private final Path file;
    private String key;

    private KallsymsCache(Path entry, String key, boolean byContent, Path proc, Path file) {
        this.entry = entry;
        this.keyPrefix = key;
        this.byContent = byContent;
        this.proc = proc;
        this.file = file;
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
        return key == null ? null : new KallsymsCache(CacheFiles.entry(dir, "kallsyms", abs.toString()), key, false, null, abs);
    }

    /**
     * What identifies a kallsyms file's tables without reading it, as {@link #forFile} keys its
     * entry (the running kernel's {@code /proc/kallsyms} by the kernel's state, a regular file by
     * its attributes), or null when only its content could tell (other files under {@code /proc}
     * and {@code /sys}, a file being written).
     */
    static String identity(Path file) {
        Path abs = file.toAbsolutePath().normalize();
        if (abs.equals(Path.of("/proc/kallsyms"))) {
            String state = kernelState(Path.of("/proc"));
            return state == null ? null : runningKey(abs, state);
        }
        if (abs.startsWith("/proc") || abs.startsWith("/sys")) {
            return null;
        }
        return CacheFiles.fileKey(abs);
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
        return new KallsymsCache(CacheFiles.entry(dir, "kallsyms", abs.toString()), runningKey(abs, state), false, proc, abs);
    }

    private static String runningKey(Path file, String state) {
        return file + "\nrunning\n" + state;
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
        return new KallsymsCache(CacheFiles.entry(dir, "kallsyms", abs.toString()), abs + "\ncontent\n", true, null, abs);
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

    /** Whether the file must be read before its entry can be looked up (it is known by its content). */
    boolean needsBytes() {
        return byContent;
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

    /**
     * The symbols kept for the file, or null when there is no usable entry for it now; {@code
     * data} is the file's bytes as just read for an entry {@linkplain #needsBytes() known by its
     * content}, else ignored (may be null).
     */
    Kallsyms load(byte[] data) {
        if (byContent) {
            keyOf(data);
        }
        ByteBuffer b = CacheFiles.map(entry, MAGIC, key);
        try {
            return b == null ? null : decode(b);
        } catch (RuntimeException e) {
            return null; // damaged or cut short: parse again (and overwrite it)
        }
    }

    private Kallsyms decode(ByteBuffer b) {
        // the whole body's checksum, not a check of each value: one intrinsic pass over the
        // mapping instead of loops over 100k+ columns' values before the JIT has compiled them
        int sum = b.getInt();
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(b.slice());
        if ((int) crc.getValue() != sum) {
            return null;
        }
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
            tables.add(new Kallsyms.Table(module, CacheFiles.longs(b, n), CacheFiles.longs(b, n), CacheFiles.chars(b, n),
                    CacheFiles.ints(b, n), CacheFiles.ints(b, n)));
        }
        int size = b.getInt();
        if (size != b.remaining() || !tables.getFirst().module().isEmpty()) {
            return null;
        }
        ByteBuffer names = b.slice().order(ByteOrder.LITTLE_ENDIAN);
        return new Kallsyms.Tables(textStart, textEnd, bad, warning, List.copyOf(tables)).kallsyms(Kallsyms.names(names));
    }

    /**
     * Keeps the tables of {@code data} for the next run, with the names of their symbols (from
     * {@code data}); a failure to write only means no entry.
     */
    void store(byte[] data, Kallsyms.Tables t) {
        if (byContent) {
            keyOf(data);
        }
        if (proc != null && !key.equals(runningKey(file, kernelState(proc)))) {
            return; // the kernel's state changed while the file was read: these bytes may be of either
        }
        long size = 40 + (t.warning() == null ? 0 : CacheFiles.size(t.warning()));
        long names = 0;
        for (Kallsyms.Table x : t.tables()) {
            size += 4 + CacheFiles.size(x.module()) + 26L * x.starts().length;
            for (int i = 0; i < x.nameFrom().length; i++) {
                names += x.nameTo()[i] - x.nameFrom()[i];
            }
        }
        if (size + names > Integer.MAX_VALUE - 1024) {
            return;
        }
        ByteBuffer b = CacheFiles.start(MAGIC, key, size + names);
        if (b == null) {
            return;
        }
        int sumAt = b.position();
        b.putInt(0); // the checksum of what follows, filled in below
        b.putLong(t.textStart()).putLong(t.textEnd()).putInt(t.badLines());
        b.put((byte) (t.warning() == null ? 0 : 1));
        if (t.warning() != null) {
            CacheFiles.put(b, t.warning());
        }
        b.putInt(t.tables().size());
        // each name's place in the names that follow the tables
        byte[] blob = new byte[(int) names];
        int fill = 0;
        for (Kallsyms.Table x : t.tables()) {
            CacheFiles.put(b, x.module());
            int n = x.starts().length;
            int[] from = new int[n];
            int[] to = new int[n];
            for (int i = 0; i < n; i++) {
                int len = x.nameTo()[i] - x.nameFrom()[i];
                System.arraycopy(data, x.nameFrom()[i], blob, fill, len);
                from[i] = fill;
                fill += len;
                to[i] = fill;
            }
            b.putInt(n);
            CacheFiles.putLongs(b, x.starts());
            CacheFiles.putLongs(b, x.ends());
            CacheFiles.putChars(b, x.bindings());
            CacheFiles.putInts(b, from);
            CacheFiles.putInts(b, to);
        }
        b.putInt(blob.length).put(blob);
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(b.array(), sumAt + 4, b.position() - sumAt - 4);
        b.putInt(sumAt, (int) crc.getValue());
        CacheFiles.write(entry, b);
    }

    /** Where this file's entry is (tests). */
    Path entry() {
        return entry;
    }
}
