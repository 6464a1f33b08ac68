package io.perfj.btf.encode;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

/**
 * Names shared by all compile units, interned to ints (0 is the empty name). Ids depend on the
 * order threads ask; the writer lays strings out by first use in the final types, so output
 * bytes do not.
 */
final class StringPool {
    private final HashMap<String, Integer> ids = new HashMap<>();
    private final List<String> strings = new ArrayList<>();

    StringPool() {
        intern("");
    }

    synchronized int intern(String s) {
        Integer id = ids.get(s);
        if (id != null) {
            return id;
        }
        int n = strings.size();
        strings.add(s);
        ids.put(s, n);
        return n;
    }

    synchronized String get(int id) {
        return strings.get(id);
    }

    synchronized int size() {
        return strings.size();
    }

    /** A snapshot of all strings by id, for the writer. */
    synchronized String[] snapshot() {
        return strings.toArray(new String[0]);
    }
}
