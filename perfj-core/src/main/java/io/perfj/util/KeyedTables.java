package io.perfj.util;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Tables looked up by a 64-bit key without boxing it (a {@link LongIntMap} from key to
 * position), the last one found remembered: caches kept per process and cpumode, asked for
 * the same key many times in a row. The tables of one low half of the key (callers keep a
 * process id there) are chained together, so that forgetting one process's tables does not
 * look at every other's: a system-wide recording has thousands of processes and a record that
 * changes one of them every few hundred samples.
 */
public final class KeyedTables<T> {
    private final LongIntMap index = new LongIntMap(64);
    private long[] keys = new long[64];
    /** The last table made for each low half of the key, and each table's predecessor in that chain (-1: none). */
    private final LongIntMap lastOfLow = new LongIntMap(64);
    private int[] previousOfLow = new int[64];
    private final List<T> tables = new ArrayList<>();
    private final Supplier<T> make;
    private long lastKey;
    private T last;

    public KeyedTables(Supplier<T> make) {
        this.make = make;
    }

    /** The table for {@code key}, made the first time. */
    public T get(long key) {
        if (key == lastKey && last != null) {
            return last;
        }
        int pos = index.get(key);
        if (pos < 0) {
            pos = tables.size();
            if (pos == keys.length) {
                keys = Arrays.copyOf(keys, pos * 2);
                previousOfLow = Arrays.copyOf(previousOfLow, pos * 2);
            }
            keys[pos] = key;
            long low = (int) key;
            previousOfLow[pos] = lastOfLow.get(low);
            lastOfLow.put(low, pos);
            tables.add(make.get());
            index.put(key, pos);
        }
        lastKey = key;
        last = tables.get(pos);
        return last;
    }

    /** Hands every table to {@code action}. */
    public void forEach(Consumer<T> action) {
        last = null;
        tables.forEach(action);
    }

    /** Hands every table whose key's low 32 bits are {@code low} to {@code action}. */
    public void forEachOfLow(int low, Consumer<T> action) {
        last = null;
        for (int i = lastOfLow.get(low); i >= 0; i = previousOfLow[i]) {
            action.accept(tables.get(i));
        }
    }
}
