package io.perfj.session;

import io.perfj.symbols.InlineFrames;
import io.perfj.symbols.Location;

import java.util.List;

/**
 * What an unwound user frame ({@code --call-graph dwarf}) becomes, chosen once per command as
 * {@link RecordedInlines} is for recorded callchain addresses.
 */
public enum UnwoundInlines {
    /**
     * The functions really inlined at the address, innermost first, then the frame itself with its
     * symbol and object (its line the outermost level's), also where DWARF names the function
     * otherwise than the symbol table ({@link InlineFrames#keepingFrame}): the default.
     */
    FRAME_KEPT {
        @Override
        public List<Location> frames(FrameResolver resolver, Location loc) {
            return InlineFrames.keepingFrame(loc, resolver.withInlines(loc));
        }
    },
    /**
     * Every level addr2line names, the outermost one as an inlined function where its DWARF name
     * is not the symbol's ({@code __GI___clock_gettime (inlined)} in place of
     * {@code clock_gettime}): perf 6.1 (and 7.2).
     */
    AS_NAMED {
        @Override
        public List<Location> frames(FrameResolver resolver, Location loc) {
            return resolver.withInlines(loc);
        }
    },
    /** The frame alone: {@code --no-inline}. */
    NONE {
        @Override
        public List<Location> frames(FrameResolver resolver, Location loc) {
            return List.of(loc);
        }
    };

    /** The frames an unwound address resolved to {@code loc} (in an object) becomes. */
    public abstract List<Location> frames(FrameResolver resolver, Location loc);

    /** The rule of a command: perf 6.1's under {@code --compat perf-6.1}, none with {@code --no-inline}. */
    public static UnwoundInlines of(Compat compat, boolean inlines) {
        return !inlines ? NONE : compat.perf61() ? AS_NAMED : FRAME_KEPT;
    }
}
