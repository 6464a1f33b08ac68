package io.perfj.report;

import io.perfj.symbols.Dso;
import io.perfj.symbols.Location;
import io.perfj.symbols.Symbol;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Interns {@link Frame}s: equal (dso, symbol or address, level) get the same small int id. */
public final class FrameTable {
    private record Key(Dso dso, Symbol sym, long addr, char level) {
        @Override
        public boolean equals(Object o) {
            // written out with the generated hash, for start-up (see Symbol.equals)
            return o instanceof Key k && addr == k.addr && level == k.level && dso == k.dso
                    && Objects.equals(sym, k.sym);
        }

        @Override
        public int hashCode() {
            return ((System.identityHashCode(dso) * 31 + Objects.hashCode(sym)) * 31
                    + Long.hashCode(addr)) * 31 + level;
        }
    }

    private record Place(Dso dso, Symbol sym, long addr) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Place p && addr == p.addr && dso == p.dso && Objects.equals(sym, p.sym);
        }

        @Override
        public int hashCode() {
            return (System.identityHashCode(dso) * 31 + Objects.hashCode(sym)) * 31 + Long.hashCode(addr);
        }
    }

    private final Map<Key, Integer> ids = new HashMap<>();
    private final Map<Place, Integer> places = new HashMap<>();
    private final List<Frame> frames = new ArrayList<>();
    private int[] canonical = new int[1024];
    private int[] chainNode = new int[1024];
    private final Map<String, Integer> inlinedByName = new HashMap<>();
    private final Map<Integer, Integer> bases = new HashMap<>();

    /**
     * The frame of a sample's own address, as perf keys its hist entry: without a symbol, by the
     * address in the DSO (or the raw address outside any map).
     */
    public int intern(Location loc) {
        Symbol sym = loc.symbol();
        long addr = sym != null ? 0 : (loc.dso() != null ? loc.mapIp() : loc.ip());
        return intern(loc.dso(), sym, addr, loc.level(), loc.mapIp());
    }

    /**
     * The frame of a callchain address, as perf keys entries made from callchain nodes: without a
     * symbol by the raw address; the level is the map's ('k' for kernel objects, '.' otherwise),
     * or the sample's own level when the address is in no map.
     */
    public int internChain(Location loc, char sampleLevel) {
        Symbol sym = loc.symbol();
        Dso dso = loc.dso();
        char level = dso == null ? sampleLevel
                : switch (dso.kind()) {
                    case KERNEL, KERNEL_MODULE, BPF -> 'k';
                    default -> '.';
                };
        return intern(dso, sym, sym != null ? 0 : loc.ip(), level, loc.mapIp());
    }

    /** A frame another table made (the same object, symbol or address and level), as a frame of this one. */
    public int intern(Frame f) {
        return intern(f.dso(), f.sym(), f.sym() != null ? 0 : f.addr(), f.level(), f.addr());
    }

    /** A callchain address in no map, with the level perf gives it. */
    public int internUnmapped(long ip, char level) {
        return intern(null, null, ip, level, ip);
    }

    private int intern(Dso dso, Symbol sym, long addr, char level, long mapIp) {
        Key k = new Key(dso, sym, addr, level);
        Integer id = ids.get(k);
        if (id == null) {
            id = frames.size();
            ids.put(k, id);
            frames.add(new Frame(dso, sym, sym != null ? mapIp : addr, level));
            if (id == canonical.length) {
                canonical = Arrays.copyOf(canonical, id * 2);
                chainNode = Arrays.copyOf(chainNode, id * 2);
            }
            int first = id;
            canonical[id] = places.computeIfAbsent(new Place(dso, sym, addr), p -> first);
            chainNode[id] = sym != null && sym.inlined() ? inlinedByName.computeIfAbsent(sym.name(), n -> first)
                    : canonical[id];
        }
        return id;
    }

    /**
     * The first frame interned at the same place (DSO, symbol or address) whatever its level:
     * perf's sort keys do not compare the level, so the first entry made for a place keeps its.
     */
    public int canonical(int id) {
        return canonical[id];
    }

    /**
     * The frame a callchain tree keys this one by (perf's {@code match_chain} with the function
     * key): its {@link #canonical} frame, but for a function inlined at an address the first
     * inlined frame of the same name, whatever object or function it was inlined into — perf
     * compares inlined frames by name alone, as their symbols share the start of the function
     * they were inlined into.
     */
    public int chainNode(int id) {
        return chainNode[id];
    }

    /** Records the frame of the symbol an inlined frame was found in (its ELF symbol, same place). */
    public void setBase(int inlined, int base) {
        bases.putIfAbsent(inlined, base);
    }

    /**
     * The frame perf finds at an inlined frame's symbol start when it looks the address up again
     * ({@code map__find_symbol}): the symbol it was inlined into. Other frames are their own base.
     */
    public int base(int id) {
        return bases.getOrDefault(id, id);
    }

    public Frame get(int id) {
        return frames.get(id);
    }

    public int size() {
        return frames.size();
    }
}
