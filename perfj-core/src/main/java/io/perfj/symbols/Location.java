package io.perfj.symbols;

/**
 * Where an address landed: its map (null when unmapped), the DSO (null when unmapped), the symbol
 * (null when none covers it), the address as sampled, and the address in the DSO's space
 * ({@code map_ip}: what perf prints for user frames in {@code perf script} and uses for lookup).
 *
 * @param level perf's privilege marker: 'k' kernel, '.' user, 'g' guest kernel, 'u' guest user,
 *              'H' hypervisor
 * @param srcline the source line of a level of the address's inline chain as addr2line names it
 *                (the call site of the next inner function for the outer levels), null for a
 *                frame not expanded into its inlined functions
 */
public record Location(MapRef map, Dso dso, Symbol symbol, long ip, long mapIp, char level, String srcline) {
    /** A frame not expanded into its inlined functions. */
    public Location(MapRef map, Dso dso, Symbol symbol, long ip, long mapIp, char level) {
        this(map, dso, symbol, ip, mapIp, level, null);
    }

    /** The offset of {@code mapIp} into the symbol, or -1 without a symbol. */
    public long symbolOffset() {
        return symbol == null ? -1 : mapIp - symbol.start();
    }
}
