package io.perfj.report;

import io.perfj.symbols.Dso;
import io.perfj.symbols.Location;
import io.perfj.symbols.Symbol;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Interns {@link Frame}s: equal (dso, symbol or address, level) get the same small int id. */
public final class FrameTable {
    private record Key(Dso dso, Symbol sym, long addr, char level) {
    }

    private final Map<Key, Integer> ids = new HashMap<>();
    private final List<Frame> frames = new ArrayList<>();

    public int intern(Location loc) {
        Symbol sym = loc.symbol();
        long addr = sym != null ? 0 : (loc.dso() != null ? loc.mapIp() : loc.ip());
        Key k = new Key(loc.dso(), sym, addr, loc.level());
        Integer id = ids.get(k);
        if (id == null) {
            id = frames.size();
            ids.put(k, id);
            frames.add(new Frame(loc.dso(), sym, sym != null ? loc.mapIp() : addr, loc.level()));
        }
        return id;
    }

    public Frame get(int id) {
        return frames.get(id);
    }

    public int size() {
        return frames.size();
    }
}
