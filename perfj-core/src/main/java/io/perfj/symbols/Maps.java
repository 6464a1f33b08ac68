package io.perfj.symbols;

import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.StampedLock;
import java.util.function.Consumer;

/**
 * An address space: perf's {@code struct maps} as it is since 2024, an array of maps ordered by
 * start address that is re-sorted lazily.
 *
 * <ul>
 * <li>{@link #insert} appends and remembers whether the order still holds (the new map starts
 * at or after the end of the last one), so maps inserted in address order never need sorting;</li>
 * <li>{@link #find} sorts, if needed, under the write lock and then binary-searches under the
 * read lock;</li>
 * <li>{@link #remove} shifts the later entries down;</li>
 * <li>{@link #fixupOverlapAndInsert} cuts the maps the new one overlaps, as
 * {@code maps__fixup_overlap_and_insert} does;</li>
 * <li>a by-name index over the DSO short names (kernel modules) is built on demand.</li>
 * </ul>
 *
 * All methods are thread-safe. Unsigned address comparisons throughout (kernel addresses are
 * negative as Java longs; an end of -1 means the top of the address space).
 */
public final class Maps {
    private static final Comparator<Map> BY_START = (a, b) -> {
        int c = Long.compareUnsigned(a.start(), b.start());
        if (c != 0) {
            return c;
        }
        return Long.compareUnsigned(a.end(), b.end());
    };
    // written out: Comparator.comparing/thenComparing spin classes at run time at every start
    private static final Comparator<Map> BY_NAME = (a, b) -> {
        int c = a.dso().shortName().compareTo(b.dso().shortName());
        return c != 0 ? c : BY_START.compare(a, b);
    };

    private final StampedLock lock = new StampedLock();
    private Map[] byAddress = new Map[0];
    private int n;
    private boolean sorted = true;
    private Map[] byName;
    private int sorts;

    public Maps() {
    }

    // ------------------------------------------------------------------ updates

    /** Appends a map ({@code maps__insert}); overlaps are kept as they are. */
    public void insert(Map map) {
        long w = lock.writeLock();
        try {
            insertLocked(map);
        } finally {
            lock.unlockWrite(w);
        }
    }

    private void insertLocked(Map map) {
        ensureCapacity(n + 1);
        byAddress[n++] = map;
        if (n == 1) {
            sorted = true;
        } else {
            sorted = sorted && Long.compareUnsigned(byAddress[n - 2].end(), map.start()) <= 0;
        }
        byName = null;
    }

    /** Removes this map (by identity), sliding the later ones down; false when it is not here. */
    public boolean remove(Map map) {
        long w = lock.writeLock();
        try {
            int i = indexOf(map);
            if (i < 0) {
                return false;
            }
            removeAt(i);
            return true;
        } finally {
            lock.unlockWrite(w);
        }
    }

    private void removeAt(int i) {
        System.arraycopy(byAddress, i + 1, byAddress, i, n - i - 1);
        byAddress[--n] = null;
        byName = null;
    }

    private int indexOf(Map map) {
        for (int i = 0; i < n; i++) {
            if (byAddress[i] == map) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Inserts {@code map}, first cutting what it overlaps ({@code maps__fixup_overlap_and_insert}):
     * a map that starts before it keeps its part before (same pgoff), a map that ends after it
     * keeps its part after (pgoff advanced by what was cut), a map it covers entirely goes.
     */
    public void fixupOverlapAndInsert(Map map) {
        long w = lock.writeLock();
        try {
            sortLocked();
            int i = firstEndingAfter(map.start());
            while (i < n) {
                Map pos = byAddress[i];
                if (Long.compareUnsigned(pos.start(), map.end()) >= 0) {
                    break; // ordered by start: nothing later overlaps
                }
                Map before = null;
                Map after = null;
                if (Long.compareUnsigned(map.start(), pos.start()) > 0) {
                    before = pos.copy();
                    before.setEnd(map.start());
                }
                if (Long.compareUnsigned(map.end(), pos.end()) < 0) {
                    after = pos.copy();
                    after.setStart(map.end());
                    after.setPgoff(pos.pgoff() + (map.end() - pos.start()));
                }
                if (before != null) {
                    byAddress[i] = before;
                    i++;
                    if (after != null) {
                        // map split pos in two: nothing later can overlap
                        insertSortedAt(i, map, after);
                        return;
                    }
                } else if (after != null) {
                    byAddress[i] = map;
                    insertSortedAt(i + 1, after, null);
                    return;
                } else {
                    Map next = i + 1 < n ? byAddress[i + 1] : null;
                    if (next == null || Long.compareUnsigned(next.start(), map.end()) >= 0) {
                        byAddress[i] = map;
                        byName = null;
                        return;
                    }
                    removeAt(i); // later maps moved down: same i
                }
            }
            insertSortedAt(i, map, null);
        } finally {
            lock.unlockWrite(w);
        }
    }

    /** First index whose map ends after addr (the kernel's find_vma); requires sorted order. */
    private int firstEndingAfter(long addr) {
        int lo = 0;
        int hi = n - 1;
        int first = n;
        if (n > 0 && Long.compareUnsigned(byAddress[0].end(), addr) > 0) {
            return 0;
        }
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            Map pos = byAddress[mid];
            if (Long.compareUnsigned(pos.end(), addr) > 0) {
                first = mid;
                if (Long.compareUnsigned(pos.start(), addr) <= 0) {
                    break;
                }
                hi = mid - 1;
            } else {
                lo = mid + 1;
            }
        }
        return first;
    }

    private void insertSortedAt(int at, Map a, Map b) {
        int add = b == null ? 1 : 2;
        ensureCapacity(n + add);
        System.arraycopy(byAddress, at, byAddress, at + add, n - at);
        byAddress[at] = a;
        if (b != null) {
            byAddress[at + 1] = b;
        }
        n += add;
        byName = null;
    }

    /**
     * Changes a map's boundaries or pgoff under the write lock; the array counts as unsorted
     * afterwards, so the next lookup sorts again. The map must be in these maps (or in none).
     */
    public void mutate(Map map, Consumer<Map.Editor> change) {
        long w = lock.writeLock();
        try {
            change.accept(map.editor());
            sorted = false;
            byName = null;
        } finally {
            lock.unlockWrite(w);
        }
    }

    /**
     * Makes these maps a copy of the parent's, every map cloned ({@code maps__copy_from}, a new
     * process at fork). Into an empty {@code Maps} the array and its sorted state are copied as
     * they are; otherwise each clone is inserted.
     */
    public void copyFrom(Maps parent) {
        if (parent == this) {
            return;
        }
        long w = lock.writeLock();
        try {
            long pr = parent.lock.readLock();
            try {
                if (n == 0) {
                    ensureCapacity(parent.n);
                    for (int i = 0; i < parent.n; i++) {
                        byAddress[i] = parent.byAddress[i].copy();
                    }
                    n = parent.n;
                    sorted = parent.sorted;
                    byName = null;
                } else {
                    for (int i = 0; i < parent.n; i++) {
                        insertLocked(parent.byAddress[i].copy());
                    }
                }
            } finally {
                parent.lock.unlockRead(pr);
            }
        } finally {
            lock.unlockWrite(w);
        }
    }

    /** Drops every map. */
    public void clear() {
        long w = lock.writeLock();
        try {
            Arrays.fill(byAddress, 0, n, null);
            n = 0;
            sorted = true;
            byName = null;
        } finally {
            lock.unlockWrite(w);
        }
    }

    // ------------------------------------------------------------------ lookups

    /** The map containing ip, or null ({@code maps__find}). */
    public Map find(long ip) {
        // An optimistic read first: no writer came in between, so the answer stands (what it
        // read may be torn otherwise, hence the bounds and null checks, and the answer is dropped).
        long stamp = lock.tryOptimisticRead();
        if (stamp != 0 && sorted) {
            Map[] arr = byAddress;
            Map m = search(arr, Math.min(n, arr.length), ip);
            if (lock.validate(stamp)) {
                return m;
            }
        }
        while (true) {
            long r = lock.readLock();
            try {
                if (sorted) {
                    return search(byAddress, n, ip);
                }
            } finally {
                lock.unlockRead(r);
            }
            sortByAddress();
        }
    }

    private static Map search(Map[] byAddress, int n, long ip) {
        int lo = 0;
        int hi = n - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            Map m = byAddress[mid];
            if (m == null) {
                return null; // torn optimistic read: not validated
            }
            if (Long.compareUnsigned(ip, m.start()) < 0) {
                hi = mid - 1;
            } else if (Long.compareUnsigned(ip, m.end()) >= 0) {
                lo = mid + 1;
            } else {
                return m;
            }
        }
        return null;
    }

    private void sortByAddress() {
        long w = lock.writeLock();
        try {
            sortLocked();
        } finally {
            lock.unlockWrite(w);
        }
    }

    private void sortLocked() {
        if (!sorted) {
            Arrays.sort(byAddress, 0, n, BY_START);
            sorted = true;
            sorts++;
        }
    }

    /** The first map whose DSO short name is {@code name} ({@code maps__find_by_name}), or null. */
    public Map findByName(String name) {
        while (true) {
            long r = lock.readLock();
            try {
                Map[] idx = byName;
                if (idx != null) {
                    int lo = 0;
                    int hi = idx.length - 1;
                    int found = -1;
                    while (lo <= hi) {
                        int mid = (lo + hi) >>> 1;
                        int c = idx[mid].dso().shortName().compareTo(name);
                        if (c < 0) {
                            lo = mid + 1;
                        } else {
                            if (c == 0) {
                                found = mid;
                            }
                            hi = mid - 1;
                        }
                    }
                    return found < 0 ? null : idx[found];
                }
            } finally {
                lock.unlockRead(r);
            }
            long w = lock.writeLock();
            try {
                if (byName == null) {
                    Map[] idx = Arrays.copyOf(byAddress, n);
                    Arrays.sort(idx, BY_NAME);
                    byName = idx;
                }
            } finally {
                lock.unlockWrite(w);
            }
        }
    }

    /** The maps in address order (a copy). */
    public List<Map> list() {
        sortByAddress();
        long r = lock.readLock();
        try {
            return List.of(Arrays.copyOf(byAddress, n));
        } finally {
            lock.unlockRead(r);
        }
    }

    public int size() {
        long r = lock.readLock();
        try {
            return n;
        } finally {
            lock.unlockRead(r);
        }
    }

    public boolean isEmpty() {
        return size() == 0;
    }

    /** Whether the array is in address order right now (for tests). */
    boolean isSorted() {
        long r = lock.readLock();
        try {
            return sorted;
        } finally {
            lock.unlockRead(r);
        }
    }

    /** How many times the array was sorted (for tests). */
    int sortCount() {
        long r = lock.readLock();
        try {
            return sorts;
        } finally {
            lock.unlockRead(r);
        }
    }

    /**
     * Loads the symbols of every map's DSO: the list is copied under the read lock and the
     * loading, which may read files, runs outside it.
     */
    public void loadAll() {
        Map[] copy;
        long r = lock.readLock();
        try {
            copy = Arrays.copyOf(byAddress, n);
        } finally {
            lock.unlockRead(r);
        }
        Set<Dso> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Map m : copy) {
            Dso d = m.dso();
            if (d != null && seen.add(d)) {
                d.symbols();
            }
        }
    }

    private void ensureCapacity(int want) {
        if (want > byAddress.length) {
            byAddress = Arrays.copyOf(byAddress, Math.max(want, byAddress.length == 0 ? 32 : byAddress.length * 2));
        }
    }

    @Override
    public String toString() {
        return "Maps" + list();
    }
}
