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

    public boolean inlined() {
        return binding == INLINED;
    }

    public long size() {
        return end - start;
    }

    public boolean contains(long addr) {
        return Long.compareUnsigned(addr, start) >= 0 && Long.compareUnsigned(addr, end) < 0;
    }

    // Written out rather than the record's generated pair: report keys its frame tables by
    // symbols, and the generated methods' first calls go through a bootstrap method.
    @Override
    public boolean equals(Object o) {
        return o == this || o instanceof Symbol s && s.start == start && s.end == end && s.binding == binding
                && s.name.equals(name);
    }

    @Override
    public int hashCode() {
        return (Long.hashCode(start) * 31 + Long.hashCode(end)) * 31 + binding + name.hashCode() * 961;
    }
}
