package io.perfj.profile;

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
    /**
     * {@code own}: a sample's own address, when {@link #byOwnAddress} makes it part of the key; else 0.
     * {@code line}: the line of a level of an inline chain where callchain nodes print lines, else null.
     */
    private record Key(Dso dso, Symbol sym, long addr, char level, long own, String line) {
        @Override
        public boolean equals(Object o) {
            // written out with the generated hash, for start-up (see Symbol.equals)
            return o instanceof Key k && addr == k.addr && level == k.level && dso == k.dso && own == k.own
                    && Objects.equals(sym, k.sym) && Objects.equals(line, k.line);
        }

        @Override
        public int hashCode() {
            return ((((System.identityHashCode(dso) * 31 + Objects.hashCode(sym)) * 31
                    + Long.hashCode(addr)) * 31 + level) * 31 + Long.hashCode(own)) * 31 + Objects.hashCode(line);
        }
    }

    /**
     * Whether a sample's own frames are told apart by address (all of one place still share
     * their {@link #canonical} frame, which is what entries are keyed by), so that an entry's
     * frame, the one of the sample that made it, knows that sample's address ({@code -v}).
     */
    private final boolean byOwnAddress;
    /** By frame id: the address perf's hist entry keeps when the frame makes one ({@link #address}). */
    private long[] met = new long[1024];

    /**
     * The source line of a callchain address where callchain nodes are told apart by address or
     * by source line ({@code -g address}, {@code -g srcline}): each callchain address is then a
     * frame of its own, printed with this text; null where nodes are functions.
     */
    private final java.util.function.Function<Location, String> chainLines;
    /**
     * Whether callchain frames of one source line make one node ({@code -g srcline}): perf
     * compares the texts alone, whatever function or object they are in, and a node prints the
     * first frame that reached it ({@link #nodesShowFirstFrame}).
     */
    private final boolean bySrcline;
    /** By frame id: the source line {@link #chainName} prints (null: none). */
    private String[] lines;
    /** By source line text, the first frame of the line. */
    private final Map<String, Integer> firstOfLine = new HashMap<>();

    /** A table whose frames are equal by object, symbol (or address) and level. */
    public FrameTable() {
        this(false);
    }

    /** @param byOwnAddress see {@link #byOwnAddress} */
    public FrameTable(boolean byOwnAddress) {
        this(byOwnAddress, CallchainKey.FUNCTION, null);
    }

    /**
     * @param byOwnAddress see {@link #byOwnAddress}
     * @param key          what tells callchain nodes apart
     * @param chainLines   a callchain address's source line as the graph prints it after the
     *                     symbol (used with the address and srcline keys)
     */
    public FrameTable(boolean byOwnAddress, CallchainKey key, java.util.function.Function<Location, String> chainLines) {
        this.byOwnAddress = byOwnAddress;
        this.chainLines = key == CallchainKey.FUNCTION ? null : chainLines;
        this.bySrcline = key == CallchainKey.SRCLINE;
        this.lines = this.chainLines == null ? null : new String[1024];
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
        long own = ownAddress(loc);
        return intern(loc.dso(), sym, addr, loc.level(), loc.mapIp(), own, byOwnAddress ? own : 0);
    }

    /**
     * A sample's own address as perf's hist entry keeps it: in its object's terms, which for a
     * BPF program (whose symbols perfj keys by kernel address) is the offset into its map.
     */
    private static long ownAddress(Location loc) {
        if (loc.dso() == null) {
            return loc.ip();
        }
        if (loc.dso().kind() == io.perfj.symbols.DsoKind.BPF && loc.map() != null) {
            return loc.ip() - loc.map().start() + loc.map().pgoff();
        }
        return loc.mapIp();
    }

    /**
     * The address perf's {@code -v} prints before an entry's symbol: that of the sample which
     * made the entry, for a sample's own frame in its object's terms ({@link #ownAddress}), for
     * a callchain frame (--children) as the chain has it. A callchain frame is one per place, so
     * its address is where the recording first met the place.
     */
    public long address(int id) {
        return met[id];
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
        if (chainLines == null) {
            return intern(dso, sym, sym != null ? 0 : loc.ip(), level, loc.mapIp(), loc.ip(), 0);
        }
        // perf's address and srcline keys compare callchain nodes by object and address, or by
        // their lines' texts (an address in no object has no line: by address); the levels of an
        // address's inline chain by their own lines too (one function may be two levels of it)
        int before = frames.size();
        int id = intern(dso, sym, sym != null ? 0 : loc.ip(), level, loc.mapIp(), loc.ip(), loc.ip(), loc.srcline());
        if (id == before) {
            if (id >= lines.length) {
                lines = Arrays.copyOf(lines, Math.max(id + 1, lines.length * 2));
            }
            String line = dso == null ? null : chainLines.apply(loc);
            lines[id] = line;
            chainNode[id] = bySrcline && line != null ? firstOfLine.computeIfAbsent(line, t -> id) : id;
        }
        return id;
    }

    /**
     * The name perf prints for a frame inside a callchain graph: {@link Frame#chainName}, or with
     * the address and srcline keys the symbol followed by the address's source line.
     */
    public String chainName(int id) {
        Frame f = frames.get(id);
        String line = line(id);
        if (line == null || f.sym() == null) {
            return f.chainName();
        }
        return f.sym().name() + " " + line + (f.sym().inlined() ? " (inlined)" : "");
    }

    /**
     * The source line a callchain frame prints with the address and srcline keys ({@code -g
     * address}, {@code -g srcline}), which the srcline key compares: null with the function key
     * and for an address in no object.
     */
    public String line(int id) {
        return lines == null || id >= lines.length ? null : lines[id];
    }

    /**
     * Whether a callchain node prints the first frame that reached it rather than its
     * {@link #chainNode} frame: where frames of different functions make one node ({@code -g
     * srcline}).
     */
    public boolean nodesShowFirstFrame() {
        return bySrcline;
    }

    /** A frame another table made (the same object, symbol or address and level), as a frame of this one. */
    public int intern(Frame f) {
        return intern(f.dso(), f.sym(), f.sym() != null ? 0 : f.addr(), f.level(), f.addr(), f.addr(), 0);
    }

    /** A callchain address in no map, with the level perf gives it. */
    public int internUnmapped(long ip, char level) {
        return intern(null, null, ip, level, ip, ip, 0);
    }

    private int intern(Dso dso, Symbol sym, long addr, char level, long mapIp, long address, long own) {
        return intern(dso, sym, addr, level, mapIp, address, own, null);
    }

    private int intern(Dso dso, Symbol sym, long addr, char level, long mapIp, long address, long own, String line) {
        Key k = new Key(dso, sym, addr, level, own, line);
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
            canonical[id] = sym != null && sym.inlined() ? inlinedPlace(dso, sym, first)
                    : places.computeIfAbsent(new Place(dso, sym, addr), p -> first);
            chainNode[id] = sym != null && sym.inlined() ? inlinedByName.computeIfAbsent(sym.name(), n -> first)
                    : canonical[id];
            if (id == met.length) {
                met = Arrays.copyOf(met, id * 2);
            }
            met[id] = address;
        }
        return id;
    }

    /**
     * The place of an inlined function's frame: the first of the same object and name whose
     * function (the one it is inlined into) overlaps or touches its own, as perf's symbol
     * comparison ({@code _sort__sym_cmp}) makes its hist entries one: the same function inlined
     * into neighbouring functions is one entry.
     */
    private int inlinedPlace(Dso dso, Symbol sym, int first) {
        Place place = new Place(dso, sym, 0);
        Integer known = places.get(place);
        if (known != null) {
            return known;
        }
        List<Integer> named = inlinedPlaces.computeIfAbsent(sym.name(), n -> new ArrayList<>(2));
        int at = first;
        for (int other : named) {
            Frame f = frames.get(other);
            if (f.dso() == dso && Long.compareUnsigned(f.sym().start(), sym.end()) <= 0
                    && Long.compareUnsigned(f.sym().end(), sym.start()) >= 0) {
                at = other;
                break;
            }
        }
        if (at == first) {
            named.add(first);
        }
        places.put(place, at);
        return at;
    }

    /** By name, the first frame of each place of an inlined function ({@link #inlinedPlace}). */
    private final Map<String, List<Integer>> inlinedPlaces = new HashMap<>();

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
     * they were inlined into. With the address key the frame itself; with the srcline key the
     * first frame of its line text (the frame itself without a line).
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
