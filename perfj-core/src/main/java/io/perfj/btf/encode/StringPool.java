package io.perfj.btf.encode;

import io.perfj.btf.wire.Kinds;
import io.perfj.btf.wire.StringSectionBuilder;
import io.perfj.btf.wire.TypeSection;

import java.util.ArrayList;
import java.util.Arrays;
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

    /**
     * Appends to {@code out} the strings {@code types} name, in order of first use, and returns
     * each one's offset by pool id (the ids no type names are left unset).
     */
    synchronized int[] layOut(TypeSection types, StringSectionBuilder out) {
        int[] offsetOf = new int[strings.size()];
        Arrays.fill(offsetOf, -1);
        offsetOf[0] = 0;
        for (int id = types.first(); id < types.end(); id++) {
            int[] w = types.words(id);
            Kinds.forEachName(w, types.pos(id), at -> {
                int s = w[at];
                if (s >= 0 && offsetOf[s] < 0) { // a negative name is a split's base string (SplitBase)
                    offsetOf[s] = out.append(strings.get(s));
                }
            });
        }
        return offsetOf;
    }
}
