package io.perfj.dwarf;

/**
 * A process's address space as a {@link CfiWalk} reads it: the mapping at an address and the
 * unwind data of the object it maps. The process model implements it; the DWARF reader knows
 * nothing of processes.
 */
public interface UnwindSpace {
    /** The mapping that covers {@code address}, or null. */
    Mapping mapping(long address);

    /** The object a mapping maps, with its call frame information, or null when unknown or unreadable. */
    UnwindObject object(Mapping mapping);

    /** One mapping of an address space. */
    interface Mapping {
        /** Whether the mapping maps an object (a file, the vdso...), not anonymous memory. */
        boolean mapsObject();

        /** The offset in the object's file of an address inside the mapping. */
        long mapIp(long address);

        /** The mapping's {@code PROT_*} bits. */
        int prot();

        boolean contains(long address);
    }
}
