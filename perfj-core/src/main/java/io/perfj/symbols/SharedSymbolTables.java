package io.perfj.symbols;

import java.io.IOException;
import java.util.Iterator;
import java.util.LinkedHashMap;

/**
 * The symbol tables of this JVM's sessions, shared: a table is immutable once loaded, so the
 * sessions of one process (a fleet executor's thousand small recordings, a server's files) load
 * the kernel's and each library's table once instead of once per recording. {@link DsoFinder}
 * asks here for every table it loads, under the key its {@link SymbolLoader} gives for the load
 * ({@link SymbolLoader#elfKey}, {@link SymbolLoader#kallsymsKey}): the file's identity (path,
 * size, modification time, file key; for the running kernel's {@code /proc/kallsyms}, the
 * kernel's state as {@link KallsymsCache} knows it) and whatever else the load reads or depends
 * on. A load without a key (a loader that gives none, a file modified in the last seconds, a
 * file under {@code /proc} known only by its content) is not shared.
 *
 * <p>Bounded: the tables held add up to at most {@code perfj.shared-symbols} symbols (system
 * property; default 4,000,000, about 90 MB of columns; 0 turns sharing off); past that the least
 * recently asked are dropped (sessions using them keep their reference). Thread-safe: one load
 * per key at a time, the others wait for it; a load that throws is not kept.
 */
public final class SharedSymbolTables {
    /** A table load that may fail (a {@link SymbolLoader} call). */
    @FunctionalInterface
    public interface Load {
        SymbolTable load() throws IOException;
    }

    private static final SharedSymbolTables PROCESS = new SharedSymbolTables(limit());

    private static long limit() {
        try {
            return Long.parseLong(System.getProperty("perfj.shared-symbols", "4000000").trim());
        } catch (NumberFormatException e) {
            return 4_000_000;
        }
    }

    /** The tables of this JVM. */
    public static SharedSymbolTables process() {
        return PROCESS;
    }

    private static final class Entry {
        volatile SymbolTable table;
    }

    private final long maxSymbols;
    private final LinkedHashMap<String, Entry> entries = new LinkedHashMap<>(64, 0.75f, true);
    private long held;
    private long hits;
    private long loads;

    /** A cache of its own holding at most {@code maxSymbols} symbols (tests). */
    public SharedSymbolTables(long maxSymbols) {
        this.maxSymbols = maxSymbols;
    }

    /** The table kept under {@code key}, else {@code load}'s (kept under it); {@code key} null: not shared. */
    public SymbolTable get(String key, Load load) throws IOException {
        if (key == null || maxSymbols <= 0) {
            return load.load();
        }
        Entry e;
        synchronized (this) {
            e = entries.computeIfAbsent(key, k -> new Entry());
        }
        SymbolTable t = e.table;
        if (t != null) {
            hit();
            return t;
        }
        synchronized (e) {
            t = e.table;
            if (t != null) {
                hit();
                return t;
            }
            try {
                t = load.load();
            } catch (IOException | RuntimeException | Error x) {
                synchronized (this) {
                    entries.remove(key, e);
                }
                throw x;
            }
            if (t == null) {
                t = SymbolTable.EMPTY;
            }
            e.table = t;
            synchronized (this) {
                loads++;
                if (entries.get(key) == e) {
                    held += t.size();
                    trim();
                }
            }
            return t;
        }
    }

    private synchronized void hit() {
        hits++;
    }

    /** Drops the least recently asked loaded tables while more than the bound is held. */
    private void trim() {
        for (Iterator<Entry> it = entries.values().iterator(); it.hasNext() && held > maxSymbols; ) {
            Entry e = it.next();
            SymbolTable t = e.table;
            if (t != null) {
                held -= t.size();
                it.remove();
            }
        }
    }

    /** How many symbols the kept tables hold. */
    public synchronized long heldSymbols() {
        return held;
    }

    /** How many tables are kept (or loading). */
    public synchronized int size() {
        return entries.size();
    }

    /** Lookups answered by a kept table. */
    public synchronized long hits() {
        return hits;
    }

    /** Tables loaded and kept. */
    public synchronized long loads() {
        return loads;
    }

    /** Forgets every table (tests, or a server whose files changed in place). */
    public synchronized void clear() {
        entries.clear();
        held = 0;
    }
}
