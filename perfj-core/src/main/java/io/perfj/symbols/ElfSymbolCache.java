package io.perfj.symbols;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;

/**
 * What perfj learns from an ELF file kept between runs, so that the next report over the same
 * objects opens none of them: a short report spends more on parsing libc's and the program's
 * symbol tables (cold code, before the JIT has compiled it) than on its samples.
 *
 * <p>Two kinds of entry, under {@link CacheFiles#directory()}: {@code elf-facts/}, one per file,
 * its build-id and whether it has a {@code .symtab} (what {@link DsoFinder} asks of every
 * candidate file), and {@code elf-symbols/}, one per file symbols were read from, the finished
 * table as {@link ElfSymbols.Columns} (a flags byte per symbol: 1 demangled, 2 weak). A fact
 * entry is keyed by its file's path, size, modification time and file key ({@link CacheFiles#fileKey}); a symbol entry by those of the
 * file and of every other file the load may read (the runtime object a separate debug file
 * belongs to), so that replacing any of them means a parse; a file modified in the last two
 * seconds has no entry ({@link CacheFiles#fileKey}). A user object's entry holds its PLT entries'
 * names demangled: its key names the {@link Demangling}. Only perfj's own answers are kept:
 * {@code --compat perf-6.1}'s tree replay is not.
 */
final class ElfSymbolCache {
    private static final long FACTS = 0x3130_4645_4a46_5250L; // "PRFJEF01", little-endian
    private static final long SYMBOLS = 0x3330_5345_4a46_5250L; // "PRFJES03"

    private ElfSymbolCache() {
    }

    /** A file's build-id (null: none) and whether it has a {@code .symtab}. */
    record Facts(byte[] buildId, boolean hasSymtab) {
    }

    /** The kept facts of {@code file}, or null. */
    static Facts facts(Path dir, Path file) {
        String key = dir == null ? null : CacheFiles.fileKey(file);
        if (key == null) {
            return null;
        }
        ByteBuffer b = CacheFiles.read(factsEntry(dir, file), FACTS, key);
        try {
            if (b == null) {
                return null;
            }
            boolean symtab = b.get() != 0;
            int n = b.getInt();
            if (n < -1 || n > b.remaining()) {
                return null;
            }
            byte[] id = null;
            if (n >= 0) {
                id = new byte[n];
                b.get(id);
            }
            return b.hasRemaining() ? null : new Facts(id, symtab);
        } catch (RuntimeException e) {
            return null;
        }
    }

    static void storeFacts(Path dir, Path file, Facts f) {
        String key = dir == null ? null : CacheFiles.fileKey(file);
        if (key == null) {
            return;
        }
        int n = f.buildId() == null ? 0 : f.buildId().length;
        ByteBuffer b = CacheFiles.start(FACTS, key, 5 + n);
        if (b == null) {
            return;
        }
        b.put((byte) (f.hasSymtab() ? 1 : 0));
        b.putInt(f.buildId() == null ? -1 : n);
        if (f.buildId() != null) {
            b.put(f.buildId());
        }
        CacheFiles.write(factsEntry(dir, file), b);
    }

    /**
     * The key of a symbol load from {@code file} that may also read {@code others} (absent ones
     * count as absent), or null when {@code file} is not a regular file.
     */
    static String symbolsKey(String what, Path file, List<Path> others) {
        String k = CacheFiles.fileKey(file);
        if (k == null) {
            return null;
        }
        StringBuilder s = new StringBuilder(what).append('\n').append(k);
        for (Path o : others) {
            String x = CacheFiles.fileKey(o);
            if (x == null && java.nio.file.Files.exists(o)) {
                return null; // there, but not a settled regular file: no entry
            }
            s.append("\n+").append(x == null ? o.toAbsolutePath().normalize() + " absent" : x);
        }
        return s.toString();
    }

    /** The kept columns for a load with this key, or null. */
    static ElfSymbols.Columns symbols(Path dir, Path file, String key) {
        if (dir == null || key == null) {
            return null;
        }
        ByteBuffer b = CacheFiles.read(entryOf(dir, file), SYMBOLS, key);
        try {
            return b == null ? null : decode(b);
        } catch (RuntimeException e) {
            return null; // damaged or cut short: parse again (and overwrite it)
        }
    }

    private static Path factsEntry(Path dir, Path file) {
        return CacheFiles.entry(dir, "elf-facts", file.toAbsolutePath().normalize().toString());
    }

    private static Path entryOf(Path dir, Path file) {
        return CacheFiles.entry(dir, "elf-symbols", file.toAbsolutePath().normalize().toString());
    }

    private static ElfSymbols.Columns decode(ByteBuffer b) {
        int n = b.getInt();
        boolean innermost = b.get() != 0;
        if (n < 0 || (long) n * 23 > b.remaining()) {
            return null;
        }
        long[] start = CacheFiles.longs(b, n);
        long[] end = CacheFiles.longs(b, n);
        char[] binding = CacheFiles.chars(b, n);
        byte[] flags = new byte[n];
        b.get(flags);
        int[] nameAt = CacheFiles.ints(b, n);
        int len = b.getInt();
        if (len < 1 || len != b.remaining()) {
            return null;
        }
        byte[] names = new byte[len];
        b.get(names);
        if (names[0] != 0 || names[len - 1] != 0) {
            return null;
        }
        boolean[] demangle = new boolean[n];
        boolean[] weak = innermost ? new boolean[n] : null;
        for (int i = 0; i < n; i++) {
            if (nameAt[i] < 0 || nameAt[i] >= len || flags[i] > 3 || flags[i] < 0 || !innermost && flags[i] > 1
                    || i > 0 && Long.compareUnsigned(start[i - 1], start[i]) > 0) {
                return null;
            }
            demangle[i] = (flags[i] & 1) != 0;
            if (weak != null) {
                weak[i] = (flags[i] & 2) != 0;
            }
        }
        return new ElfSymbols.Columns(start, end, binding, innermost, weak, names, nameAt, demangle);
    }

    static void storeSymbols(Path dir, Path file, String key, ElfSymbols.Columns c) {
        if (dir == null || key == null) {
            return;
        }
        int n = c.start().length;
        ByteBuffer b = CacheFiles.start(SYMBOLS, key, 9 + 23L * n + c.names().length);
        if (b == null) {
            return;
        }
        b.putInt(n).put((byte) (c.innermost() ? 1 : 0));
        CacheFiles.putLongs(b, c.start());
        CacheFiles.putLongs(b, c.end());
        CacheFiles.putChars(b, c.binding());
        boolean[] d = c.demangle();
        boolean[] w = c.weak();
        for (int i = 0; i < n; i++) {
            b.put((byte) ((d[i] ? 1 : 0) | (w != null && w[i] ? 2 : 0)));
        }
        CacheFiles.putInts(b, c.nameAt());
        b.putInt(c.names().length).put(c.names());
        CacheFiles.write(entryOf(dir, file), b);
    }
}
