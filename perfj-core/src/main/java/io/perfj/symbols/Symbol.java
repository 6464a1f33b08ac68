package io.perfj.symbols;

/**
 * A named address range [start, end) in its DSO's address space (for user ELF objects: file
 * offsets, as perf keeps them after adjusting by each segment's p_vaddr - p_offset; for the
 * kernel, kallsyms, BPF programs and JIT maps: absolute addresses).
 *
 * @param binding 'G' global, 'L' local, 'W' weak, 'U' unknown (perf's STB_* view), or
 *                {@link #INLINED} for a function inlined at an address
 */
public record Symbol(long start, long end, String name, char binding) {
    /** The binding of a function inlined at an address, named from debug info (perf's "(inlined)"). */
    public static final char INLINED = 'I';

    @Override
    public boolean equals(Object o) {
        // Written out (with the hash a record's generated hashCode gives, so that hash-ordered
        // iteration is unchanged): a record's own equals/hashCode are bootstrapped through
        // ObjectMethods at their first call, which spins classes at run time, milliseconds of
        // start-up per record class that no ahead-of-time cache keeps.
        return o instanceof Symbol s && start == s.start && end == s.end && binding == s.binding
                && java.util.Objects.equals(name, s.name);
    }

    /** The hash a record's generated one gives (components in order, 31 as the multiplier). */
    @Override
    public int hashCode() {
        return ((Long.hashCode(start) * 31 + Long.hashCode(end)) * 31 + java.util.Objects.hashCode(name)) * 31 + binding;
    }

    public boolean inlined() {
        return binding == INLINED;
    }

    public long size() {
        return end - start;
    }

    public boolean contains(long addr) {
        return Long.compareUnsigned(addr, start) >= 0 && Long.compareUnsigned(addr, end) < 0;
    }
}
