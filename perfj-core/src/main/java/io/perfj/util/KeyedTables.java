package io.perfj.util;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongPredicate;
import java.util.function.Supplier;

/**
 * Tables looked up by a 64-bit key without boxing it (a {@link LongIntMap} from key to
 * position), the last one found remembered: caches kept per process and cpumode, asked for
 * the same key many times in a row.
 */
public final class KeyedTables<T> {
    private final LongIntMap index = new LongIntMap(64);
    private long[] keys = new long[64];
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
            }
            keys[pos] = key;
            tables.add(make.get());
            index.put(key, pos);
        }
        lastKey = key;
        last = tables.get(pos);
        return last;
    }

    /** Hands every table whose key passes {@code which} to {@code action}. */
    public void forEach(LongPredicate which, Consumer<T> action) {
        last = null;
        for (int i = 0; i < tables.size(); i++) {
            if (which.test(keys[i])) {
                action.accept(tables.get(i));
            }
        }
    }
}
