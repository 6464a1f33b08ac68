package io.perfj.profile;

import io.perfj.symbols.Dso;
import io.perfj.symbols.Symbol;

/**
 * The source positions of a profile's locations and of its functions, looked up when a view first
 * asks for one and kept: a level of an inline chain has the line the session named for it
 * ({@link Locations#srcline}: where the function is, for the innermost level, where it calls
 * the next inner one for the others); any other location the row of its object's line table at
 * its address, through a {@link Finder} (the line tables annotate and {@code --sort srcline}
 * read). Only the views that print lines (pprof, the Firefox Profiler) make one.
 */
public final class SourcePositions {
    /** A file (null: unknown) and a line (0: unknown). */
    public record Position(String file, long line) {
        public static final Position UNKNOWN = new Position(null, 0);
    }

    /** Where source positions are read from. */
    public interface Finder {
        /** The line-table row at an address in an object's terms ({@link Locations#objectAddress}), or null. */
        Position at(Dso dso, long objectAddress);

        /** The position of a function's first instruction, or null. */
        Position start(Dso dso, Symbol sym);
    }

    private final Profile profile;
    private final Finder finder;
    private Position[] byLocation;
    private Position[] byFrame;

    /** @param finder null: only the lines the session named */
    public SourcePositions(Profile profile, Finder finder) {
        this.profile = profile;
        this.finder = finder;
    }

    /** The location's file and line. */
    public Position of(int loc) {
        if (byLocation == null) {
            byLocation = new Position[profile.locations().size()];
        }
        Position p = byLocation[loc];
        if (p == null) {
            p = find(loc);
            byLocation[loc] = p;
        }
        return p;
    }

    private Position find(int loc) {
        Locations l = profile.locations();
        String srcline = l.srcline(loc);
        if (srcline != null) {
            return parse(srcline);
        }
        Frame f = profile.frames().get(l.frame(loc));
        if (finder == null || f.dso() == null) {
            return Position.UNKNOWN;
        }
        Position p = finder.at(f.dso(), l.objectAddress(loc));
        return p == null ? Position.UNKNOWN : p;
    }

    /**
     * Where the function of a frame starts (the position of its first instruction), or
     * {@link Position#UNKNOWN}: for an inlined function, an address without a symbol, or an
     * object without a line table.
     */
    public Position start(int frame) {
        if (byFrame == null) {
            byFrame = new Position[profile.frames().size()];
        }
        Position p = byFrame[frame];
        if (p == null) {
            Frame f = profile.frames().get(frame);
            p = finder == null || f.dso() == null || f.sym() == null || f.sym().inlined() ? null
                    : finder.start(f.dso(), f.sym());
            p = p == null ? Position.UNKNOWN : p;
            byFrame[frame] = p;
        }
        return p;
    }

    /** addr2line's {@code FILE:LINE}, perhaps followed by {@code (discriminator N)}; {@code ??} and {@code ?} unknown. */
    static Position parse(String srcline) {
        String s = srcline;
        int paren = s.indexOf(" (discriminator ");
        if (paren >= 0) {
            s = s.substring(0, paren);
        }
        int colon = s.lastIndexOf(':');
        if (colon < 0) {
            return Position.UNKNOWN;
        }
        String file = s.substring(0, colon);
        long line;
        try {
            line = Long.parseLong(s.substring(colon + 1));
        } catch (NumberFormatException e) {
            line = 0;
        }
        return new Position(file.equals("??") ? null : file, line);
    }
}
