package io.perfj.dwarf.info;

/**
 * A unit header of {@code .debug_info} or {@code .debug_types} (DWARF 5 section 7.5.1; DWARF 4
 * section 7.5.1 for type units in {@code .debug_types}). Offsets are section offsets.
 *
 * @param offset        where the unit's length field starts
 * @param end           the first byte after the unit
 * @param version       2 to 5
 * @param unitType      a {@code DW_UT_*} value; DWARF 2-4 units are reported as
 *                      {@link Dw#UT_compile}, or {@link Dw#UT_type} in {@code .debug_types}
 * @param abbrevOffset  the unit's abbreviation table in {@code .debug_abbrev}
 * @param addressSize   size of a target address
 * @param offsetSize    4 (32-bit DWARF) or 8 (64-bit DWARF)
 * @param typeSignature type units' signature (0 otherwise)
 * @param typeOffset    type units' type DIE, as a section offset (0 otherwise)
 * @param firstDie      where the first DIE starts
 * @param inTypes       whether the unit is in {@code .debug_types}
 */
public record UnitHeader(long offset, long end, int version, int unitType, long abbrevOffset,
                         int addressSize, int offsetSize, long typeSignature, long typeOffset,
                         long firstDie, boolean inTypes) {

    public boolean isTypeUnit() {
        return unitType == Dw.UT_type || unitType == Dw.UT_split_type;
    }
}
