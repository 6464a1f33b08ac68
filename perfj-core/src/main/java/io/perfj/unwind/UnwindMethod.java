package io.perfj.unwind;

import io.perfj.dwarf.CfiWalk;
import io.perfj.dwarf.UnwindArch;
import io.perfj.dwarf.UnwindObject;
import io.perfj.dwarf.UnwindSpace;
import io.perfj.io.Bytes;
import io.perfj.symbols.Map;
import io.perfj.symbols.Maps;
import io.perfj.symbols.Thread;

/**
 * How copied user stacks are walked: with the call frame information alone ({@link #CFI}, the
 * correct frames) or as another unwinder does (perf's libunwind, in {@code io.perfj.compat}).
 * Chosen once, when the session is opened.
 */
@FunctionalInterface
public interface UnwindMethod {
    /**
     * A walker for one thread of the reader over a run's objects, or null when this method
     * unwinds no stack of {@code arch} (the samples then have no user frames). {@code arch} is
     * null for an architecture perfj has no unwinder for.
     */
    Walker walker(UnwindObjects objects, UnwindArch arch);

    /** Walks one sample's copied stack; see {@link UserStackUnwinder#unwind}. */
    @FunctionalInterface
    interface Walker {
        /**
         * The frames, innermost first: the sampled address, then each caller's return address
         * minus one; null when the registers do not allow a walk.
         *
         * @param reg     the sample's registers in DWARF numbering ({@link UnwindArch#slots()})
         * @param known   which of them the sample holds
         * @param data    the copied stack
         * @param dynSize how many bytes of it the kernel filled
         */
        long[] unwind(long[] reg, boolean[] known, Bytes data, long dynSize, Thread thread, int max);
    }

    /** The call frame information alone, every rule as DWARF defines it ({@link CfiWalk}). */
    UnwindMethod CFI = (objects, arch) -> {
        if (arch == null) {
            return null;
        }
        CfiWalk walk = new CfiWalk(arch);
        Space space = new Space(objects);
        return (reg, known, data, dynSize, thread, max) -> walk.unwind(reg, known, data, dynSize, space.of(thread.maps()), max);
    };

    /** A thread's maps as the CFI walk reads them, the objects found through the run's cache. */
    final class Space implements UnwindSpace {
        private final UnwindObjects objects;
        private Maps maps;

        public Space(UnwindObjects objects) {
            this.objects = objects;
        }

        /** This space over {@code m} (until the next call). */
        public Space of(Maps m) {
            maps = m;
            return this;
        }

        @Override
        public Mapping mapping(long address) {
            return maps.find(address);
        }

        @Override
        public UnwindObject object(Mapping mapping) {
            return objects.of(((Map) mapping).dso());
        }
    }
}
