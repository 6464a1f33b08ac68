package io.perfj.top;

import io.perfj.annotate.AddressCounts;
import io.perfj.symbols.Dso;
import io.perfj.symbols.Location;
import io.perfj.symbols.Symbol;

import java.util.HashMap;

/**
 * The live profile's sums per sampled address within each (object, symbol), for annotating a
 * row: only addresses actually sampled take room, and at most {@link #CAP} of them in all; the
 * samples at addresses beyond the cap are counted as dropped. Not thread-safe: the profile's
 * monitor guards it.
 */
final class SymbolAddresses {
    /** At most this many addresses are kept over all symbols (about 24 bytes each, plus the index). */
    static final int CAP = 1 << 20;

    /** One symbol's sums: offsets into the symbol, and where its start is in the address space. */
    static final class Sums extends AddressCounts {
        final long absStart;
        /** Samples at an address not kept (the cap was reached). */
        long dropped;

        Sums(long absStart) {
            this.absStart = absStart;
        }

        Copy copy() {
            return new Copy(absStart, addresses(), samples(), periods(), dropped);
        }
    }

    /** A symbol's sums at one moment: offsets into it with their samples and period. */
    record Copy(long absStart, long[] offsets, long[] samples, long[] periods, long dropped) {
    }

    private record Key(Dso dso, Symbol sym) {
    }

    private final HashMap<Key, Sums> sums = new HashMap<>();
    private int addresses;
    private final int cap;
    private Location lastLoc;
    private Sums last;

    SymbolAddresses() {
        this(CAP);
    }

    SymbolAddresses(int cap) {
        this.cap = cap;
    }

    /** Counts a sample that landed at {@code loc} (nothing without an object and a symbol). */
    void add(Location loc, long period) {
        if (loc == null || loc.dso() == null || loc.symbol() == null) {
            return;
        }
        Sums s;
        if (lastLoc != null && lastLoc.dso() == loc.dso() && lastLoc.symbol() == loc.symbol()) {
            s = last; // samples come in runs of one symbol
        } else {
            s = sums.computeIfAbsent(new Key(loc.dso(), loc.symbol()),
                    k -> new Sums(loc.symbol().start() + (loc.ip() - loc.mapIp())));
            lastLoc = loc;
            last = s;
        }
        long off = loc.symbolOffset();
        if (addresses >= cap && !s.has(off)) {
            s.dropped++;
            return;
        }
        if (s.add(off, period)) {
            addresses++;
        }
    }

    /** The sums of {@code sym} in {@code dso}, or null when none of its samples came. */
    Sums of(Dso dso, Symbol sym) {
        return sums.get(new Key(dso, sym));
    }

    void clear() {
        sums.clear();
        addresses = 0;
        lastLoc = null;
        last = null;
    }
}
