package io.perfj.session;

import io.perfj.perfdata.record.KernelRecord;
import io.perfj.perfdata.record.PerfRecord;
import io.perfj.symbols.Location;
import io.perfj.util.KeyedTables;
import io.perfj.util.LongIntMap;

import java.util.Arrays;

/**
 * Where addresses resolved, per process and cpumode (kernel addresses shared by all processes),
 * until a record changes that address space ({@link #staleProcess}). Stacks repeat: a
 * recording's frames are mostly addresses seen before in the same process.
 */
public final class LocationCache {
    /** {@link #staleProcess}: every process's addresses. */
    public static final int ALL = Integer.MIN_VALUE;
    /** {@link #staleProcess}: nobody's. */
    public static final int NONE = Integer.MAX_VALUE;

    private final KeyedTables<Table> tables = new KeyedTables<>(Table::new);

    /** One address space's answers: address to a position in {@code found}. */
    private static final class Table {
        final LongIntMap at = new LongIntMap(256);
        Location[] found = new Location[256];
        int n;

        void clear() {
            at.clear();
            Arrays.fill(found, 0, n, null);
            n = 0;
        }
    }

    private Table table(int pid, int cpumode) {
        return tables.get(key(pid, cpumode));
    }

    /**
     * A (cpumode, process) key: the process in the low half (kernel addresses: -1, shared by
     * all), so that the keys of many processes spread over a hash table's buckets.
     */
    public static long key(int pid, int cpumode) {
        return ((long) cpumode << 32) | ((cpumode == 1 ? -1 : pid) & 0xffff_ffffL);
    }

    /** The location cached for the address, or null. */
    Location get(int pid, int cpumode, long ip) {
        Table t = table(pid, cpumode);
        int i = t.at.get(ip);
        return i < 0 ? null : t.found[i];
    }

    void put(int pid, int cpumode, long ip, Location loc) {
        Table t = table(pid, cpumode);
        if (t.n == t.found.length) {
            t.found = Arrays.copyOf(t.found, t.n * 2);
        }
        t.found[t.n] = loc;
        t.at.put(ip, t.n++);
    }

    /** Forgets what a record may change (see {@link #staleProcess}). */
    void record(PerfRecord r) {
        int pid = staleProcess(r);
        if (pid == NONE) {
            return;
        }
        // emptied, not dropped: the process's next samples refill the same tables
        if (pid == ALL) {
            tables.forEach(Table::clear);
        } else {
            tables.forEachOfLow(pid, Table::clear);
        }
    }

    /**
     * Whose resolved addresses a record makes stale: a pid for a record that changes that
     * process's maps or name (a FORK reusing a pid, an EXIT, a COMM, a user MMAP), {@link #ALL}
     * when the kernel's maps change (kernel MMAP, KSYMBOL, BPF_EVENT), else {@link #NONE}. A
     * system-wide recording has a record of this kind every few hundred samples, mostly for
     * short-lived processes: forgetting everything each time made most kernel addresses
     * resolve again. The rule of every cache of resolved frames.
     */
    public static int staleProcess(PerfRecord rec) {
        // instanceof, not a pattern switch: a type switch costs a class spun at its first run
        if (rec instanceof KernelRecord.Mmap2 m) {
            return kernelMaps(m.misc(), m.pid()) ? ALL : m.pid();
        } else if (rec instanceof KernelRecord.Mmap m) {
            return kernelMaps(m.misc(), m.pid()) ? ALL : m.pid();
        } else if (rec instanceof KernelRecord.Fork f) {
            return f.pid();
        } else if (rec instanceof KernelRecord.Exit e) {
            return e.pid();
        } else if (rec instanceof KernelRecord.Comm c) {
            return c.pid();
        } else if (rec instanceof KernelRecord.Ksymbol || rec instanceof KernelRecord.BpfEvent) {
            return ALL;
        }
        return NONE;
    }

    private static boolean kernelMaps(int misc, int pid) {
        int cpumode = misc & KernelRecord.MISC_CPUMODE_MASK;
        return pid == -1 || cpumode == 1 || cpumode == 4;
    }
}
