package io.perfj.profile;

import io.perfj.symbols.Dso;
import io.perfj.symbols.MapRef;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The memory mappings a profile's locations are in, interned: one per (object, start, end, file
 * offset), so that one object mapped by many processes (or at other addresses) is one mapping
 * per placement. Columns of primitives beside the objects.
 */
public final class Mappings {
    private record Key(Dso dso, long start, long end, long pgoff) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && dso == k.dso && start == k.start && end == k.end && pgoff == k.pgoff;
        }

        @Override
        public int hashCode() {
            return ((System.identityHashCode(dso) * 31 + Long.hashCode(start)) * 31 + Long.hashCode(end)) * 31
                    + Long.hashCode(pgoff);
        }
    }

    private final Map<Key, Integer> ids = new HashMap<>();
    private final List<Dso> dsos = new ArrayList<>();
    private long[] start = new long[16];
    private long[] end = new long[16];
    private long[] pgoff = new long[16];

    /** The last map interned and its mapping: stacks come in runs of one map. */
    private MapRef lastMap;
    private int lastId;

    /** The mapping of {@code map}, or -1 for none (no map, or a map without an object). */
    int intern(MapRef map) {
        if (map == null || map.dso() == null) {
            return -1;
        }
        if (map == lastMap) {
            return lastId;
        }
        lastMap = map;
        lastId = find(map);
        return lastId;
    }

    private int find(MapRef map) {
        Key k = new Key(map.dso(), map.start(), map.end(), map.pgoff());
        Integer id = ids.get(k);
        if (id != null) {
            return id;
        }
        int m = dsos.size();
        if (m == start.length) {
            start = Arrays.copyOf(start, m * 2);
            end = Arrays.copyOf(end, m * 2);
            pgoff = Arrays.copyOf(pgoff, m * 2);
        }
        dsos.add(map.dso());
        start[m] = map.start();
        end[m] = map.end();
        pgoff[m] = map.pgoff();
        ids.put(k, m);
        return m;
    }

    public int size() {
        return dsos.size();
    }

    /** The mapped object. */
    public Dso dso(int mapping) {
        return dsos.get(mapping);
    }

    /** The first address of the mapping. */
    public long start(int mapping) {
        return start[mapping];
    }

    /** The address past the mapping. */
    public long end(int mapping) {
        return end[mapping];
    }

    /** The offset into the object's file where the mapping starts. */
    public long fileOffset(int mapping) {
        return pgoff[mapping];
    }

    /** The object's path as the recording names it. */
    public String path(int mapping) {
        return dsos.get(mapping).longName();
    }

    /** The object's build-id in hex, or null when the recording has none. */
    public String buildId(int mapping) {
        return dsos.get(mapping).buildIdHex();
    }
}
