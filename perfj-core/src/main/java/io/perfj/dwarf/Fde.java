package io.perfj.dwarf;

import io.perfj.io.Bytes;

/**
 * A Frame Description Entry (DWARF 5 section 6.4.1; LSB 5.0 "The Frame Description Entry
 * Format"): the address range [{@code pcBegin}, {@code pcEnd}) it describes, its CIE and the
 * instructions that build its unwind table.
 *
 * @param offset       offset of the entry's length field in its section
 * @param cie          the CIE the FDE refers to
 * @param pcBegin      first address covered
 * @param pcEnd        first address past the range (pcBegin + address range)
 * @param lsda         language-specific data area address, or 0 when absent
 * @param instructions the FDE's call frame instructions
 */
public record Fde(long offset, Cie cie, long pcBegin, long pcEnd, long lsda, Bytes instructions) {

    /** Whether {@code pc} lies in [pcBegin, pcEnd) (unsigned). */
    public boolean contains(long pc) {
        return Long.compareUnsigned(pc, pcBegin) >= 0 && Long.compareUnsigned(pc, pcEnd) < 0;
    }
}
